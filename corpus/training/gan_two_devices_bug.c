// corpus/training/gan_two_devices_bug.c — the same two-accelerator setup with the transfer
// forgotten in a helper: the discriminator receives generator samples still on
// autodiff<sim:0> while its weights are on autodiff<sim:1>. Bug: device-mismatch (same inner
// backend, ordinals differ) inside discriminate().
#include <stdio.h>

#include <dt/dt.h>

typedef struct discriminator {
  dt_device dev;
  dt_tensor *w;
} discriminator;

static dt_tensor *discriminate(const discriminator *d, const dt_tensor *samples) {
  dt_tensor *s = dt_matmul(samples, d->w); // expect-error: device-mismatch
  dt_tensor *v = dt_sigmoid(s);
  dt_free(s);
  return v;
}

int main(void) {
  dt_device gen_dev = dt_autodiff(dt_sim(0));
  discriminator d;
  d.dev = dt_autodiff(dt_sim(1));
  d.w = dt_require_grad(dt_randn(d.dev, 2, 2, (const int64_t[]){3, 1}));
  dt_tensor *g_w = dt_require_grad(dt_randn(gen_dev, 1, 2, (const int64_t[]){2, 3}));
  dt_tensor *z = dt_randn(gen_dev, 3, 2, (const int64_t[]){4, 2});
  dt_tensor *fake = dt_matmul(z, g_w);
  dt_tensor *verdict = discriminate(&d, fake);
  printf("%lld\n", (long long)dt_numel(verdict));
  return 0;
}
