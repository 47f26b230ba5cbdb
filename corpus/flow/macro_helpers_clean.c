// corpus/flow/macro_helpers_clean.c — macros for common tensor idioms (parameter creation,
// a linear layer, freeing a list of handles) used consistently on one device, including a
// macro that takes the device as an argument. Clean.
#include <stdio.h>

#include <dt/dt.h>

#define SHAPE2(a, b) ((const int64_t[]){(a), (b)})
#define ZEROS2(dev, r, c) dt_zeros((dev), DT_FLOAT, 2, SHAPE2((r), (c)))
#define LINEAR(x, w, b) dt_add(dt_matmul((x), (w)), (b))
#define FREE_ALL(...)                                                     \
  do {                                                                    \
    dt_tensor *list_[] = {__VA_ARGS__};                                   \
    for (size_t i_ = 0; i_ < sizeof list_ / sizeof list_[0]; i_++)        \
      dt_free(list_[i_]);                                                 \
  } while (0)

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *w = dt_randn(dev, 1, 2, SHAPE2(3, 3));
  dt_tensor *b = ZEROS2(dev, 1, 3);
  dt_tensor *x = dt_randn(dev, 2, 2, SHAPE2(4, 3));
  dt_tensor *mm = dt_matmul(x, w);
  dt_tensor *y = LINEAR(x, w, b);
  dt_tensor *d = dt_sub(y, mm);
  dt_tensor *s = dt_sum(d);
  float v = 1;
  dt_read_floats(s, &v, 1);
  printf("bias contribution %f\n", (double)v);
  FREE_ALL(s, d, y, mm, x, b, w);
  return 0;
}
