// provenance: blind round field
// Regression targets loaded as int64 labels and fed straight to the float loss.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { int64_t labels[6]; float feats[12]; } dataset;

int main(void) {
  dataset ds;
  for (int i = 0; i < 6; i++) { ds.labels[i] = i % 3; ds.feats[2 * i] = (float)i; ds.feats[2 * i + 1] = 1.0f; }
  dt_device dev = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_zeros(dev, DT_FLOAT, 2, (const int64_t[]){2, 1}));
  dt_tensor *x = dt_from_floats(dev, ds.feats, 2, (const int64_t[]){6, 2});
  dt_tensor *y = dt_from_ints(dev, ds.labels, 2, (const int64_t[]){6, 1});
  dt_tensor *p = dt_matmul(x, w);
  dt_tensor *loss = dt_mse_loss(p, y); // expect-error: kind-mismatch
  dt_backward(loss);
  printf("ok\n");
  return 0;
}
