// provenance: blind round field5
// The evaluation path unwraps tensors according to the device's .autodiff field; the device
// itself comes from a flag. Only the feasible combinations are ever taken.
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

static dt_tensor *plain_view(dt_device d, const dt_tensor *t) {
  return d.autodiff ? dt_inner(t) : dt_detach(t);
}

int main(int argc, char **argv) {
  int train = argc > 1 && strcmp(argv[1], "--train") == 0;
  dt_device d = train ? dt_autodiff(dt_sim(0)) : dt_sim(0);
  dt_tensor *w = dt_full(d, 0.3f, 2, (const int64_t[]){3, 2});
  if (d.autodiff) w = dt_require_grad(w);
  dt_tensor *x = dt_ones(d, DT_FLOAT, 2, (const int64_t[]){2, 3});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *py = plain_view(d, y);
  dt_tensor *bias = dt_ones(dt_inner_device(d), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *z = dt_add(py, bias);
  dt_tensor *hz = dt_to_device(z, dt_cpu());
  float o[4];
  dt_read_floats(hz, o, 4);
  printf("%.2f\n", (double)o[0]);
  dt_free(hz); dt_free(z); dt_free(bias); dt_free(py); dt_free(y); dt_free(x); dt_free(w);
  return 0;
}
