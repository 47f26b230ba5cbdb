// The model of the multi-file trainer: two matmuls with a tanh between them.
#include "trainer.hpp"

namespace mt {

Model::Model(const RunConfig &cfg) : dev_(cfg.model_dev) {
  const int64_t s1[] = {cfg.features, cfg.hidden};
  const int64_t s2[] = {cfg.hidden, 1};
  w1_ = dt_randn(dev_, 1, 2, s1);
  w2_ = dt_randn(dev_, 2, 2, s2);
}

Model::~Model() {
  dt_free(w1_);
  dt_free(w2_);
}

dt_tensor *Model::forward(const dt_tensor *x) const {
  dt_tensor *h = dt_matmul(x, w1_); // expect-error: device-mismatch
  dt_tensor *a = dt_tanh(h);
  dt_tensor *y = dt_matmul(a, w2_);
  dt_free(a);
  dt_free(h);
  return y;
}

float Model::loss(const dt_tensor *x, const dt_tensor *y) const {
  dt_tensor *p = forward(x);
  dt_tensor *l = dt_mse_loss(p, y);
  float v = -1.0f;
  if (l) dt_read_floats(l, &v, 1);
  dt_free(l);
  dt_free(p);
  return v;
}

}  // namespace mt
