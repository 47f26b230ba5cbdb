// provenance: blind round field3
// EMA is optional (--ema); the shadow exists only when the flag is set, and every use is
// guarded by the same flag field. The shadow lives on the host, updates go through dt_inner.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
typedef struct { int use_ema; dt_device ad; dt_tensor *w, *shadow; } trainer;
static void trainer_init(trainer *t, int use_ema) {
  t->use_ema = use_ema;
  t->ad = dt_autodiff(dt_sim(1));
  t->w = dt_require_grad(dt_randn(t->ad, 1, 2, (const int64_t[]){2, 2}));
  t->shadow = use_ema ? dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 2}) : NULL;
}
int main(int argc, char **argv) {
  trainer t;
  trainer_init(&t, argc > 1 && strcmp(argv[1], "--ema") == 0);
  for (int s = 0; s < 2; s++) {
    if (t.use_ema) {
      dt_tensor *wi = dt_inner(t.w);
      dt_tensor *h = dt_to_device(wi, dt_cpu());
      dt_tensor *n = dt_add(dt_mul_scalar(t.shadow, 0.9f), dt_mul_scalar(h, 0.1f));
      dt_free(t.shadow); t.shadow = n;
      dt_free(wi); dt_free(h);
    }
  }
  printf("%s\n", t.use_ema ? "ema" : "plain");
  return 0;
}
