// corpus/flow/switch_on_backend_clean.c — per-backend code paths selected by a `switch` on
// dt_device_of(x).backend (chunk sizes, a host round trip for the simulator's debug dump),
// each case ending with tensors on x's device again. Clean for every backend.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *normalize(const dt_tensor *x) {
  dt_device dev = dt_device_of(x);
  dt_tensor *scale;
  switch (dev.backend) {
  case DT_BACKEND_CPU:
    scale = dt_full(dev, 0.5f, 0, NULL);
    break;
  case DT_BACKEND_SIM: {
    dt_tensor *host = dt_full(dt_cpu(), 0.25f, 0, NULL); /* debug: built on the host */
    scale = dt_to_device(host, dev);
    dt_free(host);
    break;
  }
  case DT_BACKEND_CUDA:
    scale = dt_full(dev, 0.125f, 0, NULL);
    break;
  default:
    return NULL;
  }
  dt_tensor *y = dt_mul(x, scale);
  dt_free(scale);
  return y;
}

int main(void) {
  dt_device devs[2] = {dt_cpu(), dt_sim(1)};
  for (int i = 0; i < 2; i++) {
    dt_tensor *x = dt_ones(devs[i], DT_FLOAT, 1, (const int64_t[]){4});
    dt_tensor *y = normalize(x);
    float v[4];
    dt_read_floats(y, v, 4);
    printf("device %d: %f\n", i, (double)v[0]);
    dt_free(y);
    dt_free(x);
  }
  return 0;
}
