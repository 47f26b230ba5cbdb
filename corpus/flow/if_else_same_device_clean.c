// corpus/flow/if_else_same_device_clean.c — the input is either generated or loaded from a
// host buffer depending on a command-line flag, but both branches end on the model's device.
// Clean: after the if/else every path gives sim:0.
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  dt_device dev = dt_sim(0);
  const int64_t shape[2] = {4, 4};
  dt_tensor *w = dt_randn(dev, 1, 2, shape);
  dt_tensor *x;
  if (argc > 1 && strcmp(argv[1], "--synthetic") == 0) {
    x = dt_randn(dev, 2, 2, shape);
  } else {
    float host[16];
    for (int i = 0; i < 16; i++) host[i] = (float)i / 16.0f;
    dt_tensor *h = dt_from_floats(dt_cpu(), host, 2, shape);
    x = dt_to_device(h, dev);
    dt_free(h);
  }
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *s = dt_sum(y);
  float v = 0;
  dt_read_floats(s, &v, 1);
  printf("sum %f\n", (double)v);
  dt_free(s);
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
