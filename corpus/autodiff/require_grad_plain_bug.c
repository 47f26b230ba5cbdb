// provenance: blind round field
// Parameters are created on the inner device and then marked trainable.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *embed; dt_tensor *proj; } encoder;

static void encoder_init(encoder *e, dt_device ad) {
  dt_device base = dt_inner_device(ad);
  e->embed = dt_require_grad(dt_randn(ad, 11, 2, (const int64_t[]){10, 4}));
  e->proj = dt_require_grad(dt_randn(base, 12, 2, (const int64_t[]){4, 4})); // expect-error: autodiff-expected
}

int main(void) {
  encoder e;
  encoder_init(&e, dt_autodiff(dt_sim(0)));
  dt_tensor *h = dt_matmul(e.embed, e.proj);
  printf("%p\n", (void *)h);
  return 0;
}
