// provenance: blind round field5
// Two-deep ternary picks a device; every operand is derived from the picked device, including
// the reference tensor via dt_device_of, so no choice can mismatch.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank = argc > 1 ? atoi(argv[1]) : 0;
  int host = getenv("HOST_ONLY") != NULL;
  dt_device d = host ? dt_cpu() : (rank % 2 ? dt_sim(1) : dt_sim(0));
  dt_tensor *x = dt_full(d, 2.0f, 2, (const int64_t[]){2, 2});
  dt_tensor *ref = dt_ones(dt_device_of(x), DT_FLOAT, 2, (const int64_t[]){2, 2});
  dt_tensor *y = dt_matmul(x, ref);
  dt_tensor *h = host ? dt_detach(y) : dt_to_device(y, dt_cpu());
  dt_tensor *bias = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *z = dt_add(h, bias);
  float out[4];
  dt_read_floats(z, out, 4);
  printf("%.1f\n", (double)out[0]);
  dt_free(z); dt_free(bias); dt_free(h); dt_free(y); dt_free(ref); dt_free(x);
  return 0;
}
