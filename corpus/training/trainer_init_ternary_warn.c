// provenance: blind round field2
// Trainer device from a designated initializer with a flag-driven ternary; host batch used.
// run-args: --sim
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
typedef struct { dt_device dev; int epochs; dt_tensor *w; } trainer;
int main(int argc, char **argv) {
  int use_sim = argc > 1 && strcmp(argv[1], "--sim") == 0;
  trainer t = { .dev = use_sim ? dt_sim(0) : dt_cpu(), .epochs = 2 };
  t.w = dt_randn(t.dev, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *p = dt_matmul(x, t.w); // expect-warning: backend-mismatch
  printf("%p\n", (void *)p);
  return 0;
}
