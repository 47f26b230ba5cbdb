// provenance: blind round cxx1
// A std::map<std::string, dt_tensor*> of parameters on autodiff<cpu>, trained with plain SGD:
// for each entry the gradient (plain cpu) is applied to dt_inner(param) and the result is
// re-wrapped with dt_from_inner. A second map holds plain "ema" copies updated from the inner
// values. Lookups by name with operator[] and at(). Clean.
#include <dt/dt.h>

#include <cstdio>
#include <map>
#include <string>

using Params = std::map<std::string, dt_tensor *>;

static void sgd_step(Params &params, dt_device ad, float lr) {
  for (auto &entry : params) {
    dt_tensor *&p = entry.second;
    dt_tensor *g = dt_grad(p);
    if (g == nullptr) continue;
    dt_tensor *inner = dt_inner(p);
    dt_tensor *scaled = dt_mul_scalar(g, lr);
    dt_tensor *updated = dt_sub(inner, scaled);
    dt_free(p);
    p = dt_require_grad(dt_from_inner(ad, updated));
    dt_free(updated);
    dt_free(scaled);
    dt_free(inner);
    dt_free(g);
  }
}

static void ema_update(Params &ema, const Params &params, float decay) {
  for (auto &[name, shadow] : ema) {
    dt_tensor *inner = dt_inner(params.at(name));
    dt_tensor *a = dt_mul_scalar(shadow, decay);
    dt_tensor *b = dt_mul_scalar(inner, 1.0f - decay);
    dt_free(shadow);
    shadow = dt_add(a, b);
    dt_free(a);
    dt_free(b);
    dt_free(inner);
  }
}

int main() {
  const dt_device host = dt_cpu();
  const dt_device ad = dt_autodiff(host);
  const int64_t wshape[] = {3, 2};
  const int64_t bshape[] = {1, 2};
  Params params;
  params["fc.weight"] = dt_require_grad(dt_randn(ad, 17, 2, wshape));
  params["fc.bias"] = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, bshape));

  Params ema;
  for (const auto &kv : params) ema[kv.first] = dt_inner(kv.second);

  const float xs[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  const float ys[] = {1, 0, 0, 1, 1, 1, 2, 2};
  const int64_t xshape[] = {4, 3};
  const int64_t yshape[] = {4, 2};
  dt_tensor *x = dt_from_floats(ad, xs, 2, xshape);
  dt_tensor *y = dt_from_floats(ad, ys, 2, yshape);

  float last = 0.0f;
  for (int step = 0; step < 4; ++step) {
    dt_tensor *h = dt_matmul(x, params.at("fc.weight"));
    dt_tensor *pred = dt_add(h, params["fc.bias"]);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    dt_read_floats(loss, &last, 1);
    sgd_step(params, ad, 0.1f);
    ema_update(ema, params, 0.9f);
    dt_free(loss);
    dt_free(pred);
    dt_free(h);
  }
  float wv[6];
  dt_read_floats(ema["fc.weight"], wv, 6);
  std::printf("loss %.4f ema w00 %.4f\n", last, wv[0]);
  for (auto &kv : params) dt_free(kv.second);
  for (auto &kv : ema) dt_free(kv.second);
  dt_free(x);
  dt_free(y);
  return 0;
}
