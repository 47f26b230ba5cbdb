/* tests/backends/test_backend_autodiff.c — reverse-mode gradients computed on the device under
 * test (argv[1]: autodiff<sim:0>, autodiff<cuda:0> …) against the same graph on autodiff<cpu>:
 * a two-layer network with broadcasting, matmul, activations, cat, transpose, reductions and
 * where, the loss and every parameter's gradient compared. */
#include <stdio.h>

#include "bk_util.h"

enum { P_W1, P_B1, P_W2, P_SCALE, NPARAMS };

typedef struct net {
  dt_tensor *p[NPARAMS];
  dt_tensor *x, *target;
  dt_tensor *loss;
} net;

/* Builds parameters and data on autodiff<d> from the same cpu values. */
static void make_net(net *n, dt_device d, dt_tensor *const host[NPARAMS + 2]) {
  const dt_device ad = dt_autodiff(d);
  for (int i = 0; i < NPARAMS; ++i) {
    dt_tensor *inner = bk_to(host[i], d);
    n->p[i] = dt_require_grad(dt_from_inner(ad, inner));
    if (n->p[i] == NULL) fail_msg("parameter %d: %s", i, dt_last_error());
    dt_free(inner);
  }
  dt_tensor *xi = bk_to(host[NPARAMS], d), *ti = bk_to(host[NPARAMS + 1], d);
  n->x = dt_from_inner(ad, xi);
  n->target = dt_from_inner(ad, ti);
  assert_non_null(n->x);
  assert_non_null(n->target);
  bk_free_all(xi, ti, NULL);
}

/* The forward pass's intermediate tensors, freed after backward. */
typedef struct temps {
  dt_tensor *t[32];
  int n;
} temps;
static dt_tensor *keep(temps *ts, dt_tensor *t) {
  if (t == NULL) fail_msg("forward: %s", dt_last_error());
  assert_true(ts->n < 32);
  ts->t[ts->n++] = t;
  return t;
}
#define T(expr) keep(&ts, (expr))

static void forward_backward(net *n) {
  temps ts = {{0}, 0};
  dt_tensor *h = T(dt_add(T(dt_matmul(n->x, n->p[P_W1])), n->p[P_B1])); /* [8,16] + [16] */
  dt_tensor *a = T(dt_tanh(h));
  dt_tensor *g = T(dt_sigmoid(T(dt_mul(h, n->p[P_SCALE]))));            /* [8,16] * [1] */
  dt_tensor *pos = T(dt_greater(h, T(dt_mul_scalar(h, 0.0f))));
  dt_tensor *mix = T(dt_where(pos, a, g));
  dt_tensor *both[2] = {mix, T(dt_relu(h))};
  dt_tensor *c = T(dt_cat(2, both, 1));                                  /* [8,32] */
  dt_tensor *w2t = T(dt_transpose(T(dt_transpose(n->p[P_W2]))));
  dt_tensor *y = T(dt_matmul(c, w2t));                                   /* [8,3] */
  dt_tensor *reg = T(dt_mean(T(dt_exp(T(dt_mul_scalar(n->p[P_W1], 0.1f))))));
  dt_tensor *rows = T(dt_sum_dim(T(dt_mul(y, y)), 1));
  dt_tensor *l1 = T(dt_mse_loss(y, n->target));
  dt_tensor *l2 = T(dt_add(l1, T(dt_mul_scalar(T(dt_sum(rows)), 0.001f))));
  n->loss = dt_add(l2, reg);
  assert_non_null(n->loss);
  if (dt_backward(n->loss) != 0) fail_msg("backward: %s", dt_last_error());
  for (int i = 0; i < ts.n; ++i) dt_free(ts.t[i]);
}

static void test_gradients_match_cpu(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  bk_rng r = {31};
  const int64_t sw1[2] = {5, 16}, sb1[1] = {16}, sw2[2] = {32, 3}, ss[1] = {1}, sx[2] = {8, 5},
                st[2] = {8, 3};
  dt_tensor *host[NPARAMS + 2] = {
      bk_rand_floats(&r, 2, sw1, -0.5f, 0.5f), bk_rand_floats(&r, 1, sb1, -0.1f, 0.1f),
      bk_rand_floats(&r, 2, sw2, -0.5f, 0.5f), bk_rand_floats(&r, 1, ss, 0.5f, 1.5f),
      bk_rand_floats(&r, 2, sx, -1, 1),        bk_rand_floats(&r, 2, st, -1, 1)};
  net ref, dev;
  make_net(&ref, dt_cpu(), host);
  make_net(&dev, bk_dev, host);
  forward_backward(&ref);
  forward_backward(&dev);
  dt_tensor *lr = dt_inner(ref.loss), *ld = dt_inner(dev.loss);
  bk_assert_same(lr, ld, 1e-5, 1e-6, "loss");
  for (int i = 0; i < NPARAMS; ++i) {
    dt_tensor *gr = dt_grad(ref.p[i]), *gd = dt_grad(dev.p[i]);
    if (gr == NULL || gd == NULL) fail_msg("parameter %d has no gradient", i);
    assert_true(dt_device_equal(dt_device_of(gd), bk_dev));
    char what[256];
    snprintf(what, sizeof what, "gradient of parameter %d", i);
    bk_assert_same(gr, gd, 1e-4, 1e-6, what);
    bk_free_all(gr, gd, NULL);
  }
  bk_free_all(lr, ld, ref.loss, dev.loss, ref.x, ref.target, dev.x, dev.target, NULL);
  for (int i = 0; i < NPARAMS; ++i) bk_free_all(ref.p[i], dev.p[i], NULL);
  for (int i = 0; i < NPARAMS + 2; ++i) dt_free(host[i]);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_gradients_match_cpu)};
  return bk_main(argc, argv, "autodiff on the device", tests, sizeof tests / sizeof tests[0]);
}
