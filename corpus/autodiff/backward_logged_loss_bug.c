// provenance: blind round field4
// The loss is computed a second time on dt_inner views "for logging", and that plain copy is
// the one handed to dt_backward.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *pred; dt_tensor *target; } batch_out;

static dt_tensor *log_loss(const batch_out *o, int step) {
  dt_tensor *p = dt_inner(o->pred);
  dt_tensor *t = dt_inner(o->target);
  dt_tensor *l = dt_mse_loss(p, t);
  float v = 0;
  dt_read_floats(l, &v, 1);
  printf("step %d loss %.4f\n", step, (double)v);
  dt_free(p); dt_free(t);
  return l;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 4, 2, (const int64_t[]){2, 2}));
  dt_tensor *x = dt_randn(ad, 5, 2, (const int64_t[]){3, 2});
  dt_tensor *t = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){3, 2});
  for (int step = 0; step < 2; step++) {
    batch_out o = { dt_matmul(x, w), t };
    dt_tensor *loss = log_loss(&o, step);
    dt_backward(loss); // expect-error: autodiff-expected
    dt_free(o.pred); dt_free(loss);
  }
  return 0;
}
