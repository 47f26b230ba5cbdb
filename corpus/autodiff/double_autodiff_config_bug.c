// provenance: blind round field
// The config already holds an autodiff device; the trainer wraps it again.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device device; float lr; } train_config;
typedef struct { dt_device dev; dt_tensor *w; } trainer;

static void trainer_init(trainer *t, const train_config *cfg) {
  t->dev = dt_autodiff(cfg->device); // expect-error: autodiff-nested
  t->w = dt_require_grad(dt_zeros(t->dev, DT_FLOAT, 2, (const int64_t[]){4, 4}));
}

int main(void) {
  train_config cfg = { dt_autodiff(dt_sim(0)), 0.01f };
  trainer t;
  trainer_init(&t, &cfg);
  printf("initialised\n");
  dt_free(t.w);
  return 0;
}
