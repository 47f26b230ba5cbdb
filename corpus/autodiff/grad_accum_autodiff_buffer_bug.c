// provenance: blind round field2
// Gradient accumulation over micro-batches; the accumulator was made on the autodiff device.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { dt_device dev; dt_tensor *w; dt_tensor *acc; int micro; } trainer;
static void trainer_init(trainer *t, dt_device base, int micro) {
  t->dev = dt_autodiff(base);
  t->micro = micro;
  t->w = dt_require_grad(dt_randn(t->dev, 4, 2, (const int64_t[]){4, 1}));
  t->acc = dt_zeros(t->dev, DT_FLOAT, 2, (const int64_t[]){4, 1});
}
static void micro_step(trainer *t, int i) {
  dt_tensor *x = dt_randn(t->dev, (uint64_t)i, 2, (const int64_t[]){8, 4});
  dt_tensor *l = dt_mean(dt_matmul(x, t->w));
  dt_backward(l);
  dt_tensor *g = dt_grad(t->w);
  dt_tensor *na = dt_add(t->acc, g); // expect-error: autodiff-expected
  dt_free(t->acc);
  t->acc = na;
  dt_free(g); dt_free(l); dt_free(x);
}
int main(int argc, char **argv) {
  (void)argv;
  trainer t;
  trainer_init(&t, dt_cpu(), 2 + argc);
  for (int i = 0; i < t.micro; i++) micro_step(&t, i);
  printf("%p\n", (void *)t.acc);
  return 0;
}
