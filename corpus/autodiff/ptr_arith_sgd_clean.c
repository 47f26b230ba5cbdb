// provenance: blind round field5
// Same SGD step, pointer walk with ws++ / gs++, done right: unwrap the param with dt_inner,
// update on the inner device, re-wrap with dt_from_inner on the param's own device.
#include <dt/dt.h>
#include <stdio.h>

#define NP 3
static const int64_t SH[NP][2] = {{4, 8}, {8, 8}, {8, 2}};

static void step(dt_tensor **ws, dt_tensor **gs, int n, float lr) {
  dt_tensor **end = ws + n;
  for (; ws != end; ws++, gs++) {
    if (!*gs) continue;
    dt_device ad = dt_device_of(*ws);
    dt_tensor *inner = dt_inner(*ws);
    dt_tensor *scaled = dt_mul_scalar(*gs, lr);
    dt_tensor *upd = dt_sub(inner, scaled);
    dt_free(scaled); dt_free(inner);
    dt_free(*ws);
    *ws = dt_require_grad(dt_from_inner(ad, upd));
    dt_free(upd);
  }
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  dt_tensor *params[NP], *grads[NP];
  for (int i = 0; i < NP; i++)
    params[i] = dt_require_grad(dt_randn(ad, 3u + (uint64_t)i, 2, SH[i]));
  for (int epoch = 0; epoch < 3; epoch++) {
    dt_tensor *x = dt_ones(ad, DT_FLOAT, 2, (const int64_t[]){2, 4});
    dt_tensor *h = x;
    for (dt_tensor **w = params; w < params + NP; ++w) {
      dt_tensor *mm = dt_matmul(h, *w);
      dt_tensor *n = dt_tanh(mm);
      dt_free(mm);
      if (h != x) dt_free(h);
      h = n;
    }
    dt_tensor *loss = dt_mean(h);
    dt_backward(loss);
    for (int i = 0; i < NP; i++) grads[i] = dt_grad(params[i]);
    step(params, grads, NP, 0.05f);
    for (int i = 0; i < NP; i++) dt_free(grads[i]);
    dt_free(loss); dt_free(h); dt_free(x);
  }
  for (int i = 0; i < NP; i++) dt_free(params[i]);
  puts("ok");
  return 0;
}
