// Uses only vectors made on the chosen device, plus a host copy moved over explicitly.
#include "dev.h"
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  choose_device(argc);
  dt_tensor *a = vec(1.0f, 4), *b = vec(2.0f, 4);
  dt_tensor *h = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *hm = dt_to_device(h, g_compute);
  dt_tensor *s = dt_sum(dt_add(dt_mul(a, b), hm));
  float v; dt_read_floats(s, &v, 1);
  printf("%f\n", v);
  return 0;
}
