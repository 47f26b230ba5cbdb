// corpus/cxx/unique_ptr_bug.cpp — weights owned by std::unique_ptr with a deleter calling
// dt_free: the handle a unique_ptr is made from, reset to or moved into is the one get()
// gives back. A reload resets the weight to a host tensor; the input stays on sim:0.
// Bug: backend-mismatch.
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
  Owned w(dt_randn(dt_sim(0), 1, 2, kShape));
  Owned x(dt_ones(dt_sim(0), DT_FLOAT, 2, kShape));
  Owned first(dt_matmul(x.get(), w.get()));
  w.reset(dt_randn(dt_cpu(), 2, 2, kShape));
  Owned moved = std::move(w);
  Owned second(dt_matmul(x.get(), moved.get())); // expect-error: backend-mismatch
  std::printf("%lld\n", (long long)dt_numel(second.get()));
  return 0;
}
