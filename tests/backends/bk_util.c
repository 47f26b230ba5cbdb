/* tests/backends/bk_util.c — helpers shared by the backend tests (see bk_util.h). */
#include "bk_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dt_device bk_dev;
int bk_dev_available;

uint64_t bk_next(bk_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float bk_uniform(bk_rng *r, float lo, float hi) {
  return lo + (hi - lo) * (float)((double)(bk_next(r) >> 11) / 9007199254740992.0);
}

int64_t bk_int(bk_rng *r, int64_t lo, int64_t hi) {
  const uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0: the whole int64 range */
  const uint64_t off = span ? bk_next(r) % span : bk_next(r);
  return (int64_t)((uint64_t)lo + off); /* two's complement wrap, no signed overflow */
}

int bk_parse_device(const char *s, dt_device *d) {
  int ord = 0;
  if (strcmp(s, "cpu") == 0) {
    *d = dt_cpu();
    return 0;
  }
  if (sscanf(s, "sim:%d", &ord) == 1) {
    *d = dt_sim(ord);
    return 0;
  }
  if (sscanf(s, "cuda:%d", &ord) == 1) {
    *d = dt_cuda(ord);
    return 0;
  }
  return -1;
}

int bk_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests, size_t n) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  if (bk_parse_device(argc > 1 ? argv[1] : "sim:0", &bk_dev) != 0) {
    fprintf(stderr, "usage: %s [cpu|sim:N|cuda:N]\n", argv[0]);
    return 2;
  }
  /* available: the backend is there and this ordinal exists (allocating tells) */
  bk_dev_available = dt_backend_available(bk_dev.backend);
  if (bk_dev_available) {
    dt_tensor *probe = dt_zeros(bk_dev, DT_FLOAT, 0, NULL);
    bk_dev_available = probe != NULL;
    dt_free(probe);
  }
  char name[128], dev[32];
  dt_device_name(bk_dev, dev, sizeof dev);
  snprintf(name, sizeof name, "%s on %s", group, dev);
  if (!bk_dev_available) {
    dt_tensor *t = dt_zeros(bk_dev, DT_FLOAT, 0, NULL);
    printf("SKIPPED: %s is not available here: %s\n", dev, dt_last_error());
    dt_free(t);
  }
  int failed = _cmocka_run_group_tests(name, tests, n, NULL, NULL);
  if (failed != 0) return 1;
  return bk_dev_available ? 0 : BK_SKIP_CODE;
}

static dt_tensor *from_floats_or_die(const float *v, int rank, const int64_t *shape) {
  dt_tensor *t = dt_from_floats(dt_cpu(), v, rank, shape);
  assert_non_null(t);
  return t;
}

static int64_t numel_of(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) n *= shape[i];
  return n;
}

dt_tensor *bk_rand_floats(bk_rng *r, int rank, const int64_t *shape, float lo, float hi) {
  int64_t n = numel_of(rank, shape);
  float *v = malloc((size_t)(n ? n : 1) * sizeof *v);
  assert_non_null(v);
  for (int64_t i = 0; i < n; ++i) v[i] = bk_uniform(r, lo, hi);
  dt_tensor *t = from_floats_or_die(v, rank, shape);
  free(v);
  return t;
}

dt_tensor *bk_rand_ints(bk_rng *r, int rank, const int64_t *shape, int64_t lo, int64_t hi) {
  int64_t n = numel_of(rank, shape);
  int64_t *v = malloc((size_t)(n ? n : 1) * sizeof *v);
  assert_non_null(v);
  for (int64_t i = 0; i < n; ++i) v[i] = bk_int(r, lo, hi);
  dt_tensor *t = dt_from_ints(dt_cpu(), v, rank, shape);
  assert_non_null(t);
  free(v);
  return t;
}

dt_tensor *bk_rand_bools(bk_rng *r, int rank, const int64_t *shape) {
  dt_tensor *x = bk_rand_floats(r, rank, shape, -1.0f, 1.0f);
  dt_tensor *z = dt_zeros(dt_cpu(), DT_FLOAT, rank, shape);
  dt_tensor *b = dt_greater(x, z);
  assert_non_null(b);
  dt_free(x);
  dt_free(z);
  return b;
}

