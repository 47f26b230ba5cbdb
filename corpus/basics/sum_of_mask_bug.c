// provenance: blind round field
// Counting correct predictions by summing a bool tensor directly.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *p = dt_from_floats(dev, (const float[]){0.9f, 0.1f, 0.7f}, 1, (const int64_t[]){3});
  dt_tensor *half = dt_full(dev, 0.5f, 1, (const int64_t[]){3});
  dt_tensor *correct = dt_greater(p, half);
  dt_tensor *n = dt_sum(correct); // expect-error: kind-mismatch
  printf("%p\n", (void *)n);
  return 0;
}
