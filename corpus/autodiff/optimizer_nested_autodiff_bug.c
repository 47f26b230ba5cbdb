// provenance: blind round field4
// Optimizer init derives its state device from a parameter: dt_device_of(param) is already
// autodiff<sim:0>, and wrapping it again is autodiff-nested.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device state_dev; dt_tensor *m; } adam_state;

static void adam_init(adam_state *s, const dt_tensor *param) {
  s->state_dev = dt_autodiff(dt_device_of(param)); // expect-error: autodiff-nested
  s->m = dt_zeros(dt_inner_device(s->state_dev), DT_FLOAT, 1, (const int64_t[]){dt_numel(param)});
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 1, (const int64_t[]){6}));
  adam_state s;
  adam_init(&s, w);
  printf("%lld\n", (long long)dt_numel(s.m));
  return 0;
}
