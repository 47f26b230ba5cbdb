// provenance: blind round field
// Device chosen by a ternary on a flag; the other operand is moved to that same device.
#include <dt/dt.h>
#include <stdio.h>

int main(int argc, char **argv) {
  (void)argv;
  int on_sim = argc > 1;
  dt_device dev = on_sim ? dt_sim(1) : dt_cpu();
  dt_tensor *w = dt_full(dev, 2.0f, 2, (const int64_t[]){2, 2});
  dt_tensor *x_host = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){1, 2});
  dt_tensor *x = dt_to_device(x_host, dev);
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *s = dt_sum(y);
  float v;
  dt_read_floats(s, &v, 1);
  printf("%.1f (expect 8)\n", v);
  dt_free(w); dt_free(x_host); dt_free(x); dt_free(y); dt_free(s);
  return v == 8.0f ? 0 : 1;
}
