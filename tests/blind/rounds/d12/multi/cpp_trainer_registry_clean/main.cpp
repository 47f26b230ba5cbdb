// provenance: blind round d12
/* Train on TRAIN_DEVICE, checkpoint into the registry, evaluate a plain copy on EVAL_DEVICE,
 * and continue training a fresh model restored on RESUME_DEVICE. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <vector>
#include "device.h"
#include "model.h"
#include "registry.h"

static void make_data(int step, std::vector<float> &x, std::vector<float> &y) {
  x.resize(10 * 3);
  y.resize(10 * 2);
  for (int i = 0; i < 10; i++) {
    float a = std::sin(0.2f * (float)(step * 10 + i)), b = std::cos(0.3f * (float)(step + i));
    x[i * 3] = a;
    x[i * 3 + 1] = b;
    x[i * 3 + 2] = a - b;
    y[i * 2] = a * b;
    y[i * 2 + 1] = 0.5f * (a + b);
  }
}

static float train(Model &m, int from, int to, float lr) {
  std::vector<float> x, y;
  const int64_t xs[2] = {10, 3}, ys[2] = {10, 2};
  float lv = 0;
  for (int s = from; s < to; s++) {
    make_data(s, x, y);
    dt_tensor *xt = dt_from_floats(m.device(), x.data(), 2, xs);
    dt_tensor *yt = dt_from_floats(m.device(), y.data(), 2, ys);
    dt_tensor *out = m.forward(xt);
    dt_tensor *loss = dt_mse_loss(out, yt);
    dt_read_floats(loss, &lv, 1);
    dt_backward(loss);
    for (auto &[name, slot] : m.parameters()) {
      dt_tensor *g = dt_grad(*slot);
      if (!g) continue;
      dt_tensor *cur = dt_inner(*slot);
      dt_tensor *st = dt_mul_scalar(g, lr);
      dt_tensor *nx = dt_sub(cur, st);
      dt_free(*slot);
      *slot = dt_require_grad(dt_from_inner(m.device(), nx));
      dt_free(g);
      dt_free(cur);
      dt_free(st);
      dt_free(nx);
    }
    for (dt_tensor *t : {xt, yt, out, loss}) dt_free(t);
  }
  return lv;
}

static float evaluate(const Model &m) {
  std::vector<float> x, y;
  make_data(500, x, y);
  const int64_t xs[2] = {10, 3}, ys[2] = {10, 2};
  dt_tensor *xt = dt_from_floats(m.device(), x.data(), 2, xs);
  dt_tensor *yt = dt_from_floats(m.device(), y.data(), 2, ys);
  dt_tensor *out = m.forward(xt);
  dt_tensor *loss = dt_mse_loss(out, yt);
  float v = 0;
  dt_read_floats(loss, &v, 1);
  for (dt_tensor *t : {xt, yt, out, loss}) dt_free(t);
  return v;
}

int main() {
  DeviceConfig cfg = DeviceConfig::from_env();
  std::printf("%s\n", cfg.describe().c_str());
  {
    Model model(dt_autodiff(cfg.train), 3, 12, 2);
    std::printf("phase 1 loss %.5f\n", train(model, 0, 20, 0.2f));
    ckpt::save("phase1", model);
  }
  Model evaluator(cfg.eval, 3, 12, 2);
  if (!ckpt::load_into("phase1", evaluator)) return 1;
  std::printf("eval loss on plain copy %.5f\n", evaluate(evaluator));

  Model resumed(dt_autodiff(cfg.resume), 3, 12, 2);
  if (!ckpt::load_into("phase1", resumed)) return 1;
  std::printf("phase 2 loss %.5f\n", train(resumed, 20, 40, 0.1f));
  ckpt::save("phase2", resumed);
  if (!ckpt::load_into("phase2", evaluator)) return 1;
  std::printf("final eval loss %.5f (%zu checkpoints)\n", evaluate(evaluator), ckpt::count());
  ckpt::clear();
  return 0;
}
