// provenance: blind round field4
// A do/while(0) macro that spans a matmul, a bias add and an activation; the bias of the
// second layer was created on sim:1. The failing add is inside the macro, reported at the use.
#include <dt/dt.h>
#include <stdio.h>

#define DENSE_RELU(out, x, w, b)           \
  do {                                     \
    dt_tensor *mm_ = dt_matmul((x), (w));  \
    dt_tensor *ab_ = dt_add(mm_, (b));     \
    (out) = dt_relu(ab_);                  \
    dt_free(mm_);                          \
    dt_free(ab_);                          \
  } while (0)

int main(void) {
  dt_device d = dt_sim(0);
  dt_tensor *w1 = dt_randn(d, 1, 2, (const int64_t[]){4, 4});
  dt_tensor *b1 = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *w2 = dt_randn(d, 2, 2, (const int64_t[]){4, 2});
  dt_tensor *b2 = dt_zeros(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *x = dt_randn(d, 3, 2, (const int64_t[]){5, 4});
  dt_tensor *h, *y;
  DENSE_RELU(h, x, w1, b1);
  DENSE_RELU(y, h, w2, b2); // expect-error: device-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
