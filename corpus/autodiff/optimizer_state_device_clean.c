// provenance: blind round field4
// Adam-like state whose device is derived from the parameter with dt_inner_device — correct for
// both a plain model (inner_device of a plain device is itself) and an autodiff model.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; dt_tensor *m, *v; } adam_state;

static void adam_init(adam_state *s, const dt_tensor *param) {
  s->dev = dt_inner_device(dt_device_of(param));
  s->m = dt_zeros(s->dev, DT_FLOAT, 1, (const int64_t[]){dt_numel(param)});
  s->v = dt_zeros(s->dev, DT_FLOAT, 1, (const int64_t[]){dt_numel(param)});
}

static void adam_accum(adam_state *s, const dt_tensor *g) {
  dt_tensor *m2 = dt_add(dt_mul_scalar(s->m, 0.9f), dt_mul_scalar(g, 0.1f));
  dt_tensor *g2 = dt_mul(g, g);
  dt_tensor *v2 = dt_add(dt_mul_scalar(s->v, 0.999f), dt_mul_scalar(g2, 0.001f));
  dt_free(s->m); dt_free(s->v); dt_free(g2);
  s->m = m2; s->v = v2;
}

static void train(dt_device d, int ad) {
  dt_tensor *w = dt_randn(d, 1, 1, (const int64_t[]){6});
  if (ad) dt_require_grad(w);
  adam_state s;
  adam_init(&s, w);
  dt_tensor *g = dt_ones(s.dev, DT_FLOAT, 1, (const int64_t[]){6});
  adam_accum(&s, g);
  float out[6];
  dt_read_floats(s.m, out, 6);
  printf("%.3f\n", (double)out[0]);
}

int main(void) {
  train(dt_sim(1), 0);
  train(dt_autodiff(dt_sim(0)), 1);
  return 0;
}
