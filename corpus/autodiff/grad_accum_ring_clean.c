// provenance: blind round field3
// Gradient accumulation over micro-batches: the accumulation buffers are plain tensors on the
// inner device, reset every ACC steps; micro-batches come from an array of structs indexed by
// a computed index.
#include <dt/dt.h>
#include <stdio.h>
#define ACC 2
#define NB 4
typedef struct { dt_tensor *x, *y; } mb;
int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){3, 1}));
  mb data[NB];
  for (int i = 0; i < NB; i++) {
    data[i].x = dt_randn(ad, (uint64_t)i, 2, (const int64_t[]){2, 3});
    data[i].y = dt_zeros(ad, DT_FLOAT, 2, (const int64_t[]){2, 1});
  }
  dt_tensor *acc = NULL;
  for (int step = 0; step < 8; step++) {
    const mb *b = &data[(step * 3 + 1) % NB];
    dt_tensor *w_cur = dt_require_grad(dt_detach(w));
    dt_tensor *l = dt_mse_loss(dt_matmul(b->x, w_cur), b->y);
    dt_backward(l);
    dt_tensor *g = dt_grad(w_cur);
    if (!acc) acc = dt_zeros(dt_inner_device(ad), DT_FLOAT, 2, (const int64_t[]){3, 1});
    dt_tensor *na = dt_add(acc, g);
    dt_free(acc); acc = na;
    if ((step + 1) % ACC == 0) {
      dt_tensor *wi = dt_inner(w);
      dt_tensor *nw = dt_sub(wi, dt_mul_scalar(acc, 0.1f / ACC));
      w = dt_from_inner(ad, nw);
      dt_free(acc); acc = NULL; dt_free(wi);
    }
    dt_free(l); dt_free(g);
  }
  dt_tensor *wi = dt_inner(w);
  float v[3]; dt_read_floats(wi, v, 3);
  printf("%f\n", v[0]);
  return 0;
}
