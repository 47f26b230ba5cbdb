// corpus/cxx/unique_ptr_clean.cpp — weights owned by std::unique_ptr with a deleter calling
// dt_free, reset to a copy moved to the input's device and moved into another owner: every
// get() gives a handle on sim:0. Clean.
#include <cstdio>
#include <memory>
#include <utility>

#include <dt/dt.h>

struct FreeTensor {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using Owned = std::unique_ptr<dt_tensor, FreeTensor>;

static const int64_t kShape[2] = {2, 2};

int main() {
  Owned w(dt_randn(dt_cpu(), 1, 2, kShape));
  Owned x(dt_ones(dt_sim(0), DT_FLOAT, 2, kShape));
  w.reset(dt_to_device(w.get(), dt_sim(0)));
  Owned moved = std::move(w);
  Owned y(dt_matmul(x.get(), moved.get()));
  std::printf("%lld\n", (long long)dt_numel(y.get()));
  return 0;
}
