/* server.c — weighted averaging with server momentum, evaluation on the server device. */
#include "fed.h"
#include <stdio.h>

void server_init(Server *s, dt_device d) {
  s->dev = d;
  model_init(&s->global, d, 7);
  for (int i = 0; i < NPARAMS; i++) s->velocity.p[i] = dt_mul_scalar(s->global.p[i], 0.0f);
  s->beta = 0.5f;
  s->server_lr = 1.0f;
}

void server_aggregate(Server *s, Model *updates, const float *weights, int n) {
  float total = 0.0f;
  for (int k = 0; k < n; k++) total += weights[k];
  for (int i = 0; i < NPARAMS; i++) {
    dt_tensor *avg = NULL;
    for (int k = 0; k < n; k++) {
      dt_tensor *moved = dt_to_device(updates[k].p[i], s->dev);
      avg = axpy(avg, moved, weights[k] / total);
      dt_free(moved);
    }
    /* pseudo-gradient: global - average; momentum on the server */
    dt_tensor *delta = dt_sub(s->global.p[i], avg);
    dt_tensor *v = axpy(dt_mul_scalar(s->velocity.p[i], s->beta), delta, 1.0f);
    dt_tensor *g = dt_sub(s->global.p[i], dt_mul_scalar(v, s->server_lr));
    dt_free(s->velocity.p[i]); dt_free(s->global.p[i]); dt_free(avg); dt_free(delta);
    s->velocity.p[i] = v;
    s->global.p[i] = g;
  }
}

float server_evaluate(const Server *s, int round) {
  float xh[FBATCH * FIN], yh[FBATCH * FOUT], lv = 0.0f;
  int64_t xs[2] = {FBATCH, FIN}, ys[2] = {FBATCH, FOUT};
  for (int i = 0; i < FBATCH * FIN; i++) xh[i] = (float)((i + round) % 5) / 5.0f - 0.3f;
  for (int r = 0; r < FBATCH; r++) { yh[r * FOUT] = (float)(r % 2); yh[r * FOUT + 1] = (float)(1 - r % 2); }
  dt_tensor *x = dt_from_floats(s->dev, xh, 2, xs), *y = dt_from_floats(s->dev, yh, 2, ys);
  dt_tensor *pred = dt_sigmoid(model_forward(s->global.p, x));
  dt_tensor *loss = dt_mse_loss(pred, y);
  dt_read_floats(loss, &lv, 1);
  dt_free(x); dt_free(y); dt_free(pred); dt_free(loss);
  return lv;
}
