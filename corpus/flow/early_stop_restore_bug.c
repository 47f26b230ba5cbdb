// provenance: blind round field3
// Early stopping keeps the best weights on the host; on restore they are wrapped back into the
// autodiff<sim:0> device without being moved to sim:0 first.
#include <dt/dt.h>
#include <stdio.h>
#include <math.h>
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){6, 3});
  dt_tensor *y = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){6, 1});
  dt_tensor *best = NULL;
  float best_loss = INFINITY;
  int patience = 0;
  for (int epoch = 0; epoch < 20; epoch++) {
    dt_tensor *l = dt_mse_loss(dt_matmul(x, w), y);
    float v; dt_tensor *li = dt_inner(l); dt_read_floats(li, &v, 1);
    if (v < best_loss) {
      best_loss = v; patience = 0;
      dt_free(best);
      dt_tensor *wi = dt_inner(w);
      best = dt_to_device(wi, dt_cpu());
      dt_free(wi);
    } else if (++patience > 2) {
      break;
    }
    dt_backward(l);
    dt_tensor *g = dt_grad(w), *wi = dt_inner(w);
    dt_tensor *nw = dt_sub(wi, dt_mul_scalar(g, 0.05f));
    w = dt_require_grad(dt_from_inner(ad, nw));
    dt_free(l); dt_free(li); dt_free(g); dt_free(wi);
  }
  dt_tensor *restored = dt_from_inner(ad, best); // expect-error: autodiff-inner-backend
  printf("%f %p\n", best_loss, (void *)restored);
  return 0;
}
