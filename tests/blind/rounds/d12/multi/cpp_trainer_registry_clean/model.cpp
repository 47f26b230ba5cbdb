// provenance: blind round d12
#include "model.h"
#include <cmath>

Dense::Dense(dt_device dev, int64_t in, int64_t out, uint64_t seed) {
  const int64_t ws[2] = {in, out}, bs[1] = {out};
  dt_device inner = dt_inner_device(dev);
  dt_tensor *r = dt_randn(inner, seed, 2, ws);
  dt_tensor *rs = dt_mul_scalar(r, 1.0f / std::sqrt((float)in));
  dt_tensor *z = dt_zeros(inner, DT_FLOAT, 1, bs);
  if (dev.autodiff) {
    w_ = dt_require_grad(dt_from_inner(dev, rs));
    b_ = dt_require_grad(dt_from_inner(dev, z));
    dt_free(rs);
    dt_free(z);
  } else {
    w_ = rs;
    b_ = z;
  }
  dt_free(r);
}

Dense::~Dense() {
  dt_free(w_);
  dt_free(b_);
}

dt_tensor *Dense::forward(const dt_tensor *x) const {
  dt_tensor *h = dt_matmul(x, w_);
  dt_tensor *o = dt_add(h, b_);
  dt_free(h);
  return o;
}

void Dense::collect(const std::string &prefix, std::map<std::string, dt_tensor **> &out) {
  out[prefix + ".w"] = &w_;
  out[prefix + ".b"] = &b_;
}

Model::Model(dt_device dev, int in, int hidden, int out) : dev_(dev) {
  mods_.push_back(std::make_unique<Dense>(dev, in, hidden, 11));
  mods_.push_back(std::make_unique<Act>());
  mods_.push_back(std::make_unique<Dense>(dev, hidden, out, 12));
}

dt_tensor *Model::forward(const dt_tensor *x) const {
  dt_tensor *cur = dt_mul_scalar(x, 1.0f);
  for (const auto &m : mods_) {
    dt_tensor *n = m->forward(cur);
    dt_free(cur);
    cur = n;
  }
  return cur;
}

std::map<std::string, dt_tensor **> Model::parameters() {
  std::map<std::string, dt_tensor **> out;
  int i = 0;
  for (auto &m : mods_) m->collect("layer" + std::to_string(i++), out);
  return out;
}
