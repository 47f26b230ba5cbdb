// provenance: blind round field2
// A do/while(0) macro wraps matmul+add; the bias of layer 2 was created on the host.
#include <dt/dt.h>
#include <stdio.h>
#define LINEAR(out, x, w, b)                 \
  do {                                       \
    dt_tensor *tmp_ = dt_matmul((x), (w));   \
    (out) = dt_add(tmp_, (b));               \
    dt_free(tmp_);                           \
  } while (0)
#define SHAPE2(a, b) 2, (const int64_t[]){(a), (b)}
typedef struct { dt_tensor *w1, *b1, *w2, *b2; } mlp;
static void mlp_init(mlp *m, dt_device d) {
  m->w1 = dt_randn(d, 1, SHAPE2(4, 8));
  m->b1 = dt_zeros(d, DT_FLOAT, SHAPE2(1, 8));
  m->w2 = dt_randn(d, 2, SHAPE2(8, 2));
  m->b2 = dt_zeros(dt_cpu(), DT_FLOAT, SHAPE2(1, 2));
}
int main(void) {
  mlp m;
  dt_device d = dt_sim(0);
  mlp_init(&m, d);
  dt_tensor *x = dt_ones(d, DT_FLOAT, SHAPE2(3, 4));
  dt_tensor *h, *y;
  LINEAR(h, x, m.w1, m.b1);
  dt_tensor *a = dt_relu(h);
  LINEAR(y, a, m.w2, m.b2); // expect-error: backend-mismatch
  printf("%p\n", (void *)y);
  return 0;
}
