// corpus/basics/two_accelerators_bug.c — a projection layer whose weights were placed on the
// second simulated accelerator while the activations are produced on the first.
// Bug: matmul of sim:0 activations with sim:1 weights (device-mismatch).
#include <stdio.h>

#include <dt/dt.h>

typedef struct projection {
  dt_tensor *w; /* [in, out] */
  dt_tensor *b; /* [out] */
} projection;

int main(void) {
  dt_device act_dev = dt_sim(0);
  dt_device param_dev = dt_sim(1);

  projection proj;
  proj.w = dt_randn(param_dev, 7, 2, (const int64_t[]){8, 4});
  proj.b = dt_zeros(param_dev, DT_FLOAT, 1, (const int64_t[]){4});

  dt_tensor *x = dt_randn(act_dev, 1, 2, (const int64_t[]){16, 8});
  dt_tensor *h = dt_relu(x);
  dt_tensor *y = dt_matmul(h, proj.w); // expect-error: device-mismatch
  dt_tensor *out = dt_add(y, proj.b);

  printf("projected %lld rows\n", (long long)dt_dim(out, 0));
  dt_free(out);
  dt_free(y);
  dt_free(h);
  dt_free(x);
  dt_free(proj.w);
  dt_free(proj.b);
  return 0;
}
