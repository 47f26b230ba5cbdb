// provenance: blind round field
// Layer macros; the residual macro's skip input was kept on the host.
#include <dt/dt.h>
#include <stdio.h>

#define DENSE(x, w) dt_relu(dt_matmul((x), (w)))
#define RESIDUAL(x, f) dt_add((x), (f))

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w1 = dt_full(dev, 0.1f, 2, (const int64_t[]){4, 4});
  dt_tensor *x_host = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *x = dt_to_device(x_host, dev);
  dt_tensor *h = DENSE(x, w1);
  dt_tensor *y = RESIDUAL(x_host, h); // expect-error: backend-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
