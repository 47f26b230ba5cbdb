// provenance: blind round field4
// Fine-tuning: the backbone output is dt_detach'ed (frozen), only the head trains. The frozen
// weights are asked for gradients and get NULL; detached tensors stay on the autodiff device.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { dt_tensor *w; int frozen; } layer;
typedef struct { dt_device ad; layer backbone, head; } net;

static dt_tensor *layer_fwd(const layer *l, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, l->w);
  if (!l->frozen) return h;
  dt_tensor *d = dt_detach(h);
  dt_free(h);
  return d;
}

static void sgd(net *n, layer *l, float lr) {
  dt_tensor *g = dt_grad(l->w);
  if (!g) return;
  dt_tensor *wi = dt_inner(l->w);
  dt_tensor *nw = dt_sub(wi, dt_mul_scalar(g, lr));
  dt_free(l->w);
  l->w = dt_from_inner(n->ad, nw);
  if (!l->frozen) dt_require_grad(l->w);
  dt_free(g); dt_free(wi); dt_free(nw);
}

int main(void) {
  net n;
  n.ad = dt_autodiff(dt_sim(0));
  n.backbone.w = dt_require_grad(dt_randn(n.ad, 1, 2, (const int64_t[]){4, 4}));
  n.backbone.frozen = 1;
  n.head.w = dt_require_grad(dt_randn(n.ad, 2, 2, (const int64_t[]){4, 1}));
  n.head.frozen = 0;
  dt_tensor *x = dt_randn(n.ad, 3, 2, (const int64_t[]){8, 4});
  for (int i = 0; i < 3; i++) {
    dt_tensor *f = layer_fwd(&n.backbone, x);
    dt_tensor *y = layer_fwd(&n.head, f);
    dt_tensor *l = dt_mean(y);
    dt_backward(l);
    sgd(&n, &n.backbone, 0.1f);
    sgd(&n, &n.head, 0.1f);
    dt_free(f); dt_free(y); dt_free(l);
  }
  puts("ok");
  return 0;
}
