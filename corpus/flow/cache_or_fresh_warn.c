// provenance: blind round field2
// An input comes from a host cache or is freshly generated on sim:0, chosen by a flag.
// run-args: --cached
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
typedef struct { dt_tensor *batch; } host_cache;
int main(int argc, char **argv) {
  host_cache hc = { dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 3}) };
  dt_tensor *fresh = dt_randn(dt_sim(0), 4, 2, (const int64_t[]){2, 3});
  int cached = argc > 1 && strcmp(argv[1], "--cached") == 0;
  dt_tensor *x = cached ? hc.batch : fresh;
  dt_tensor *w = dt_randn(dt_sim(0), 5, 2, (const int64_t[]){3, 1});
  dt_tensor *y = dt_matmul(x, w); // expect-warning: backend-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
