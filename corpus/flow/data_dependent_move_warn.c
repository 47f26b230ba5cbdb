// provenance: blind round field3
// Curriculum: when the running loss (read back from the device) is small, the next phase's
// targets are created on sim:1, but the model stays on sim:0. Depends on data: a warning.
#include <dt/dt.h>
#include <stdio.h>
int main(void) {
  dt_device d = dt_sim(0);
  dt_tensor *w = dt_randn(d, 1, 2, (const int64_t[]){3, 1});
  dt_tensor *x = dt_randn(d, 2, 2, (const int64_t[]){4, 3});
  dt_tensor *y = dt_zeros(d, DT_FLOAT, 2, (const int64_t[]){4, 1});
  for (int phase = 0; phase < 2; phase++) {
    dt_tensor *l = dt_mse_loss(dt_matmul(x, w), y); // expect-warning: device-mismatch
    float v; dt_read_floats(l, &v, 1);
    printf("phase %d loss %f\n", phase, v);
    if (v < 1e-6f) {
      dt_free(y);
      y = dt_zeros(dt_sim(1), DT_FLOAT, 2, (const int64_t[]){4, 1});
    }
    dt_free(l);
  }
  return 0;
}
