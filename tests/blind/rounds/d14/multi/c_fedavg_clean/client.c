/* client.c — local training on each client's own device. */
#include "fed.h"

static dt_device client_device(int id) {
  switch (id % 3) {
  case 0: return dt_cpu();
  case 1: return dt_sim(0);
  default: return dt_sim(1);
  }
}

void client_setup(Client *c, int id) {
  c->id = id;
  c->dev = client_device(id);
  c->samples = 8 + 4 * (id % 4);
  c->lr = 0.05f;
}

/* non-IID local data: each client sees its own feature skew */
static void local_batch(const Client *c, int round, int step, float *x, float *y) {
  for (int r = 0; r < FBATCH; r++) {
    float s = 0.0f;
    for (int k = 0; k < FIN; k++) {
      float v = (float)(((r + step) * (k + 1) + c->id * 3 + round) % 7) / 7.0f - 0.4f;
      if (k == c->id % FIN) v += 0.5f;
      x[r * FIN + k] = v;
      s += v;
    }
    y[r * FOUT] = s > 0.0f ? 1.0f : 0.0f;
    y[r * FOUT + 1] = 1.0f - y[r * FOUT];
  }
}

Model client_update(const Client *c, const Model *global, int round, int local_steps, float *loss_out) {
  int64_t xs[2] = {FBATCH, FIN}, ys[2] = {FBATCH, FOUT};
  dt_device ad = dt_autodiff(c->dev);
  Model local = model_to(global, c->dev);
  float last = 0.0f;
  for (int s = 0; s < local_steps; s++) {
    float xh[FBATCH * FIN], yh[FBATCH * FOUT];
    local_batch(c, round, s, xh, yh);
    dt_tensor *tp[NPARAMS];
    for (int i = 0; i < NPARAMS; i++) tp[i] = dt_require_grad(dt_from_inner(ad, local.p[i]));
    dt_tensor *x = dt_from_floats(ad, xh, 2, xs), *y = dt_from_floats(ad, yh, 2, ys);
    dt_tensor *pred = dt_sigmoid(model_forward(tp, x));
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_read_floats(loss, &last, 1);
    dt_backward(loss);
    for (int i = 0; i < NPARAMS; i++) {
      dt_tensor *g = dt_grad(tp[i]);
      if (!g) continue;
      dt_tensor *n = dt_sub(local.p[i], dt_mul_scalar(g, c->lr));
      dt_free(local.p[i]);
      dt_free(g);
      local.p[i] = n;
      dt_free(tp[i]);
    }
    dt_free(x); dt_free(y); dt_free(pred); dt_free(loss);
  }
  if (loss_out) *loss_out = last;
  return local; /* stays on the client's device: the server moves what it receives */
}
