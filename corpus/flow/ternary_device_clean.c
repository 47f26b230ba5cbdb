// corpus/flow/ternary_device_clean.c — the device is chosen at run time with a ternary from a
// command-line flag, then every tensor is created on that one device. Clean: whichever branch
// is taken, all operands agree (the analyzer must not warn about a choice that is consistent).
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

typedef struct mlp {
  dt_tensor *w1, *b1, *w2;
} mlp;

int main(int argc, char **argv) {
  int use_accel = argc > 1 && strcmp(argv[1], "--accel") == 0;
  dt_device dev = use_accel ? dt_sim(0) : dt_cpu();

  mlp m;
  m.w1 = dt_randn(dev, 1, 2, (const int64_t[]){4, 8});
  m.b1 = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){8});
  m.w2 = dt_randn(dev, 2, 2, (const int64_t[]){8, 1});

  dt_tensor *x = dt_randn(dev, 3, 2, (const int64_t[]){16, 4});
  dt_tensor *h0 = dt_matmul(x, m.w1);
  dt_tensor *h1 = dt_add(h0, m.b1);
  dt_tensor *h = dt_relu(h1);
  dt_tensor *y = dt_matmul(h, m.w2);
  dt_tensor *target = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){16, 1});
  dt_tensor *loss = dt_mse_loss(y, target);
  float l = 0;
  dt_read_floats(loss, &l, 1);
  printf("loss %f on %s\n", (double)l, use_accel ? "sim:0" : "cpu");

  dt_tensor *all[] = {loss, target, y, h, h1, h0, x, m.w1, m.b1, m.w2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dt_free(all[i]);
  return 0;
}
