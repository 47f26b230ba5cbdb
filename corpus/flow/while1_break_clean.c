// provenance: blind round field5
// while(1) whose only exit is a break that first moves the prediction to the host; the
// host-side scoring after the loop is therefore always cpu/cpu.
#include <dt/dt.h>
#include <stdio.h>

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_full(dev, 0.5f, 2, (const int64_t[]){3, 1});
  dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){5, 3});
  dt_tensor *pred = NULL;
  int step = 0;
  while (1) {
    dt_tensor *p = dt_matmul(x, w);
    if (++step >= 3) {
      pred = dt_to_device(p, dt_cpu());
      dt_free(p);
      break;
    }
    dt_tensor *nw = dt_mul_scalar(w, 0.9f);
    dt_free(w); dt_free(p);
    w = nw;
  }
  float host_t[5] = {1, 1, 1, 1, 1};
  dt_tensor *target = dt_from_floats(dt_cpu(), host_t, 2, (const int64_t[]){5, 1});
  dt_tensor *loss = dt_mse_loss(pred, target);
  float v;
  dt_read_floats(loss, &v, 1);
  printf("%.4f\n", (double)v);
  dt_free(loss); dt_free(target); dt_free(pred); dt_free(x); dt_free(w);
  return 0;
}
