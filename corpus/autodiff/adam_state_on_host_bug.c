// provenance: blind round field
// Optimizer state allocated with the default (host) device while gradients live on sim:1.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *m; float beta; } momentum_buf;

static void buf_init(momentum_buf *b, const dt_tensor *like) {
  b->m = dt_zeros(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){dt_dim(like, 0), dt_dim(like, 1)});
  b->beta = 0.9f;
}

static dt_tensor *buf_update(momentum_buf *b, const dt_tensor *g) {
  dt_tensor *d = dt_mul_scalar(b->m, b->beta);
  dt_tensor *n = dt_add(d, g); // expect-error: backend-mismatch
  dt_free(d); dt_free(b->m);
  b->m = n;
  return n;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *w = dt_require_grad(dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 2}));
  momentum_buf mb;
  buf_init(&mb, w);
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){3, 2});
  dt_tensor *y = dt_matmul(x, w);
  dt_tensor *l = dt_sum(y);
  dt_backward(l);
  dt_tensor *g = dt_grad(w);
  buf_update(&mb, g);
  printf("ok\n");
  return 0;
}
