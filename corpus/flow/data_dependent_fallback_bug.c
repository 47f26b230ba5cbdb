// provenance: blind round field4
// Loss-spike recovery: when the loss read back from the device exceeds a threshold, the step is
// retried on the host copy of the batch, but the weights stay on sim:0. Whether it happens
// depends on data, but every path that reaches the retry fails: an error (SPEC: reachability
// decided by data does not make the failure conditional). The threshold is tiny so the run takes it.
#include <dt/dt.h>
#include <stdio.h>

static float read1(const dt_tensor *t) { float v = 0; dt_read_floats(t, &v, 1); return v; }

int main(void) {
  dt_device d = dt_sim(0);
  dt_tensor *w = dt_full(d, 0.01f, 2, (const int64_t[]){3, 1});
  for (int it = 0; it < 3; it++) {
    dt_tensor *x = dt_randn(d, (uint64_t)it, 2, (const int64_t[]){4, 3});
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *l = dt_mean(dt_mul(y, y));
    if (read1(l) > 1e-12f) {
      dt_tensor *xh = dt_to_device(x, dt_cpu());
      dt_tensor *y2 = dt_matmul(xh, w); // expect-error: backend-mismatch
      dt_free(y2); dt_free(xh);
    }
    printf("%.4f\n", (double)read1(l));
    dt_free(x); dt_free(y); dt_free(l);
  }
  return 0;
}
