// provenance: blind round field4
// dt_grad on tracked tensors that never required grad (data, frozen buffers): returns NULL,
// which the code handles. Looks like a bug; it is not a tag failure.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; dt_tensor *running_mean; int trainable; } layer;

static int apply_grads(dt_device ad, layer *ls, int n, float lr) {
  int updated = 0;
  for (int i = 0; i < n; i++) {
    dt_tensor *g = dt_grad(ls[i].w);
    dt_tensor *gm = dt_grad(ls[i].running_mean);
    if (gm) { puts("unexpected"); dt_free(gm); }
    if (!g) continue;
    dt_tensor *wi = dt_inner(ls[i].w);
    dt_tensor *nw = dt_sub(wi, dt_mul_scalar(g, lr));
    dt_free(ls[i].w);
    ls[i].w = dt_require_grad(dt_from_inner(ad, nw));
    dt_free(g); dt_free(wi); dt_free(nw);
    updated++;
  }
  return updated;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  layer ls[2];
  for (int i = 0; i < 2; i++) {
    ls[i].trainable = i == 0;
    ls[i].w = dt_randn(ad, (uint64_t)i, 2, (const int64_t[]){3, 3});
    if (ls[i].trainable) dt_require_grad(ls[i].w);
    ls[i].running_mean = dt_zeros(ad, DT_FLOAT, 1, (const int64_t[]){3});
  }
  dt_tensor *x = dt_randn(ad, 9, 2, (const int64_t[]){2, 3});
  dt_tensor *h = dt_matmul(x, ls[0].w);
  dt_tensor *h2 = dt_add(dt_matmul(h, ls[1].w), ls[1].running_mean);
  dt_tensor *l = dt_mean(h2);
  dt_backward(l);
  dt_tensor *gx = dt_grad(x);
  printf("gx %s, updated %d\n", gx ? "set" : "null", apply_grads(ad, ls, 2, 0.1f));
  return 0;
}
