// corpus/flow/shadowing_clean.c — a block declares its own `dev` (shadowing the outer one) to
// run a side computation on the second accelerator; after the block the outer `dev` is in
// scope again. Clean: the analyzer must resolve each `dev` to its own declaration.
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *x = dt_randn(dev, 1, 2, (const int64_t[]){4, 4});
  float side_norm = 0;
  {
    dt_device dev = dt_sim(1); /* the side job's own device */
    dt_tensor *probe = dt_randn(dev, 2, 2, (const int64_t[]){4, 4});
    dt_tensor *sq = dt_mul(probe, probe);
    dt_tensor *n = dt_sum(sq);
    dt_read_floats(n, &side_norm, 1);
    dt_free(n);
    dt_free(sq);
    dt_free(probe);
  }
  dt_tensor *w = dt_randn(dev, 3, 2, (const int64_t[]){4, 2});
  dt_tensor *y = dt_matmul(x, w);
  printf("side norm %f, y %lld\n", (double)side_norm, (long long)dt_numel(y));
  dt_free(y);
  dt_free(w);
  dt_free(x);
  return 0;
}
