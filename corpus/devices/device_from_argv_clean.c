// provenance: blind round field
// Classifier-style training whose device comes from argv ("cpu", "sim", "sim1"); used consistently.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

typedef struct { dt_device dev; float lr; int steps; } config;

static dt_device parse_device(const char *s) {
  if (strcmp(s, "sim") == 0) return dt_sim(0);
  if (strcmp(s, "sim1") == 0) return dt_sim(1);
  return dt_cpu();
}

typedef struct { dt_tensor *w; } model;

int main(int argc, char **argv) {
  config cfg = { dt_cpu(), 0.05f, 50 };
  if (argc > 1) cfg.dev = parse_device(argv[1]);
  dt_device ad = dt_autodiff(cfg.dev);
  model m;
  m.w = dt_require_grad(dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){3, 1}));
  float xs[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  float ys[4] = {1, 2, 3, 6};
  dt_tensor *x = dt_from_floats(ad, xs, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dt_from_floats(ad, ys, 2, (const int64_t[]){4, 1});
  for (int s = 0; s < cfg.steps; s++) {
    dt_tensor *p = dt_matmul(x, m.w);
    dt_tensor *loss = dt_mse_loss(p, y);
    dt_backward(loss);
    dt_tensor *g = dt_grad(m.w);
    dt_tensor *wi = dt_inner(m.w);
    dt_tensor *upd = dt_mul_scalar(g, cfg.lr);
    dt_tensor *nw = dt_sub(wi, upd);
    dt_free(m.w);
    m.w = dt_require_grad(dt_from_inner(ad, nw));
    dt_free(p); dt_free(loss); dt_free(g); dt_free(wi); dt_free(upd); dt_free(nw);
  }
  float w[3];
  dt_tensor *wi = dt_inner(m.w);
  dt_read_floats(wi, w, 3);
  printf("w = %.3f %.3f %.3f\n", w[0], w[1], w[2]);
  dt_free(wi); dt_free(m.w); dt_free(x); dt_free(y);
  return 0;
}
