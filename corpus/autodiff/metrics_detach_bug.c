// provenance: blind round field2
// Accuracy computed on detached predictions against plain host labels moved to sim.
#include <dt/dt.h>
#include <stdio.h>
static float accuracy(const dt_tensor *pred, const dt_tensor *labels) {
  dt_tensor *p = dt_detach(pred);
  dt_tensor *hit = dt_greater(p, labels); // expect-error: autodiff-expected
  dt_tensor *hs = dt_sum(hit);
  float v = 0; dt_read_floats(hs, &v, 1);
  return v;
}
int main(void) {
  dt_device base = dt_sim(0);
  dt_device ad = dt_autodiff(base);
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 1}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){4, 2});
  dt_tensor *pred = dt_sigmoid(dt_matmul(x, w));
  dt_tensor *lab_h = dt_full(dt_cpu(), 0.5f, 2, (const int64_t[]){4, 1});
  dt_tensor *lab = dt_to_device(lab_h, base);
  printf("%f\n", accuracy(pred, lab));
  return 0;
}
