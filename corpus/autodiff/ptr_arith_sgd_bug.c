// provenance: blind round field5
// SGD step written with pointer arithmetic over parallel arrays of params and grads.
// The grads from dt_grad are plain tensors on the inner device; the update subtracts
// them from the autodiff params directly: autodiff-expected on the first param already.
#include <dt/dt.h>
#include <stdio.h>

#define NP 3
static const int64_t SH[NP][2] = {{4, 8}, {8, 8}, {8, 2}};

static void step(dt_tensor **params, dt_tensor *const *grads, int n, float lr) {
  dt_tensor **p;
  for (p = params; p < params + n; p++) {
    dt_tensor *g = *(grads + (p - params));
    dt_tensor *scaled = dt_mul_scalar(g, lr);
    dt_tensor *upd = dt_sub(*p, scaled); // expect-error: autodiff-expected
    dt_free(scaled);
    dt_free(*p);
    *p = dt_require_grad(upd);
  }
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *params[NP];
  for (int i = 0; i < NP; i++)
    params[i] = dt_require_grad(dt_randn(ad, 7u + (uint64_t)i, 2, SH[i]));
  dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 4});
  dt_tensor *h = x;
  for (int i = 0; i < NP; i++) {
    dt_tensor *n = dt_tanh(dt_matmul(h, params[i]));
    if (h != x) dt_free(h);
    h = n;
  }
  dt_tensor *loss = dt_mean(h);
  dt_backward(loss);
  dt_tensor *grads[NP];
  for (int i = 0; i < NP; i++) grads[i] = dt_grad(params[i]);
  step(params, grads, NP, 0.1f);
  for (int i = 0; i < NP; i++) { dt_free(grads[i]); dt_free(params[i]); }
  dt_free(loss); dt_free(h); dt_free(x);
  puts("ok");
  return 0;
}
