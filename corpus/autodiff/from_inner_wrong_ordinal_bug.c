// corpus/autodiff/from_inner_wrong_ordinal_bug.c — the optimizer rebuilds the tracked weight
// from the updated plain tensor, but the update was computed on the other accelerator.
// Bug: dt_from_inner(autodiff<sim:0>, <sim:1 tensor>) (device-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *w = dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){2, 2}));
  dt_tensor *x = dt_randn(ad, 2, 2, (const int64_t[]){2, 2});
  dt_tensor *out = dt_matmul(x, w);
  dt_tensor *loss = dt_mean(out);
  dt_backward(loss);

  dt_tensor *g = dt_grad(w);
  dt_tensor *g_remote = dt_to_device(g, dt_sim(1)); /* "offload the optimizer" */
  dt_tensor *w_remote = dt_to_device(dt_inner(w), dt_sim(1));
  dt_tensor *step = dt_mul_scalar(g_remote, 0.01f);
  dt_tensor *w_next = dt_sub(w_remote, step);
  dt_tensor *w_new = dt_from_inner(ad, w_next); // expect-error: device-mismatch
  dt_require_grad(w_new);
  printf("updated\n");
  return 0;
}
