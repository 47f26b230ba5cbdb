// provenance: blind round field
// Single-head attention on autodiff<sim:1>: softmax(QK^T) V with row sums reshaped to [n,1].
#include <dt/dt.h>
#include <math.h>
#include <stdio.h>

typedef struct { dt_tensor *wq, *wk, *wv; int64_t d; } attn;

static dt_tensor *softmax_rows(const dt_tensor *s, int64_t n) {
  dt_tensor *e = dt_exp(s);
  dt_tensor *z = dt_sum_dim(e, 1);
  dt_tensor *zc = dt_reshape(z, 2, (const int64_t[]){n, 1});
  dt_tensor *p = dt_div(e, zc);
  dt_free(e); dt_free(z); dt_free(zc);
  return p;
}

static dt_tensor *attn_forward(const attn *a, const dt_tensor *x, int64_t n) {
  dt_tensor *q = dt_matmul(x, a->wq), *k = dt_matmul(x, a->wk), *v = dt_matmul(x, a->wv);
  dt_tensor *kt = dt_transpose(k);
  dt_tensor *s = dt_matmul(q, kt);
  dt_tensor *ss = dt_mul_scalar(s, 1.0f / sqrtf((float)a->d));
  dt_tensor *p = softmax_rows(ss, n);
  dt_tensor *o = dt_matmul(p, v);
  dt_free(q); dt_free(k); dt_free(v); dt_free(kt); dt_free(s); dt_free(ss); dt_free(p);
  return o;
}

int main(void) {
  dt_device ad = dt_autodiff(dt_sim(1));
  attn a = { dt_require_grad(dt_randn(ad, 1, 2, (const int64_t[]){4, 4})),
             dt_require_grad(dt_randn(ad, 2, 2, (const int64_t[]){4, 4})),
             dt_require_grad(dt_randn(ad, 3, 2, (const int64_t[]){4, 4})), 4 };
  dt_tensor *x = dt_randn(ad, 4, 2, (const int64_t[]){3, 4});
  dt_tensor *o = attn_forward(&a, x, 3);
  dt_tensor *loss = dt_mean(o);
  dt_backward(loss);
  dt_tensor *g = dt_grad(a.wv);
  /* the loss is linear in Wv: recompute it on plain copies with Wv[0][0] + 1, the difference is dWv[0][0] */
  float gv[16], l0, l1;
  dt_read_floats(g, gv, 16);
  dt_read_floats(loss, &l0, 1);
  attn plain = { dt_inner(a.wq), dt_inner(a.wk), NULL, 4 };
  dt_tensor *wv = dt_inner(a.wv);
  float delta[16] = {1};
  dt_tensor *dv = dt_from_floats(dt_sim(1), delta, 2, (const int64_t[]){4, 4});
  plain.wv = dt_add(wv, dv);
  dt_tensor *xi = dt_inner(x);
  dt_tensor *o2 = attn_forward(&plain, xi, 3);
  dt_tensor *m2 = dt_mean(o2);
  dt_read_floats(m2, &l1, 1);
  printf("dWv[0][0] %.5f finite difference %.5f\n", gv[0], l1 - l0);
  int ok = fabsf(gv[0] - (l1 - l0)) < 1e-3f;
  dt_free(plain.wq); dt_free(plain.wk); dt_free(plain.wv); dt_free(wv); dt_free(dv); dt_free(o2); dt_free(m2);
  dt_free(g); dt_free(xi); dt_free(loss); dt_free(o); dt_free(x);
  dt_free(a.wq); dt_free(a.wk); dt_free(a.wv);
  return ok ? 0 : 1;
}
