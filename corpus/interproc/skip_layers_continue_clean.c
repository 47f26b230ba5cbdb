// provenance: blind round field3
// Some layers are frozen and skipped with continue; the activation is moved to each active
// layer's device before use, so skipping never leaves it on the wrong device.
#include <dt/dt.h>
#include <stdio.h>
#define NL 4
typedef struct { int frozen; dt_device dev; dt_tensor *w; } layer;
int main(int argc, char **argv) {
  (void)argv;
  layer L[NL];
  for (int i = 0; i < NL; i++) {
    L[i].frozen = (i == 1) || (argc > 1 && i == 2);
    L[i].dev = (i % 2) ? dt_sim(1) : dt_cpu();
    L[i].w = dt_randn(L[i].dev, (uint64_t)i, 2, (const int64_t[]){2, 2});
  }
  dt_tensor *h = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 2});
  for (int i = 0; i < NL; i++) {
    if (L[i].frozen) continue;
    if (!dt_device_equal(dt_device_of(h), L[i].dev)) {
      dt_tensor *m = dt_to_device(h, L[i].dev);
      dt_free(h); h = m;
    }
    dt_tensor *n = dt_matmul(h, L[i].w);
    dt_free(h); h = n;
  }
  printf("%lld\n", (long long)dt_numel(h));
  return 0;
}
