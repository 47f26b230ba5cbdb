// corpus/flow/per_device_smoke_loop_clean.c — "run the smoke test on every device": a loop over
// a table of devices where each iteration creates all of its tensors from the same table entry.
// Within one iteration everything agrees, although the table mixes three devices: the analyzer
// must not pair a tensor of one iteration's device with another's. Clean.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  const dt_device devices[] = {dt_cpu(), dt_sim(0), dt_sim(1)};
  const int n = (int)(sizeof devices / sizeof devices[0]);
  for (int d = 0; d < n; d++) {
    dt_tensor *a = dt_randn(devices[d], 1, 2, (const int64_t[]){3, 3});
    dt_tensor *b = dt_ones(devices[d], DT_FLOAT, 2, (const int64_t[]){3, 3});
    dt_tensor *c = dt_matmul(a, b);
    dt_tensor *s = dt_sum(c);
    float v = 0;
    dt_read_floats(s, &v, 1);
    char name[32];
    dt_device_name(devices[d], name, sizeof name);
    printf("%s: %f\n", name, (double)v);
    dt_free(s);
    dt_free(c);
    dt_free(b);
    dt_free(a);
  }
  return 0;
}
