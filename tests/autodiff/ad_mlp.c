/* tests/autodiff/ad_mlp.c — the two-layer perceptron of ad_mlp.h. */
#include "ad_mlp.h"

#include <math.h>
#include <stdlib.h>

static dt_tensor *param(dt_device ad, uint64_t seed, int rank, const int64_t *shape, float scale) {
  dt_tensor *r = dt_randn(ad, seed, rank, shape);
  dt_tensor *s = dt_mul_scalar(r, scale);
  dt_free(r);
  return s == NULL ? NULL : dt_require_grad(s);
}

int ad_mlp_init(ad_mlp *m, dt_device ad, int in, int hidden, int out, uint64_t seed) {
  m->ad = ad;
  m->w1 = param(ad, seed, 2, (const int64_t[]){in, hidden}, 1.0f / sqrtf((float)in));
  m->b1 = param(ad, seed + 1, 1, (const int64_t[]){hidden}, 0.1f);
  m->w2 = param(ad, seed + 2, 2, (const int64_t[]){hidden, out}, 1.0f / sqrtf((float)hidden));
  m->b2 = param(ad, seed + 3, 1, (const int64_t[]){out}, 0.1f);
  return m->w1 && m->b1 && m->w2 && m->b2 ? 0 : -1;
}

/* p <- p - lr * grad(p), as a new leaf (the update itself is not recorded). */
static int update(dt_tensor **p, float lr, dt_device ad) {
  dt_tensor *g = dt_grad(*p);
  if (g == NULL) return -1;
  dt_tensor *step = dt_mul_scalar(g, lr);
  dt_tensor *inner = dt_inner(*p);
  dt_tensor *next = dt_sub(inner, step);
  dt_free(g);
  dt_free(step);
  dt_free(inner);
  if (next == NULL) return -1;
  dt_tensor *leaf = dt_from_inner(ad, next);
  dt_free(next);
  if (leaf == NULL || dt_require_grad(leaf) == NULL) {
    dt_free(leaf);
    return -1;
  }
  dt_free(*p);
  *p = leaf;
  return 0;
}

float ad_mlp_step(ad_mlp *m, const dt_tensor *x, const dt_tensor *y, float lr) {
  dt_tensor *xw = dt_matmul(x, m->w1);
  dt_tensor *z = dt_add(xw, m->b1);
  dt_tensor *h = dt_relu(z);
  dt_tensor *hw = dt_matmul(h, m->w2);
  dt_tensor *pred = dt_add(hw, m->b2);
  dt_tensor *loss = dt_mse_loss(pred, y);
  dt_free(xw);
  dt_free(z);
  dt_free(h);
  dt_free(hw);
  dt_free(pred);
  float value = -1.0f;
  if (loss != NULL && dt_backward(loss) == 0 && dt_read_floats(loss, &value, 1) == 0) {
    if (update(&m->w1, lr, m->ad) || update(&m->b1, lr, m->ad) || update(&m->w2, lr, m->ad) ||
        update(&m->b2, lr, m->ad))
      value = -1.0f;
  }
  dt_free(loss);
  return value;
}

void ad_mlp_free(ad_mlp *m) {
  dt_free(m->w1);
  dt_free(m->b1);
  dt_free(m->w2);
  dt_free(m->b2);
  m->w1 = m->b1 = m->w2 = m->b2 = NULL;
}

void ad_mlp_data(dt_device ad, int n, int in, uint64_t seed, dt_tensor **x, dt_tensor **y) {
  *x = dt_randn(ad, seed, 2, (const int64_t[]){n, in});
  float *xv = malloc((size_t)n * (size_t)in * sizeof *xv);
  float *yv = malloc((size_t)n * sizeof *yv);
  *y = NULL;
  if (*x != NULL && xv != NULL && yv != NULL && dt_read_floats(*x, xv, (int64_t)n * in) == 0) {
    for (int i = 0; i < n; i++) {
      float dot = 0;
      for (int j = 0; j < in; j++) dot += xv[i * in + j] * (j % 2 ? -0.7f : 0.9f);
      yv[i] = tanhf(dot) + (in > 1 ? 0.5f * xv[i * in] * xv[i * in + 1] : 0.0f);
    }
    *y = dt_from_floats(ad, yv, 2, (const int64_t[]){n, 1});
  }
  free(xv);
  free(yv);
}
