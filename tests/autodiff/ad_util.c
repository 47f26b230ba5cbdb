/* tests/autodiff/ad_util.c — the helpers of ad_util.h: devices by name, random data, reads,
 * and the finite-difference gradient check. */
#include "ad_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

int ad_device_by_name(const char *name, dt_device *out) {
  if (strcmp(name, "cpu") == 0) *out = dt_cpu();
  else if (strcmp(name, "sim") == 0) *out = dt_sim(0);
  else if (strcmp(name, "sim1") == 0) *out = dt_sim(1);
  else if (strcmp(name, "cuda") == 0) *out = dt_cuda(0);
  else return -1;
  return 0;
}

float ad_uniform(ad_rng *r, float lo, float hi) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  double u = (double)(r->s >> 11) / 9007199254740992.0; /* [0, 1) */
  return lo + (float)u * (hi - lo);
}

void ad_fill(ad_rng *r, float *v, int64_t n, float lo, float hi, float away) {
  for (int64_t i = 0; i < n; i++) {
    if (away > 0) {
      float m = ad_uniform(r, away, hi);
      v[i] = ad_uniform(r, 0, 1) < 0.5f ? -m : m;
    } else {
      v[i] = ad_uniform(r, lo, hi);
    }
  }
}

float *ad_read(const dt_tensor *t) {
  assert_non_null(t);
  int64_t n = dt_numel(t);
  float *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
  assert_non_null(v);
  assert_int_equal(dt_read_floats(t, v, n), 0);
  return v;
}

float ad_scalar(const dt_tensor *t) {
  assert_non_null(t);
  assert_int_equal(dt_numel(t), 1);
  float v = 0;
  assert_int_equal(dt_read_floats(t, &v, 1), 0);
  return v;
}

static int64_t spec_numel(const ad_input_spec *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->shape[i];
  return n;
}

/* sum(fn(in) * w) with w = NULL the first time (then created and returned through *w). */
static dt_tensor *objective(dt_device ad, ad_fn fn, dt_tensor *const *in, dt_tensor **w,
                            ad_rng *rng) {
  dt_tensor *out = fn(ad, in);
  assert_non_null(out);
  if (*w == NULL) {
    int64_t n = dt_numel(out);
    int64_t shape[8];
    int rank = dt_rank(out);
    for (int i = 0; i < rank; i++) shape[i] = dt_dim(out, i);
    float *wv = malloc((size_t)(n > 0 ? n : 1) * sizeof *wv);
    assert_non_null(wv);
    ad_fill(rng, wv, n, -1.5f, 1.5f, 0);
    *w = dt_from_floats(ad, wv, rank, shape);
    free(wv);
    assert_non_null(*w);
  }
  dt_tensor *p = dt_mul(out, *w);
  dt_tensor *loss = dt_sum(p);
  dt_free(p);
  dt_free(out);
  assert_non_null(loss);
  return loss;
}

void ad_gradcheck(dt_device ad, ad_fn fn, int n, const ad_input_spec *ins, uint64_t seed) {
  int64_t tensors0 = dt__live_tensors(), storages0 = dt__live_storages();
  ad_rng rng = {seed};
  float *host[8];
  dt_tensor *leaf[8];
  assert_true(n <= 8);
  for (int i = 0; i < n; i++) {
    int64_t m = spec_numel(&ins[i]);
    host[i] = malloc((size_t)(m > 0 ? m : 1) * sizeof(float));
    assert_non_null(host[i]);
    ad_fill(&rng, host[i], m, ins[i].lo, ins[i].hi, ins[i].away);
    leaf[i] = dt_from_floats(ad, host[i], ins[i].rank, ins[i].shape);
    assert_non_null(leaf[i]);
    assert_ptr_equal(dt_require_grad(leaf[i]), leaf[i]);
  }
  dt_tensor *w = NULL;
  dt_tensor *loss = objective(ad, fn, leaf, &w, &rng);
  assert_int_equal(dt_backward(loss), 0);
  dt_free(loss);

  const float h = 1e-2f;
  for (int i = 0; i < n; i++) {
    dt_tensor *g = dt_grad(leaf[i]);
    assert_non_null(g);
    assert_true(dt_device_equal(dt_device_of(g), dt_inner_device(ad)));
    assert_int_equal(dt_kind_of(g), DT_FLOAT);
    assert_int_equal(dt_rank(g), ins[i].rank);
    for (int a = 0; a < ins[i].rank; a++) assert_int_equal(dt_dim(g, a), ins[i].shape[a]);
    float *an = ad_read(g);
    dt_free(g);
    int64_t m = spec_numel(&ins[i]);
    for (int64_t j = 0; j < m; j++) {
      double f[2];
      for (int side = 0; side < 2; side++) {
        dt_tensor *pin[8];
        float keep = host[i][j];
        host[i][j] = keep + (side ? -h : h);
        for (int k = 0; k < n; k++) {
          pin[k] = dt_from_floats(ad, host[k], ins[k].rank, ins[k].shape);
          assert_non_null(pin[k]);
        }
        host[i][j] = keep;
        dt_tensor *l = objective(ad, fn, pin, &w, &rng);
        f[side] = ad_scalar(l);
        dt_free(l);
        for (int k = 0; k < n; k++) dt_free(pin[k]);
      }
      double num = (f[0] - f[1]) / (2.0 * h);
      double tol = 2e-2 + 2e-2 * fabs(num);
      if (fabs(an[j] - num) > tol) {
        char dev[64];
        dt_device_name(ad, dev, sizeof dev);
        fail_msg("%s: input %d element %lld: autodiff %g, finite differences %g", dev, i,
                 (long long)j, (double)an[j], num);
      }
    }
    free(an);
  }
  for (int i = 0; i < n; i++) {
    dt_free(leaf[i]);
    free(host[i]);
  }
  dt_free(w);
  assert_int_equal(dt__live_tensors(), tensors0);
  assert_int_equal(dt__live_storages(), storages0);
}
