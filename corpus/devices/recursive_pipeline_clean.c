// provenance: blind round field5
// Recursion over layers; layers 0-1 on sim:0 and 2-3 on sim:1. Each level moves the
// activation onto the layer's own device (dt_device_of the weight) before using it.
#include <dt/dt.h>
#include <stdio.h>

#define L 4
typedef struct layer { dt_tensor *w; dt_tensor *b; } layer;

static dt_tensor *fwd(const layer *ls, int i, int n, dt_tensor *x) {
  if (i == n) return x;
  dt_tensor *xin = dt_to_device(x, dt_device_of(ls[i].w));
  dt_free(x);
  dt_tensor *mm = dt_matmul(xin, ls[i].w);
  dt_tensor *h = dt_add(mm, ls[i].b);
  dt_free(mm); dt_free(xin);
  dt_tensor *a = dt_tanh(h);
  dt_free(h);
  return fwd(ls, i + 1, n, a);
}

int main(void) {
  layer ls[L];
  for (int i = 0; i < L; i++) {
    dt_device d = i < L / 2 ? dt_sim(0) : dt_sim(1);
    ls[i].w = dt_randn(d, (uint64_t)i, 2, (const int64_t[]){4, 4});
    ls[i].b = dt_zeros(d, DT_FLOAT, 1, (const int64_t[]){4});
  }
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *y = fwd(ls, 0, L, x);
  dt_tensor *hy = dt_to_device(y, dt_cpu());
  float out[8];
  dt_read_floats(hy, out, 8);
  printf("%.4f\n", (double)out[0]);
  dt_free(hy); dt_free(y);
  for (int i = 0; i < L; i++) { dt_free(ls[i].w); dt_free(ls[i].b); }
  return 0;
}
