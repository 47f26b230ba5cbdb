// provenance: blind round field
// run-args: --cache
// A feature cache returns host tensors on its early-return path; the caller computes on sim:0.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

static dt_tensor *load_features(int use_cache, dt_device dev) {
  if (use_cache) {
    return dt_full(dt_cpu(), 1.0f, 2, (const int64_t[]){2, 3});
  }
  return dt_full(dev, 1.0f, 2, (const int64_t[]){2, 3});
}

int main(int argc, char **argv) {
  int use_cache = argc > 1 && strcmp(argv[1], "--cache") == 0;
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){3, 3});
  dt_tensor *f = load_features(use_cache, dev);
  dt_tensor *h = dt_matmul(f, w); // expect-warning: backend-mismatch
  printf("%p\n", (void *)h);
  return 0;
}
