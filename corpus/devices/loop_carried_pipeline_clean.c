// provenance: blind round field4
// Odd number of alternating stages (sim:0, sim:1, sim:0): the activation ends on sim:0 where the
// residual is. Clean, though it looks exactly like the bug.
#include <dt/dt.h>
#include <stdio.h>

#define NSTAGE 3

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
  dt_tensor *y = dt_add(x, res);
  float out[6];
  dt_read_floats(y, out, 6);
  printf("%.3f\n", (double)out[0]);
  return 0;
}
