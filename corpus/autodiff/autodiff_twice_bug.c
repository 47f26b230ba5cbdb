// corpus/autodiff/autodiff_twice_bug.c — a helper "makes a device trainable" by wrapping it in
// autodiff; main already passes the trainable device. Bug: dt_autodiff of an autodiff device
// (autodiff-nested), reported at the dt_autodiff call inside the helper.
#include <stdio.h>

#include <dt/dt.h>

typedef struct trainer {
  dt_device dev;
  float lr;
} trainer;

static dt_device trainable(dt_device d) {
  return dt_autodiff(d); // expect-error: autodiff-nested
}

static void trainer_init(trainer *t, dt_device d) {
  t->dev = trainable(d);
  t->lr = 0.01f;
}

int main(void) {
  trainer t;
  trainer_init(&t, dt_autodiff(dt_sim(1)));
  dt_tensor *w = dt_require_grad(dt_randn(t.dev, 1, 1, (const int64_t[]){3}));
  printf("%lld\n", (long long)dt_numel(w));
  dt_free(w);
  return 0;
}