dt_tensor *bk_to(const dt_tensor *t, dt_device d) {
  dt_tensor *o = dt_to_device(t, d);
  if (o == NULL) fail_msg("dt_to_device failed: %s", dt_last_error());
  return o;
}

/* Reads any tensor into doubles (floats widened, ints and bools converted). */
static double *read_all(const dt_tensor *t, int64_t *n_out) {
  int64_t n = dt_numel(t);
  double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
  assert_non_null(d);
  if (dt_kind_of(t) == DT_FLOAT) {
    float *f = malloc((size_t)(n ? n : 1) * sizeof *f);
    assert_non_null(f);
    if (dt_read_floats(t, f, n) != 0) fail_msg("dt_read_floats: %s", dt_last_error());
    for (int64_t i = 0; i < n; ++i) d[i] = f[i];
    free(f);
  } else {
    int64_t *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    assert_non_null(v);
    if (dt_read_ints(t, v, n) != 0) fail_msg("dt_read_ints: %s", dt_last_error());
    for (int64_t i = 0; i < n; ++i) d[i] = (double)v[i];
    /* exactness of int64 beyond 2^53 is checked separately by callers that need it */
    free(v);
  }
  *n_out = n;
  return d;
}

void bk_assert_same(const dt_tensor *want, const dt_tensor *got, double rtol, double atol,
                    const char *what) {
  if (got == NULL) fail_msg("%s: no result: %s", what, dt_last_error());
  assert_non_null(want);
  if (dt_kind_of(want) != dt_kind_of(got))
    fail_msg("%s: kind %d, expected %d", what, (int)dt_kind_of(got), (int)dt_kind_of(want));
  if (dt_rank(want) != dt_rank(got))
    fail_msg("%s: rank %d, expected %d", what, dt_rank(got), dt_rank(want));
  for (int i = 0; i < dt_rank(want); ++i)
    if (dt_dim(want, i) != dt_dim(got, i))
      fail_msg("%s: dim %d is %lld, expected %lld", what, i, (long long)dt_dim(got, i),
               (long long)dt_dim(want, i));
  if (dt_kind_of(want) != DT_FLOAT) {
    int64_t n = dt_numel(want);
    int64_t *a = malloc((size_t)(n ? n : 1) * sizeof *a), *b = malloc((size_t)(n ? n : 1) * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(dt_read_ints(want, a, n), 0);
    if (dt_read_ints(got, b, n) != 0) fail_msg("%s: dt_read_ints: %s", what, dt_last_error());
    for (int64_t i = 0; i < n; ++i)
      if (a[i] != b[i])
        fail_msg("%s: element %lld is %lld, expected %lld", what, (long long)i, (long long)b[i],
                 (long long)a[i]);
    free(a);
    free(b);
    return;
  }
  int64_t n, m;
  double *a = read_all(want, &n), *b = read_all(got, &m);
  assert_int_equal(n, m);
  for (int64_t i = 0; i < n; ++i) {
    const double x = a[i], y = b[i];
    int ok;
    if (isnan(x)) ok = isnan(y);
    else if (isinf(x)) ok = x == y;
    else ok = !isnan(y) && fabs(x - y) <= atol + rtol * fabs(x);
    if (!ok)
      fail_msg("%s: element %lld is %.9g, expected %.9g (rtol %g, atol %g)", what, (long long)i, y,
               x, rtol, atol);
  }
  free(a);
  free(b);
}

double bk_max_abs(const dt_tensor *t) {
  int64_t n;
  double *a = read_all(t, &n), m = 0;
  for (int64_t i = 0; i < n; ++i)
    if (fabs(a[i]) > m) m = fabs(a[i]);
  free(a);
  return m;
}

void bk_free_all(dt_tensor *t, ...) {
  va_list ap;
  va_start(ap, t);
  while (t != NULL) {
    dt_free(t);
    t = va_arg(ap, dt_tensor *);
  }
  va_end(ap);
}
