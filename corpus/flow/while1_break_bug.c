// provenance: blind round field5
// Training loop written as while(1) with a break on a step budget; afterwards the final
// prediction (still on sim:0) is scored against a host target: backend-mismatch.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_full(dev, 0.5f, 2, (const int64_t[]){3, 1});
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){5, 3});
  dt_tensor *pred = NULL;
  int step = 0;
  while (1) {
    dt_free(pred);
    pred = dt_matmul(x, w);
    dt_tensor *nw = dt_mul_scalar(w, 0.9f);
    dt_free(w);
    w = nw;
    if (++step >= 4) break;
  }
  float host_t[5] = {1, 1, 1, 1, 1};
  dt_tensor *target = dt_from_floats(dt_cpu(), host_t, 2, (const int64_t[]){5, 1});
  dt_tensor *loss = dt_mse_loss(pred, target); // expect-error: backend-mismatch
  dt_free(loss); dt_free(target); dt_free(pred); dt_free(x); dt_free(w);
  puts("done");
  return 0;
}
