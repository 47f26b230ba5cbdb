// provenance: blind round field2
// Epoch count from argv; a do-while over batches; velocity buffer lives on the host.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct { dt_tensor *w, *vel; float mom; } opt_state;
int main(int argc, char **argv) {
  int epochs = argc > 1 ? atoi(argv[1]) : 2;
  dt_device ad = dt_autodiff(dt_sim(1));
  opt_state o;
  o.w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 2}));
  o.vel = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 2});
  o.mom = 0.9f;
  int e = 0;
  while (e < epochs) {
    int b = 0;
    do {
      dt_tensor *x = dt_randn(ad, (uint64_t)b, 2, (const int64_t[]){3, 2});
      dt_tensor *l = dt_mean(dt_matmul(x, o.w));
      dt_backward(l);
      dt_tensor *g = dt_grad(o.w);
      dt_tensor *v = dt_mul_scalar(o.vel, o.mom);
      dt_tensor *nv = dt_add(v, g); // expect-error: backend-mismatch
      dt_free(o.vel); o.vel = nv;
      b++;
    } while (b < 3);
    e++;
  }
  printf("%p\n", (void *)o.vel);
  return 0;
}
