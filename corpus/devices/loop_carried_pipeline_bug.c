// provenance: blind round field4
// An activation is pushed through 4 alternating stages (sim:0, sim:1, sim:0, sim:1) by a loop
// with a constant trip count; after the loop it is on sim:1, and the residual from sim:0 is added.
#include <dt/dt.h>
#include <stdio.h>

#define NSTAGE 4

int main(void) {
  dt_tensor *w[NSTAGE];
  for (int i = 0; i < NSTAGE; i++) w[i] = dt_randn(dt_sim(i % 2), (uint64_t)i, 2, (const int64_t[]){3, 3});
  dt_tensor *x = dt_randn(dt_sim(0), 9, 2, (const int64_t[]){2, 3});
  dt_tensor *res = dt_mul_scalar(x, 1.0f);
  for (int i = 0; i < NSTAGE; i++) {
    dt_tensor *m = dt_to_device(x, dt_sim(i % 2));
    dt_tensor *h = dt_matmul(m, w[i]);
    dt_free(m); dt_free(x);
    x = h;
  }
  dt_tensor *y = dt_add(x, res); // expect-error: device-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
