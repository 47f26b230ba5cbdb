// provenance: blind round field
// Two-layer MLP regression trained with plain SGD on autodiff<cpu>.
#include <dt/dt.h>
#include <stdio.h>

#define NLAYERS 2

typedef struct { dt_tensor *w, *b; } linear;
typedef struct { linear layers[NLAYERS]; dt_device dev; } mlp;

static void linear_init(linear *l, dt_device dev, int64_t in, int64_t out, uint64_t seed) {
  dt_tensor *w0 = dt_randn(dev, seed, 2, (const int64_t[]){in, out});
  l->w = dt_require_grad(dt_mul_scalar(w0, 0.5f));
  dt_free(w0);
  l->b = dt_require_grad(dt_zeros(dev, DT_FLOAT, 1, (const int64_t[]){out}));
}

static void mlp_init(mlp *m, dt_device dev) {
  m->dev = dev;
  linear_init(&m->layers[0], dev, 2, 8, 1);
  linear_init(&m->layers[1], dev, 8, 1, 2);
}

static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_matmul(x, m->layers[0].w);
  dt_tensor *hb = dt_add(h, m->layers[0].b);
  dt_tensor *a = dt_tanh(hb);
  dt_tensor *o = dt_matmul(a, m->layers[1].w);
  dt_tensor *y = dt_add(o, m->layers[1].b);
  dt_free(h); dt_free(hb); dt_free(a); dt_free(o);
  return y;
}

static dt_tensor *sgd_update(dt_device dev, dt_tensor *p, float lr) {
  dt_tensor *g = dt_grad(p);
  if (!g) return p;
  dt_tensor *in = dt_inner(p);
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *nw = dt_sub(in, step);
  dt_tensor *np = dt_require_grad(dt_from_inner(dev, nw));
  dt_free(g); dt_free(in); dt_free(step); dt_free(nw); dt_free(p);
  return np;
}

int main(void) {
  mlp m;
  dt_device dev = dt_autodiff(dt_cpu());
  mlp_init(&m, dev);
  float xs[16], ys[8];
  for (int i = 0; i < 8; i++) {
    xs[2 * i] = (float)i / 8.0f;
    xs[2 * i + 1] = 1.0f - (float)i / 8.0f;
    ys[i] = 0.5f * xs[2 * i] - 0.25f * xs[2 * i + 1];
  }
  dt_tensor *x = dt_from_floats(dev, xs, 2, (const int64_t[]){8, 2});
  dt_tensor *y = dt_from_floats(dev, ys, 2, (const int64_t[]){8, 1});
  float first = 0, last = 0;
  for (int step = 0; step < 200; step++) {
    dt_tensor *pred = mlp_forward(&m, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    float l;
    dt_read_floats(loss, &l, 1);
    if (step == 0) first = l;
    last = l;
    for (int i = 0; i < NLAYERS; i++) {
      m.layers[i].w = sgd_update(dev, m.layers[i].w, 0.1f);
      m.layers[i].b = sgd_update(dev, m.layers[i].b, 0.1f);
    }
    dt_free(pred); dt_free(loss);
  }
  printf("loss %.5f -> %.5f\n", first, last);
  for (int i = 0; i < NLAYERS; i++) { dt_free(m.layers[i].w); dt_free(m.layers[i].b); }
  dt_free(x); dt_free(y);
  return last < first ? 0 : 1;
}
