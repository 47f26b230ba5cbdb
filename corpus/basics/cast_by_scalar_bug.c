// provenance: blind round field3
// "Casting" int labels to float by multiplying with 1.0f: dt_mul_scalar keeps the int kind,
// so the loss sees float predictions against int targets.
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *to_float(const dt_tensor *labels) { return dt_mul_scalar(labels, 1.0f); }
int main(void) {
  dt_device d = dt_sim(0);
  int64_t raw[6] = {0, 1, 1, 0, 1, 0};
  dt_tensor *labels = dt_from_ints(d, raw, 2, (const int64_t[]){6, 1});
  dt_tensor *x = dt_randn(d, 1, 2, (const int64_t[]){6, 3});
  dt_tensor *w = dt_randn(d, 2, 2, (const int64_t[]){3, 1});
  dt_tensor *logits = dt_matmul(x, w);
  dt_tensor *prob = dt_sigmoid(logits);
  dt_tensor *target = to_float(labels);
  dt_tensor *l = dt_mse_loss(prob, target); // expect-error: kind-mismatch
  printf("%p\n", (void *)l);
  return 0;
}
