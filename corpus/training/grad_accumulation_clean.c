// corpus/training/grad_accumulation_clean.c — gradient accumulation: several micro-batches call
// dt_backward on the same leaves (gradients add up), then one update is made from the
// accumulated gradient. Micro-batch losses are also summed on the host for logging. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define MICRO 3

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){5, 1}));
  for (int step = 0; step < 2; step++) {
    float logged = 0;
    for (int mb = 0; mb < MICRO; mb++) {
      dt_tensor *x = dt_randn(ad, (uint64_t)(step * MICRO + mb), 2, (const int64_t[]){2, 5});
      dt_tensor *y = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){2, 1});
      dt_tensor *p = dt_matmul(x, w);
      dt_tensor *l = dt_mse_loss(p, y);
      dt_tensor *scaled = dt_mul_scalar(l, 1.0f / MICRO);
      dt_backward(scaled);
      float v = 0;
      dt_read_floats(l, &v, 1);
      logged += v;
      dt_free(scaled);
      dt_free(l);
      dt_free(p);
      dt_free(y);
      dt_free(x);
    }
    dt_tensor *g = dt_grad(w);
    dt_tensor *plain = dt_inner(w);
    dt_tensor *upd = dt_mul_scalar(g, 0.1f);
    dt_tensor *next = dt_sub(plain, upd);
    dt_tensor *fresh = dt_require_grad(dt_from_inner(ad, next));
    dt_free(w);
    w = fresh;
    dt_free(next);
    dt_free(upd);
    dt_free(plain);
    dt_free(g);
    printf("step %d: loss %f\n", step, (double)(logged / MICRO));
  }
  dt_free(w);
  return 0;
}
