// provenance: blind round field
// Label smoothing picks between a float tensor and an int fallback in dt_where.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device dev = dt_cpu();
  dt_tensor *scores = dt_randn(dev, 4, 2, (const int64_t[]){4, 2});
  dt_tensor *thresh = dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){4, 2});
  dt_tensor *pos = dt_greater(scores, thresh);
  dt_tensor *smooth = dt_full(dev, 0.9f, 2, (const int64_t[]){4, 2});
  dt_tensor *fallback = dt_zeros(dev, DT_INT, 2, (const int64_t[]){4, 2});
  dt_tensor *t = dt_where(pos, smooth, fallback); // expect-error: kind-mismatch
  printf("%p\n", (void *)t);
  return 0;
}
