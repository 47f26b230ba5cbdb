// provenance: blind round field2
// Dropout: the bool mask from dt_greater is multiplied into activations (needs dt_where).
#include <dt/dt.h>
#include <stdio.h>
static dt_tensor *dropout(const dt_tensor *h, float p, uint64_t seed) {
  dt_device d = dt_device_of(h);
  dt_tensor *r = dt_randn(d, seed, 2, (const int64_t[]){dt_dim(h, 0), dt_dim(h, 1)});
  dt_tensor *thr = dt_full(d, p, 1, (const int64_t[]){1});
  dt_tensor *keep = dt_greater(r, thr);
  dt_tensor *out = dt_mul(h, keep); // expect-error: kind-mismatch
  dt_free(r); dt_free(thr); dt_free(keep);
  return out;
}
int main(int argc, char **argv) {
  (void)argv;
  dt_device d = argc > 1 ? dt_sim(0) : dt_cpu();
  dt_tensor *h = dt_ones(d, DT_FLOAT, 2, (const int64_t[]){4, 4});
  dt_tensor *y = dropout(h, 0.1f, 3);
  printf("%p\n", (void *)y);
  return 0;
}
