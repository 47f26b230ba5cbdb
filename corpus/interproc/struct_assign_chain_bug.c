// provenance: blind round field5
// Struct assignment chains: three contexts copied from one base, then the trainer's device
// is wrapped in autodiff. The eval context still holds the plain device, and evaluation mixes
// an eval-context batch with a trainer-context weight: autodiff-expected.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; int seed; } ctx;

int main(void) {
  ctx base = { dt_sim(0), 11 };
  ctx trainer, evaler, logger;
  logger = evaler = trainer = base;
  trainer.dev = dt_autodiff(evaler.dev);
  logger.dev = dt_cpu();
  dt_tensor *w = dt_require_grad(dt_randn(trainer.dev, (uint64_t)trainer.seed, 2, (const int64_t[]){3, 1}));
  dt_tensor *x = dt_ones(evaler.dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *p = dt_matmul(x, w); // expect-error: autodiff-expected
  dt_tensor *l = dt_ones(logger.dev, DT_FLOAT, 1, (const int64_t[]){1});
  dt_free(l); dt_free(p); dt_free(x); dt_free(w);
  puts("ok");
  return 0;
}
