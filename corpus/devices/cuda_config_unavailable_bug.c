// provenance: blind round field
// tagcheck-args: --unavailable cuda
// run-if: !cuda
// The default config targets cuda:0 with no availability check.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; int hidden; } config;

static config default_config(void) {
  config c = { dt_cuda(0), 16 };
  return c;
}

int main(void) {
  config cfg = default_config();
  dt_tensor *w = dt_randn(cfg.dev, 1, 2, (const int64_t[]){cfg.hidden, cfg.hidden}); // expect-error: backend-unavailable
  printf("%p\n", (void *)w);
  return 0;
}
