// provenance: blind round field4
// The default config asks for cuda:0; the machine has none (--unavailable cuda). The first
// allocation on it fails, deep in model_init.
// tagcheck-args: --unavailable cuda
// run-if: !cuda
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; int hidden; } cfg;
typedef struct { dt_tensor *w1, *w2; } model;

static const cfg DEFAULTS = { { DT_BACKEND_CUDA, 0, 0 }, 8 };

static dt_tensor *param(dt_device d, int64_t r, int64_t c, uint64_t seed) {
  return dt_randn(d, seed, 2, (const int64_t[]){r, c}); // expect-error: backend-unavailable
}

static void model_init(model *m, const cfg *c) {
  m->w1 = param(c->dev, 4, c->hidden, 1);
  m->w2 = param(c->dev, c->hidden, 1, 2);
}

int main(void) {
  cfg c = DEFAULTS;
  model m;
  model_init(&m, &c);
  printf("%d\n", dt_rank(m.w1) + dt_rank(m.w2));
  return 0;
}
