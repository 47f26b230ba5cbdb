// corpus/flow/macro_layer_bug.c — layers written as macros that expand to API calls. The bias
// of the second layer was created on the host. The failing call comes out of a macro
// expansion; it is reported at the line where the macro is used (the runtime's __LINE__ is
// that line too). Bug: backend-mismatch in LINEAR(h, w2, b2).
#include <stdio.h>

#include <dt/dt.h>

#define SHAPE2(a, b) ((const int64_t[]){(a), (b)})
#define PARAM(dev, seed, r, c) dt_randn((dev), (seed), 2, SHAPE2((r), (c)))
#define LINEAR(x, w, b) dt_add(dt_matmul((x), (w)), (b))

int main(void) {
  dt_device dev = dt_sim(0);
  dt_tensor *w1 = PARAM(dev, 1, 4, 8);
  dt_tensor *b1 = dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){8});
  dt_tensor *w2 = PARAM(dev, 2, 8, 2);
  dt_tensor *b2 = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});

  dt_tensor *x = PARAM(dev, 3, 5, 4);
  dt_tensor *h = dt_relu(LINEAR(x, w1, b1));
  dt_tensor *y = LINEAR(h, w2, b2); // expect-error: backend-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  return 0;
}
