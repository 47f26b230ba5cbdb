// disc.cpp — the discriminator: data -> hidden -> score in (0,1), plus a crude update rule.
#include "nets.hpp"

namespace gan {

Discriminator::Discriminator(dt_device d) : Network(d) {
  w1_ = param(21u, kData, kHidden, 0.4f);
  w2_ = param(22u, kHidden, 1, 0.4f);
}

Tensor Discriminator::operator()(const dt_tensor* x) const {
  Tensor h(dt_matmul(x, w1_.get())); // expect-error: device-mismatch
  if (!h) return Tensor();
  Tensor a(dt_relu(h.get()));
  Tensor s(dt_matmul(a.get(), w2_.get()));
  return Tensor(dt_sigmoid(s.get()));
}

// move the first layer along the batch's mean direction
void Discriminator::nudge(const dt_tensor* x, float lr) {
  Tensor col(dt_sum_dim(x, 0));
  std::array<int64_t, 2> s{kData, 1};
  Tensor colv(dt_reshape(col.get(), 2, s.data()));
  Tensor step(dt_mul_scalar(colv.get(), lr));
  Tensor nw(dt_add(w1_.get(), step.get()));
  if (nw) w1_ = std::move(nw);
}

}  // namespace gan
