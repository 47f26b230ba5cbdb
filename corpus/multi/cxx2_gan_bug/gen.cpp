// gen.cpp — the generator: noise -> hidden -> data, on its own device.
#include "nets.hpp"

namespace gan {

Tensor Network::param(uint64_t seed, int r, int c, float scale) const {
  std::array<int64_t, 2> s{r, c};
  Tensor raw(dt_randn(dev_, seed, 2, s.data()));
  return Tensor(dt_mul_scalar(raw.get(), scale));
}

Generator::Generator(dt_device d) : Network(d) {
  w1_ = param(11u, kNoise, kHidden, 0.5f);
  w2_ = param(12u, kHidden, kData, 0.5f);
}

Tensor Generator::operator()(const dt_tensor* z) const {
  Tensor h(dt_matmul(z, w1_.get()));
  Tensor a(dt_tanh(h.get()));
  return Tensor(dt_matmul(a.get(), w2_.get()));
}

Tensor Generator::sample(uint64_t seed) const {
  std::array<int64_t, 2> s{kBatch, kNoise};
  Tensor z(dt_randn(dev_, seed, 2, s.data()));
  return (*this)(z.get());
}

}  // namespace gan
