// corpus/cxx/operators_clean.cpp — the same wrapper; every operand is on sim:0, and the
// conversion operator hands the handle to dt_numel. Clean.
#include <cstdio>

#include <dt/dt.h>

namespace tx {

static const int64_t kShape[2] = {2, 2};

struct Tensor {
  dt_tensor *h;
  static Tensor ones(dt_device d) { return Tensor{dt_ones(d, DT_FLOAT, 2, kShape)}; }
  Tensor operator+(const Tensor &o) const { return Tensor{dt_add(h, o.h)}; }
  operator const dt_tensor *() const { return h; }
};

inline Tensor operator*(const Tensor &a, const Tensor &b) { return Tensor{dt_matmul(a.h, b.h)}; }

}  // namespace tx

int main() {
  tx::Tensor w = tx::Tensor::ones(dt_sim(0));
  tx::Tensor x = tx::Tensor::ones(dt_sim(0));
  tx::Tensor b = tx::Tensor::ones(dt_sim(0));
  tx::Tensor y = x * w + b;
  std::printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
