// provenance: blind round field
// The availability flag is stored, but the warm-up path uses cuda exactly when it is missing.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { int has_cuda; dt_device dev; } runtime_info;

static void warmup(const runtime_info *ri) {
  if (!ri->has_cuda) {
    dt_tensor *t = dt_zeros(dt_cuda(0), DT_FLOAT, 1, (const int64_t[]){1024}); // expect-error: backend-unavailable
    dt_free(t);
  }
}

int main(void) {
  runtime_info ri;
  ri.has_cuda = dt_backend_available(DT_BACKEND_CUDA);
  ri.dev = ri.has_cuda ? dt_cuda(0) : dt_sim(0);
  warmup(&ri);
  dt_tensor *x = dt_ones(ri.dev, DT_FLOAT, 1, (const int64_t[]){4});
  dt_free(x);
  printf("ok\n");
  return 0;
}
