// provenance: blind round field2
// Tensors kept in a global table indexed by an enum; all created on one configured device.
#include <dt/dt.h>
#include <stdio.h>
enum { P_W, P_B, P_COUNT };
static dt_tensor *g_params[P_COUNT];
static dt_device g_dev;
static void init_params(dt_device d) {
  g_dev = d;
  g_params[P_W] = dt_randn(g_dev, 1, 2, (const int64_t[]){3, 2});
  g_params[P_B] = dt_zeros(g_dev, DT_FLOAT, 1, (const int64_t[]){2});
}
static dt_tensor *fwd(const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, g_params[P_W]);
  dt_tensor *y = dt_add(h, g_params[P_B]);
  dt_free(h);
  return y;
}
int main(int argc, char **argv) {
  (void)argv;
  init_params(argc > 1 ? dt_sim(1) : dt_cpu());
  dt_tensor *x = dt_ones(g_dev, DT_FLOAT, 2, (const int64_t[]){4, 3});
  dt_tensor *y = fwd(x);
  float v[8]; dt_read_floats(y, v, 8);
  printf("%f\n", v[0]);
  return 0;
}
