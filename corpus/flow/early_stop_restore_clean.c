// provenance: blind round field3
// Early stopping with the best weights on the host, restored by moving them back to the inner
// device before dt_from_inner; the loop may break at any epoch.
#include <dt/dt.h>
#include <stdio.h>
#include <math.h>
int main(int argc, char **argv) {
  (void)argv;
  dt_device ad = dt_autodiff(argc > 1 ? dt_sim(1) : dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){6, 3});
  dt_tensor *y = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){6, 1});
  dt_tensor *best = NULL;
  float best_loss = INFINITY;
  for (int epoch = 0; epoch < 20; epoch++) {
    dt_tensor *l = dt_mse_loss(dt_matmul(x, w), y);
    dt_tensor *li = dt_inner(l);
    float v; dt_read_floats(li, &v, 1);
    if (v >= best_loss) break;
    best_loss = v;
    dt_free(best);
    dt_tensor *wi = dt_inner(w);
    best = dt_to_device(wi, dt_cpu());
    dt_backward(l);
    dt_tensor *g = dt_grad(w);
    dt_tensor *nw = dt_sub(wi, dt_mul_scalar(g, 0.05f));
    w = dt_require_grad(dt_from_inner(ad, nw));
    dt_free(l); dt_free(li); dt_free(g); dt_free(wi);
  }
  if (best) {
    dt_tensor *dev_copy = dt_to_device(best, dt_inner_device(ad));
    dt_tensor *restored = dt_from_inner(ad, dev_copy);
    printf("%f %lld\n", best_loss, (long long)dt_numel(restored));
  }
  return 0;
}
