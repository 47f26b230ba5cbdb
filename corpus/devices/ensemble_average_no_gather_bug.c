// provenance: blind round field
// Ensemble members on sim:0 and sim:1; the predictions are averaged without moving them.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; dt_device dev; } member;

static dt_tensor *predict(const member *m, const dt_tensor *x_host) {
  dt_tensor *x = dt_to_device(x_host, m->dev);
  dt_tensor *y = dt_matmul(x, m->w);
  dt_free(x);
  return y;
}

int main(void) {
  member a = { dt_randn(dt_sim(0), 1, 2, (const int64_t[]){3, 2}), dt_sim(0) };
  member b = { dt_randn(dt_sim(1), 2, 2, (const int64_t[]){3, 2}), dt_sim(1) };
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){5, 3});
  dt_tensor *pa = predict(&a, x);
  dt_tensor *pb = predict(&b, x);
  dt_tensor *sum = dt_add(pa, pb); // expect-error: device-mismatch
  dt_tensor *avg = dt_mul_scalar(sum, 0.5f);
  float out[10];
  dt_read_floats(avg, out, 10);
  printf("%f\n", out[0]);
  return 0;
}
