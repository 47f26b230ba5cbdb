// provenance: blind round field
// Picks cuda:0 when available, else sim:0; everything is created on the chosen device.
#include <dt/dt.h>
#include <stdio.h>

static dt_device pick_device(void) {
  if (dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return dt_sim(0);
}

int main(void) {
  dt_device dev = pick_device();
  char name[32];
  dt_device_name(dev, name, sizeof name);
  dt_tensor *a = dt_from_floats(dev, (const float[]){1, 2, 3, 4, 5, 6}, 2, (const int64_t[]){2, 3});
  dt_tensor *b = dt_from_floats(dev, (const float[]){1, 0, 0, 1, 1, 1}, 2, (const int64_t[]){3, 2});
  dt_tensor *c = dt_matmul(a, b);          /* [[4,5],[10,11]] */
  dt_tensor *r = dt_relu(dt_add_scalar(c, -5.0f));
  float out[4];
  dt_read_floats(r, out, 4);
  printf("%s: %.1f %.1f %.1f %.1f\n", name, out[0], out[1], out[2], out[3]);
  dt_free(a); dt_free(b); dt_free(c); dt_free(r);
  return (out[0] == 0 && out[1] == 0 && out[2] == 5 && out[3] == 6) ? 0 : 1;
}
