// provenance: blind round field2
// The same computation run on each of several devices in a loop: each iteration consistent.
#include <dt/dt.h>
#include <stdio.h>
int main(void) {
  dt_device devs[3] = { dt_cpu(), dt_sim(0), dt_sim(1) };
  float res[3];
  for (int i = 0; i < 3; i++) {
    dt_tensor *a = dt_ones(devs[i], DT_FLOAT, 2, (const int64_t[]){2, 2});
    dt_tensor *b = dt_full(devs[i], 3.0f, 2, (const int64_t[]){2, 2});
    dt_tensor *c = dt_matmul(a, b);
    dt_tensor *s = dt_sum(c);
    dt_read_floats(s, &res[i], 1);
    dt_free(a); dt_free(b); dt_free(c); dt_free(s);
  }
  printf("%f %f %f\n", res[0], res[1], res[2]);
  return 0;
}
