// corpus/multi/mlp_trainer/optim.c — SGD: the update is computed on plain tensors (dt_inner,
// dt_grad) and wrapped back as a fresh trainable leaf.
#include "optim.h"

void sgd_step(dt_device dev, dt_tensor **const *slots, int n, float lr) {
  for (int i = 0; i < n; i++) {
    dt_tensor *p = *slots[i];
    dt_tensor *g = dt_grad(p);
    if (!g) continue;
    dt_tensor *plain = dt_inner(p);
    dt_tensor *step = dt_mul_scalar(g, lr);
    dt_tensor *next = dt_sub(plain, step);
    *slots[i] = dt_require_grad(dt_from_inner(dev, next));
    dt_free(p);
    dt_free(next);
    dt_free(step);
    dt_free(plain);
    dt_free(g);
  }
}
