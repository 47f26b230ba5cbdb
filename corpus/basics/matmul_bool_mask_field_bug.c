// provenance: blind round field
// Attention masking: the causal mask (bool) is multiplied into the scores with matmul.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *idx_r = dt_from_floats(dev, (const float[]){0, 1, 2}, 2, (const int64_t[]){3, 1});
  dt_tensor *idx_c = dt_from_floats(dev, (const float[]){0, 1, 2}, 2, (const int64_t[]){1, 3});
  dt_tensor *causal = dt_greater(idx_c, idx_r);
  dt_tensor *scores = dt_randn(dev, 3, 2, (const int64_t[]){3, 3});
  dt_tensor *masked = dt_matmul(causal, scores); // expect-error: kind-mismatch
  printf("%p\n", (void *)masked);
  return 0;
}
