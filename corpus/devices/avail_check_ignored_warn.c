// provenance: blind round field4
// The availability check only prints a notice; the code then uses cuda anyway. On a machine
// without cuda the allocation fails (the path after "not available").
#include <dt/dt.h>
#include <stdio.h>

static int warn_if_missing(dt_backend b) {
  int ok = dt_backend_available(b);
  if (!ok) fprintf(stderr, "note: backend %d missing, continuing\n", (int)b);
  return ok;
}

int main(void) {
  warn_if_missing(DT_BACKEND_CUDA);
  if (!dt_backend_available(DT_BACKEND_CUDA)) fputs("cuda missing\n", stderr);
  dt_tensor *x = dt_ones(dt_cuda(0), DT_FLOAT, 1, (const int64_t[]){4}); // expect-warning: backend-unavailable
  printf("%lld\n", (long long)dt_numel(x));
  return 0;
}
