// provenance: blind round field
// Evaluation copies a tracked activation to the host device with dt_to_device (needs dt_inner first).
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_full(ad, 2.0f, 2, (const int64_t[]){2, 2}));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *host = dt_to_device(y, dt_cpu()); // expect-error: autodiff-expected
  float v[2];
  dt_read_floats(host, v, 2);
  printf("%.1f %.1f\n", v[0], v[1]);
  return 0;
}
