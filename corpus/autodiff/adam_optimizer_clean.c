// provenance: blind round field
// Adam written with dt ops: moment buffers live on the inner device next to the gradients.
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>

typedef struct { dt_tensor *m, *v; } adam_state;
typedef struct { float lr, b1, b2, eps; int t; } adam_cfg;

static dt_tensor *adam_step(dt_device ad, dt_tensor *param, adam_state *st, adam_cfg *c) {
  dt_tensor *g = dt_grad(param);
  if (g == NULL) return param;
  dt_tensor *m1 = dt_mul_scalar(st->m, c->b1);
  dt_tensor *m2 = dt_mul_scalar(g, 1.0f - c->b1);
  dt_tensor *m = dt_add(m1, m2);
  dt_tensor *gg = dt_mul(g, g);
  dt_tensor *v1 = dt_mul_scalar(st->v, c->b2);
  dt_tensor *v2 = dt_mul_scalar(gg, 1.0f - c->b2);
  dt_tensor *v = dt_add(v1, v2);
  float bc1 = 1.0f - powf(c->b1, (float)c->t), bc2 = 1.0f - powf(c->b2, (float)c->t);
  dt_tensor *mhat = dt_mul_scalar(m, 1.0f / bc1);
  dt_tensor *vhat = dt_mul_scalar(v, 1.0f / bc2);
  /* sqrt(v) = exp(0.5 * log(v + eps^2)) */
  dt_tensor *ve = dt_add_scalar(vhat, c->eps * c->eps);
  dt_tensor *lv = dt_log(ve);
  dt_tensor *hl = dt_mul_scalar(lv, 0.5f);
  dt_tensor *den = dt_exp(hl);
  dt_tensor *upd = dt_div(mhat, den);
  dt_tensor *step = dt_mul_scalar(upd, c->lr);
  dt_tensor *inner = dt_inner(param);
  dt_tensor *np = dt_sub(inner, step);
  dt_tensor *out = dt_require_grad(dt_from_inner(ad, np));
  dt_free(st->m); dt_free(st->v);
  st->m = m; st->v = v;
  dt_free(g); dt_free(m1); dt_free(m2); dt_free(gg); dt_free(v1); dt_free(v2);
  dt_free(mhat); dt_free(vhat); dt_free(ve); dt_free(lv); dt_free(hl); dt_free(den);
  dt_free(upd); dt_free(step); dt_free(inner); dt_free(np); dt_free(param);
  return out;
}

int main(void) {
  dt_device base = dt_sim(1);
  dt_device ad = dt_autodiff(base);
  const int64_t shp[2] = {2, 1};
  dt_tensor *w = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, shp));
  adam_state st = { dt_zeros(base, DT_FLOAT, 2, shp), dt_zeros(base, DT_FLOAT, 2, shp) };
  adam_cfg cfg = { 0.1f, 0.9f, 0.999f, 1e-8f, 0 };
  dt_tensor *x = dt_from_floats(ad, (const float[]){1, 2, 3, 1, 0, 1}, 2, (const int64_t[]){3, 2});
  dt_tensor *y = dt_from_floats(ad, (const float[]){5, 1, 2}, 2, (const int64_t[]){3, 1});
  float l0 = 0, l = 0;
  for (int it = 0; it < 300; it++) {
    dt_tensor *p = dt_matmul(x, w);
    dt_tensor *loss = dt_mse_loss(p, y);
    dt_backward(loss);
    dt_read_floats(loss, &l, 1);
    if (it == 0) l0 = l;
    cfg.t++;
    w = adam_step(ad, w, &st, &cfg);
    dt_free(p); dt_free(loss);
  }
  printf("adam: loss %.4f -> %.4f\n", l0, l);
  dt_free(w); dt_free(st.m); dt_free(st.v); dt_free(x); dt_free(y);
  return l < l0 ? 0 : 1;
}
