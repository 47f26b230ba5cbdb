// provenance: blind round field
// Dropout-like masking where the mask is a float 0/1 tensor instead of a bool.
#include <dt/dt.h>
#include <stdio.h>

static dt_tensor *apply_mask(const dt_tensor *x, const dt_tensor *mask) {
  dt_tensor *zero = dt_zeros(dt_device_of(x), DT_FLOAT, 2, (const int64_t[]){dt_dim(x, 0), dt_dim(x, 1)});
  dt_tensor *y = dt_where(mask, x, zero); // expect-error: kind-mismatch
  dt_free(zero);
  return y;
}

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *x = dt_randn(dev, 5, 2, (const int64_t[]){4, 4});
  dt_tensor *noise = dt_randn(dev, 6, 2, (const int64_t[]){4, 4});
  dt_tensor *mask = dt_relu(noise);
  dt_tensor *y = apply_mask(x, mask);
  printf("%p\n", (void *)y);
  return 0;
}
