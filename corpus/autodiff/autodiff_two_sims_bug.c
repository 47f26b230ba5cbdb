// provenance: blind round field
// Data-parallel gradient averaging done on tracked tensors across autodiff<sim:0> and autodiff<sim:1>.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_device dev; dt_tensor *w; dt_tensor *out; } replica;

int main(void) {
  replica r[2];
  for (int i = 0; i < 2; i++) {
    r[i].dev = dt_autodiff(dt_sim(i));
    r[i].w = dt_require_grad(dt_ones(r[i].dev, DT_FLOAT, 2, (const int64_t[]){2, 2}));
    dt_tensor *x = dt_full(r[i].dev, (float)(i + 1), 2, (const int64_t[]){1, 2});
    r[i].out = dt_matmul(x, r[i].w);
    dt_free(x);
  }
  dt_tensor *both = dt_add(r[0].out, r[1].out); // expect-error: device-mismatch
  dt_tensor *l = dt_sum(both);
  dt_backward(l);
  return 0;
}
