// provenance: blind round field
// Fine-tuning on autodiff<sim:1> from weights that live on sim:0.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device pretrain, finetune; } devices;

static dt_tensor *wrap_for_finetune(const devices *d, dt_tensor *w) {
  return dt_from_inner(dt_autodiff(d->finetune), w); // expect-error: device-mismatch
}

int main(void) {
  devices d = { dt_sim(0), dt_sim(1) };
  dt_tensor *w = dt_randn(d.pretrain, 1, 2, (const int64_t[]){4, 4});
  dt_tensor *ft = wrap_for_finetune(&d, w);
  dt_require_grad(ft);
  printf("%p\n", (void *)ft);
  return 0;
}
