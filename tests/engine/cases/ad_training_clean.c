// An autodiff MLP trained with SGD through dt_inner / dt_from_inner, on a device picked by a
// flag; the loss is read back on the host through an autodiff host device. Clean.
#include <stdio.h>
#include <string.h>
#include <dt/dt.h>
typedef struct mlp { dt_tensor *w1, *b1, *w2, *b2; } mlp;
typedef struct opts { int use_sim; int epochs; float lr; } opts;
static void parse(opts *o, int argc, char **argv) {
  o->use_sim = 0; o->epochs = 5; o->lr = 0.1f;
  for (int i = 1; i < argc; i++) if (!strcmp(argv[i], "--sim")) o->use_sim = 1;
}
static dt_tensor *param(dt_device ad, uint64_t seed, int r, int c) {
  dt_tensor *p = dt_randn(dt_inner_device(ad), seed, 2, (const int64_t[]){r, c});
  return dt_require_grad(dt_from_inner(ad, p));
}
static void mlp_init(mlp *m, dt_device ad) {
  m->w1 = param(ad, 1, 4, 8); m->b1 = param(ad, 2, 1, 8);
  m->w2 = param(ad, 3, 8, 1); m->b2 = param(ad, 4, 1, 1);
}
static dt_tensor *mlp_forward(const mlp *m, const dt_tensor *x) {
  dt_tensor *h = dt_add(dt_matmul(x, m->w1), m->b1);
  dt_tensor *a = dt_relu(h);
  return dt_add(dt_matmul(a, m->w2), m->b2);
}
static dt_tensor *sgd(dt_tensor *p, float lr, dt_device ad) {
  dt_tensor *g = dt_grad(p);
  if (!g) return p;
  dt_tensor *upd = dt_sub(dt_inner(p), dt_mul_scalar(g, lr));
  return dt_require_grad(dt_from_inner(ad, upd));
}
int main(int argc, char **argv) {
  opts o;
  parse(&o, argc, argv);
  dt_device base = o.use_sim ? dt_sim(0) : dt_cpu();
  dt_device ad = dt_autodiff(base);
  mlp m;
  mlp_init(&m, ad);
  static const float xs[16] = {0};
  static const float ys[4] = {0};
  dt_tensor *x = dt_from_inner(ad, dt_from_floats(base, xs, 2, (const int64_t[]){4, 4}));
  dt_tensor *y = dt_from_inner(ad, dt_from_floats(base, ys, 2, (const int64_t[]){4, 1}));
  for (int e = 0; e < o.epochs; e++) {
    dt_tensor *pred = mlp_forward(&m, x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    dt_backward(loss);
    m.w1 = sgd(m.w1, o.lr, ad); m.b1 = sgd(m.b1, o.lr, ad);
    m.w2 = sgd(m.w2, o.lr, ad); m.b2 = sgd(m.b2, o.lr, ad);
    float v;
    dt_tensor *host = dt_to_device(dt_detach(loss), dt_autodiff(dt_cpu()));
    dt_read_floats(dt_inner(host), &v, 1);
    printf("%d %f\n", e, (double)v);
  }
  return 0;
}
