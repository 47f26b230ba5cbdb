// provenance: blind round field
// Logging predicted class ids with dt_read_floats.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_tensor *cls = dt_from_ints(dt_sim(0), (const int64_t[]){3, 1, 2}, 1, (const int64_t[]){3});
  float buf[3];
  if (dt_read_floats(cls, buf, 3) != 0) return 1; // expect-error: kind-mismatch
  printf("%.0f %.0f %.0f\n", buf[0], buf[1], buf[2]);
  return 0;
}
