// provenance: blind round field3
// Targets placed by a command-line switch ("--targets-on sim1"); the model is on sim:0.
// run-args: --targets-on sim0
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  dt_device model_dev = dt_sim(0);
  dt_device target_dev = model_dev;
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--targets-on") == 0)
      target_dev = strcmp(argv[i + 1], "sim1") == 0 ? dt_sim(1) : dt_sim(0);
  dt_tensor *w = dt_randn(model_dev, 1, 2, (const int64_t[]){4, 2});
  dt_tensor *x = dt_randn(model_dev, 2, 2, (const int64_t[]){3, 4});
  dt_tensor *y = dt_zeros(target_dev, DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *l = dt_mse_loss(p, y); // expect-warning: device-mismatch
  float v; dt_read_floats(l, &v, 1);
  printf("%f\n", v);
  return 0;
}
