// provenance: blind round field3
// Labels are loaded as ints with --int-labels (for a classifier) but the regression loss is
// used either way. The default run uses float labels.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  int int_labels = argc > 1 && strcmp(argv[1], "--int-labels") == 0;
  dt_device d = dt_sim(0);
  dt_tensor *y = int_labels ? dt_from_ints(d, (const int64_t[]){1, 0, 1, 1}, 2, (const int64_t[]){4, 1})
                            : dt_from_floats(d, (const float[]){1, 0, 1, 1}, 2, (const int64_t[]){4, 1});
  dt_tensor *x = dt_randn(d, 1, 2, (const int64_t[]){4, 2});
  dt_tensor *w = dt_randn(d, 2, 2, (const int64_t[]){2, 1});
  dt_tensor *p = dt_sigmoid(dt_matmul(x, w));
  dt_tensor *l = dt_mse_loss(p, y); // expect-warning: kind-mismatch
  float v; dt_read_floats(l, &v, 1);
  printf("%f\n", v);
  return 0;
}
