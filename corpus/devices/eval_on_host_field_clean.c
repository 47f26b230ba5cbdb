// provenance: blind round field
// Trains on autodiff<sim:0>, then copies the weights to the host (dt_inner + dt_to_device) to evaluate.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; dt_device dev; } linreg;

static void train(linreg *m, const float *xs, const float *ys, int n) {
  dt_tensor *x = dt_from_floats(m->dev, xs, 2, (const int64_t[]){n, 1});
  dt_tensor *y = dt_from_floats(m->dev, ys, 2, (const int64_t[]){n, 1});
  for (int it = 0; it < 100; it++) {
    dt_tensor *p = dt_matmul(x, m->w);
    dt_tensor *l = dt_mse_loss(p, y);
    dt_backward(l);
    dt_tensor *g = dt_grad(m->w), *in = dt_inner(m->w);
    dt_tensor *s = dt_mul_scalar(g, 0.05f);
    dt_tensor *nw = dt_sub(in, s);
    dt_free(m->w);
    m->w = dt_require_grad(dt_from_inner(m->dev, nw));
    dt_free(p); dt_free(l); dt_free(g); dt_free(in); dt_free(s); dt_free(nw);
  }
  dt_free(x); dt_free(y);
}

static float predict_on_host(const linreg *m, float xv) {
  dt_tensor *in = dt_inner(m->w);
  dt_tensor *w = dt_to_device(in, dt_cpu());
  dt_tensor *x = dt_full(dt_cpu(), xv, 2, (const int64_t[]){1, 1});
  dt_tensor *y = dt_matmul(x, w);
  float out;
  dt_read_floats(y, &out, 1);
  dt_free(in); dt_free(w); dt_free(x); dt_free(y);
  return out;
}

int main(void) {
  linreg m = { NULL, dt_autodiff(dt_sim(0)) };
  m.w = dt_require_grad(dt_zeros(m.dev, DT_FLOAT, 2, (const int64_t[]){1, 1}));
  const float xs[4] = {1, 2, 3, 4}, ys[4] = {3, 6, 9, 12};
  train(&m, xs, ys, 4);
  float p = predict_on_host(&m, 10.0f);
  printf("predict(10) = %.3f (expect ~30)\n", p);
  dt_free(m.w);
  return p > 29.5f && p < 30.5f ? 0 : 1;
}
