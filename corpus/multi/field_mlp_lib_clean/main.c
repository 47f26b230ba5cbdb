// main.c — runs a 3-layer MLP from layers.c on the device named in argv (default sim:0).
#include "layers.h"
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  dt_device dev = (argc > 1 && strcmp(argv[1], "cpu") == 0) ? dt_cpu() : dt_sim(0);
  dense net[3];
  const int64_t dims[4] = {4, 16, 16, 2};
  for (int i = 0; i < 3; i++) dense_init(&net[i], dev, dims[i], dims[i + 1], (uint64_t)i + 1);
  dt_tensor *h = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){5, 4});
  for (int i = 0; i < 3; i++) {
    dt_tensor *y = dense_forward(&net[i], h);
    dt_tensor *a = i < 2 ? dt_relu(y) : dt_detach(y);
    dt_free(h); dt_free(y);
    h = a;
  }
  float out[10];
  dt_read_floats(h, out, 10);
  printf("out[0] %.4f\n", out[0]);
  for (int i = 0; i < 3; i++) dense_free(&net[i]);
  dt_free(h);
  return 0;
}
