// provenance: blind round field
// Model trained on autodiff<sim:0>; the batch is built on autodiff<cpu> by a loader default.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; int batch; } loader;

static dt_tensor *next_batch(const loader *ld, int step) {
  float buf[8];
  for (int i = 0; i < 8; i++) buf[i] = (float)(i + step) * 0.1f;
  return dt_from_floats(ld->dev, buf, 2, (const int64_t[]){ld->batch, 2});
}

int main(void) {
  dt_device train_dev = dt_autodiff(dt_sim(0));
  loader ld = { dt_autodiff(dt_cpu()), 4 };
  dt_tensor *w = dt_require_grad(dt_randn(train_dev, 3, 2, (const int64_t[]){2, 1}));
  for (int step = 0; step < 3; step++) {
    dt_tensor *x = next_batch(&ld, step);
    dt_tensor *p = dt_matmul(x, w); // expect-error: autodiff-inner-backend
    dt_tensor *l = dt_mean(p);
    dt_backward(l);
    dt_free(x); dt_free(p); dt_free(l);
  }
  dt_free(w);
  return 0;
}
