/* tests/runtime/test_ops.c — the operations on cpu (ops.c, prim.c, backends/cpu): broadcast
 * binary operations against an independent reference, NumPy broadcasting cases and errors, int
 * semantics, where, unary and scalar operations, matmul, transpose, reshape, cat, mse_loss and
 * transfers between devices. */
#include "rt_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- an independent broadcasting reference ---- */

typedef struct ref_shape {
  int rank;
  int64_t dim[DT_MAX_RANK];
} ref_shape;

static int64_t ref_numel(const ref_shape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dim[i];
  return n;
}

/* The offset into x (row-major) of output element `flat` of shape out, NumPy-style. */
static int64_t ref_offset(const ref_shape *out, const ref_shape *x, int64_t flat) {
  int64_t off = 0, stride = 1;
  for (int a = out->rank - 1, b = x->rank - 1; b >= 0; a--, b--) {
    const int64_t idx = flat % out->dim[a];
    flat /= out->dim[a];
    off += (x->dim[b] == 1 ? 0 : idx) * stride;
    stride *= x->dim[b];
  }
  return off;
}

static float ref_apply(char op, float x, float y) {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
    default:
      return x > y;
  }
}

static dt_tensor *apply(char op, const dt_tensor *a, const dt_tensor *b) {
  switch (op) {
    case '+':
      return dt_add(a, b);
    case '-':
      return dt_sub(a, b);
    case '*':
      return dt_mul(a, b);
    case '/':
      return dt_div(a, b);
    default:
      return dt_greater(a, b);
  }
}

static float *values(int64_t n, float base) {
  float *v = malloc(sizeof(float) * (size_t)(n ? n : 1));
  assert_non_null(v);
  for (int64_t i = 0; i < n; i++) v[i] = base + 0.75f * (float)(i % 7) - 0.5f * (float)(i % 3);
  return v;
}

/* a (shape sa) op b (shape sb) must give shape so and the reference's values. */
static void check_broadcast(ref_shape sa, ref_shape sb, ref_shape so) {
  const char ops[] = "+-*/>";
  float *va = values(ref_numel(&sa), 1.0f), *vb = values(ref_numel(&sb), 2.5f);
  dt_tensor *a = dt_from_floats(dt_cpu(), va, sa.rank, sa.dim);
  dt_tensor *b = dt_from_floats(dt_cpu(), vb, sb.rank, sb.dim);
  assert_non_null(a);
  assert_non_null(b);
  const int64_t n = ref_numel(&so);
  float *got = malloc(sizeof(float) * (size_t)(n ? n : 1));
  int64_t *gotb = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  for (const char *op = ops; *op; op++) {
    dt_tensor *r = apply(*op, a, b);
    rt_assert_shape(r, so.rank, so.dim);
    if (*op == '>') {
      assert_int_equal(dt_kind_of(r), DT_BOOL);
      rt_read_i(r, gotb, n);
    } else {
      rt_read_f(r, got, n);
    }
    for (int64_t i = 0; i < n; i++) {
      const float want = ref_apply(*op, va[ref_offset(&so, &sa, i)], vb[ref_offset(&so, &sb, i)]);
      if (*op == '>')
        assert_int_equal(gotb[i], (int64_t)want);
      else
        assert_true(got[i] == want);
    }
    dt_free(r);
  }
  free(va), free(vb), free(got), free(gotb);
  rt_free_all(a, b, NULL);
}

#define S(...) ((ref_shape){sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), {__VA_ARGS__}})
#define S0 ((ref_shape){0, {0}})

static void test_broadcasting(void **state) {
  (void)state;
  check_broadcast(S(2, 3), S(2, 3), S(2, 3));
  check_broadcast(S(2, 3), S(3), S(2, 3));
  check_broadcast(S(3), S(2, 3), S(2, 3));
  check_broadcast(S(2, 3), S(2, 1), S(2, 3));
  check_broadcast(S(2, 1), S(1, 3), S(2, 3));
  check_broadcast(S0, S(4), S(4));
  check_broadcast(S(4), S0, S(4));
  check_broadcast(S0, S0, S0);
  check_broadcast(S(4, 1, 3), S(2, 1), S(4, 2, 3));
  check_broadcast(S(3, 1, 4, 1), S(4, 5), S(3, 1, 4, 5));
  check_broadcast(S(2, 3), S(1, 1, 1), S(1, 2, 3));
  check_broadcast(S(0, 3), S(3), S(0, 3));
  check_broadcast(S(1, 3), S(0, 1), S(0, 3));
  check_broadcast(S(1000), S(1000), S(1000)); /* long contiguous rows */
  check_broadcast(S(33, 65), S(65), S(33, 65));
  check_broadcast(S(65, 1), S(65, 33), S(65, 33));
}

static void test_broadcast_4d(void **state) {
  (void)state;
  check_broadcast(S(3, 1, 4, 1), S(5, 1, 1), S(3, 5, 4, 1));
  check_broadcast(S(2, 1, 3, 1, 2), S(4, 1, 5, 1), S(2, 4, 3, 5, 2));
  check_broadcast(S(1, 1, 1, 1, 1, 1, 1, 7), S(2, 1, 1, 1, 1, 1, 3, 1), S(2, 1, 1, 1, 1, 1, 3, 7));
}

static void test_broadcast_errors(void **state) {
  (void)state;
  dt_tensor *a = rt_iota(dt_cpu(), 2, SHAPE(2, 3)), *b = rt_iota(dt_cpu(), 1, SHAPE(2));
  dt_tensor *c = rt_iota(dt_cpu(), 2, SHAPE(3, 2)), *d = rt_iota(dt_cpu(), 1, SHAPE(4));
  rt_assert_failed(dt_add(a, b), DT_ERR_SHAPE, "dt_add", "[2, 3]", "[2]", "broadcast", NULL);
  rt_assert_failed(dt_mul(a, c), DT_ERR_SHAPE, "[3, 2]", NULL);
  rt_assert_failed(dt_greater(d, b), DT_ERR_SHAPE, NULL);
  rt_free_all(a, b, c, d, NULL);
}

static void test_int_arithmetic(void **state) {
  (void)state;
  dt_tensor *a = dt_from_ints(dt_cpu(), INTS(7, -7, 9, INT64_MAX, INT64_MIN, 5), 1, SHAPE(6));
  dt_tensor *b = dt_from_ints(dt_cpu(), INTS(2, 2, 0, 1, -1, -2), 1, SHAPE(6));
  int64_t v[6];
  dt_tensor *q = dt_div(a, b), *s = dt_add(a, b), *m = dt_mul(a, b), *d = dt_sub(a, b);
  rt_read_i(q, v, 6);
  /* Truncating division, 0 for division by zero, no trap on INT64_MIN / -1. */
  assert_int_equal(v[0], 3);
  assert_int_equal(v[1], -3);
  assert_int_equal(v[2], 0);
  assert_int_equal(v[3], INT64_MAX);
  assert_int_equal(v[4], INT64_MIN);
  assert_int_equal(v[5], -2);
  rt_read_i(s, v, 6);
  assert_int_equal(v[0], 9);
  assert_int_equal(v[3], INT64_MIN); /* wraps */
  rt_read_i(m, v, 6);
  assert_int_equal(v[1], -14);
  rt_read_i(d, v, 6);
  assert_int_equal(v[5], 7);
  /* Scalars: computed in double, truncated toward zero. */
  dt_tensor *hs = dt_add_scalar(a, 0.5f), *ms = dt_mul_scalar(a, -0.5f);
  assert_int_equal(dt_kind_of(hs), DT_INT);
  rt_read_i(hs, v, 6);
  assert_int_equal(v[0], 7);
  assert_int_equal(v[1], -6);
  assert_int_equal(v[3], INT64_MAX); /* saturates instead of overflowing */
  rt_read_i(ms, v, 6);
  assert_int_equal(v[0], -3);
  assert_int_equal(v[1], 3);
  dt_tensor *n = dt_neg(a), *r = dt_relu(a);
  rt_read_i(n, v, 6);
  assert_int_equal(v[0], -7);
  assert_int_equal(v[4], INT64_MIN); /* wraps */
  rt_read_i(r, v, 6);
  assert_int_equal(v[0], 7);
  assert_int_equal(v[1], 0);
  rt_free_all(a, b, q, s, m, d, hs, ms, n, r, NULL);
}

static void test_unary_and_scalar(void **state) {
  (void)state;
  enum { N = 37 };
  float x[N], got[N];
  for (int i = 0; i < N; i++) x[i] = -4.0f + 0.23f * (float)i;
  dt_tensor *t = dt_from_floats(dt_cpu(), x, 1, SHAPE(N));
  struct {
    dt_tensor *r;
    float (*f)(float);
  } cases[] = {{dt_exp(t), expf}, {dt_tanh(t), tanhf}};
  for (size_t c = 0; c < 2; c++) {
    rt_read_f(cases[c].r, got, N);
    for (int i = 0; i < N; i++) assert_float_equal(got[i], cases[c].f(x[i]), 1e-5f * (1 + fabsf(got[i])));
    dt_free(cases[c].r);
  }
  dt_tensor *sg = dt_sigmoid(t), *ng = dt_neg(t), *rl = dt_relu(t), *as = dt_add_scalar(t, 1.5f),
            *ms = dt_mul_scalar(t, -2.0f);
  rt_read_f(sg, got, N);
  for (int i = 0; i < N; i++) assert_float_equal(got[i], 1.0f / (1.0f + expf(-x[i])), 1e-6f);
  rt_read_f(ng, got, N);
  for (int i = 0; i < N; i++) assert_true(got[i] == -x[i]);
  rt_read_f(rl, got, N);
  for (int i = 0; i < N; i++) assert_true(got[i] == (x[i] > 0 ? x[i] : 0.0f));
  rt_read_f(as, got, N);
  for (int i = 0; i < N; i++) assert_true(got[i] == x[i] + 1.5f);
  rt_read_f(ms, got, N);
  for (int i = 0; i < N; i++) assert_true(got[i] == x[i] * -2.0f);
  dt_tensor *pos = dt_exp(t), *lg = dt_log(pos);
  rt_read_f(lg, got, N);
  for (int i = 0; i < N; i++) assert_float_equal(got[i], x[i], 1e-5f);
  rt_free_all(t, sg, ng, rl, as, ms, pos, lg, NULL);
}

static void test_where(void **state) {
  (void)state;
  dt_tensor *x = dt_from_floats(dt_cpu(), FLOATS(1, -2, 3, -4, 5, -6), 2, SHAPE(2, 3));
  dt_tensor *zero = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
  dt_tensor *c = dt_greater(x, zero);
  dt_tensor *other = dt_from_floats(dt_cpu(), FLOATS(10, 20, 30), 1, SHAPE(3));
  dt_tensor *w = dt_where(c, x, other);
  rt_assert_shape(w, 2, SHAPE(2, 3));
  float v[6];
  rt_read_f(w, v, 6);
  const float want[6] = {1, 20, 3, 10, 5, 30};
  assert_memory_equal(v, want, sizeof want);
  /* Condition broadcast over rows; int values. */
  dt_tensor *col = dt_from_floats(dt_cpu(), FLOATS(1, -1), 2, SHAPE(2, 1));
  dt_tensor *cc = dt_greater(col, zero);
  dt_tensor *ia = dt_from_ints(dt_cpu(), INTS(1, 2, 3), 1, SHAPE(3));
  dt_tensor *ib = dt_from_ints(dt_cpu(), INTS(-1), 0, NULL);
  dt_tensor *wi = dt_where(cc, ia, ib);
  rt_assert_shape(wi, 2, SHAPE(2, 3));
  assert_int_equal(dt_kind_of(wi), DT_INT);
  int64_t iv[6];
  rt_read_i(wi, iv, 6);
  const int64_t iwant[6] = {1, 2, 3, -1, -1, -1};
  assert_memory_equal(iv, iwant, sizeof iwant);
  dt_tensor *two = dt_from_ints(dt_cpu(), INTS(1, 2), 1, SHAPE(2));
  rt_assert_failed(dt_where(cc, ia, two), DT_ERR_SHAPE, "dt_where", NULL);
  dt_free(two);
  rt_free_all(x, zero, c, other, w, col, cc, ia, ib, wi, NULL);
}

static void test_matmul(void **state) {
  (void)state;
  const int64_t dims[][3] = {{3, 4, 5}, {1, 1, 1}, {64, 33, 17}, {2, 0, 3}, {0, 4, 2}};
  for (size_t c = 0; c < sizeof dims / sizeof dims[0]; c++) {
    const int64_t m = dims[c][0], k = dims[c][1], n = dims[c][2];
    dt_tensor *a = rt_iota(dt_cpu(), 2, SHAPE(m, k)), *b = rt_iota(dt_cpu(), 2, SHAPE(k, n));
    dt_tensor *p = dt_matmul(a, b);
    rt_assert_shape(p, 2, SHAPE(m, n));
    float *got = malloc(sizeof(float) * (size_t)(m * n + 1));
    rt_read_f(p, got, m * n);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double want = 0;
        for (int64_t q = 0; q < k; q++)
          want += (double)(0.5f * (float)(i * k + q) - 3.0f) * (double)(0.5f * (float)(q * n + j) - 3.0f);
        assert_float_equal(got[i * n + j], want, 1e-4 * (1 + fabs(want)));
      }
    free(got);
    rt_free_all(a, b, p, NULL);
  }
  dt_tensor *ia = dt_from_ints(dt_cpu(), INTS(1, 2, 3, 4, 5, 6), 2, SHAPE(2, 3));
  dt_tensor *ib = dt_from_ints(dt_cpu(), INTS(1, 0, 0, 1, 2, 2), 2, SHAPE(3, 2));
  dt_tensor *ip = dt_matmul(ia, ib);
  int64_t iv[4];
  rt_read_i(ip, iv, 4);
  const int64_t want[4] = {7, 8, 16, 17};
  assert_memory_equal(iv, want, sizeof want);
  rt_assert_failed(dt_matmul(ia, ia), DT_ERR_SHAPE, "dt_matmul", "[2, 3]", "inner dimensions", NULL);
  dt_tensor *v = rt_iota(dt_cpu(), 1, SHAPE(3));
  dt_tensor *fa = rt_iota(dt_cpu(), 2, SHAPE(2, 3));
  rt_assert_failed(dt_matmul(fa, v), DT_ERR_SHAPE, "not 2-D", NULL);
  rt_free_all(ia, ib, ip, v, fa, NULL);
}

static void test_transpose_reshape(void **state) {
  (void)state;
  dt_tensor *a = rt_iota(dt_cpu(), 2, SHAPE(37, 45));
  dt_tensor *t = dt_transpose(a);
  rt_assert_shape(t, 2, SHAPE(45, 37));
  float *va = malloc(sizeof(float) * 37 * 45), *vt = malloc(sizeof(float) * 37 * 45);
  rt_read_f(a, va, 37 * 45);
  rt_read_f(t, vt, 37 * 45);
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 45; j++) assert_true(vt[j * 37 + i] == va[i * 45 + j]);
  free(va), free(vt);
  dt_tensor *ints = dt_from_ints(dt_cpu(), INTS(1, 2, 3, 4, 5, 6), 2, SHAPE(2, 3));
  dt_tensor *it = dt_transpose(ints);
  int64_t iv[6];
  rt_read_i(it, iv, 6);
  const int64_t want[6] = {1, 4, 2, 5, 3, 6};
  assert_memory_equal(iv, want, sizeof want);
  dt_tensor *three = dt_from_ints(dt_cpu(), INTS(3), 0, NULL);
  dt_tensor *big = dt_greater(ints, three), *bt = dt_transpose(big);
  assert_int_equal(dt_kind_of(bt), DT_BOOL);
  rt_read_i(bt, iv, 6);
  const int64_t bwant[6] = {0, 1, 0, 1, 0, 1};
  assert_memory_equal(iv, bwant, sizeof bwant);
  /* Reshape keeps the order of elements. */
  dt_tensor *r = dt_reshape(ints, 3, SHAPE(3, 1, 2));
  rt_assert_shape(r, 3, SHAPE(3, 1, 2));
  rt_read_i(r, iv, 6);
  for (int i = 0; i < 6; i++) assert_int_equal(iv[i], i + 1);
  dt_tensor *flat = dt_reshape(r, 1, SHAPE(6));
  dt_free(r); /* the storage stays alive for flat */
  rt_read_i(flat, iv, 6);
  assert_int_equal(iv[5], 6);
  rt_assert_failed(dt_reshape(ints, 2, SHAPE(4, 2)), DT_ERR_SHAPE, "dt_reshape", "6", "8", NULL);
  rt_assert_failed(dt_reshape(ints, 2, SHAPE(-2, -3)), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_assert_failed(dt_reshape(ints, DT_MAX_RANK + 1, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 6)),
                   DT_ERR_INVALID_ARGUMENT, NULL);
  rt_assert_failed(dt_transpose(flat), DT_ERR_SHAPE, "dt_transpose", "2-D", NULL);
  rt_free_all(a, t, ints, it, three, big, bt, flat, NULL);
}

static void test_cat(void **state) {
  (void)state;
  dt_tensor *a = dt_from_floats(dt_cpu(), FLOATS(1, 2, 3, 4), 2, SHAPE(2, 2));
  dt_tensor *b = dt_from_floats(dt_cpu(), FLOATS(5, 6), 2, SHAPE(2, 1));
  dt_tensor *c = dt_from_floats(dt_cpu(), FLOATS(7, 8, 9, 10, 11, 12), 2, SHAPE(2, 3));
  dt_tensor *list[] = {a, b, c};
  dt_tensor *r = dt_cat(3, list, 1);
  rt_assert_shape(r, 2, SHAPE(2, 6));
  float v[12];
  rt_read_f(r, v, 12);
  const float want[12] = {1, 2, 5, 7, 8, 9, 3, 4, 6, 10, 11, 12};
  assert_memory_equal(v, want, sizeof want);
  dt_tensor *r2 = dt_cat(3, list, -1);
  rt_read_f(r2, v, 12);
  assert_memory_equal(v, want, sizeof want);
  dt_tensor *rows[] = {a, a};
  dt_tensor *r0 = dt_cat(2, rows, 0);
  rt_assert_shape(r0, 2, SHAPE(4, 2));
  rt_read_f(r0, v, 8);
  const float want0[8] = {1, 2, 3, 4, 1, 2, 3, 4};
  assert_memory_equal(v, want0, sizeof want0);
  dt_tensor *one = dt_cat(1, list, 0);
  rt_assert_shape(one, 2, SHAPE(2, 2));
  rt_assert_failed(dt_cat(3, list, 0), DT_ERR_SHAPE, "dt_cat", NULL);
  rt_assert_failed(dt_cat(3, list, 2), DT_ERR_INVALID_ARGUMENT, "Axis 2", NULL);
  rt_assert_failed(dt_cat(3, list, -3), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_assert_failed(dt_cat(0, list, 0), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_assert_failed(dt_cat(-1, list, 0), DT_ERR_INVALID_ARGUMENT, NULL);
  dt_tensor *s = dt_full(dt_cpu(), 1.0f, 0, NULL);
  dt_tensor *scalars[] = {s, s};
  rt_assert_failed(dt_cat(2, scalars, 0), DT_ERR_SHAPE, NULL);
  dt_tensor *flat = dt_from_floats(dt_cpu(), FLOATS(1, 2), 1, SHAPE(2));
  dt_tensor *ranks[] = {a, flat};
  rt_assert_failed(dt_cat(2, ranks, 0), DT_ERR_SHAPE, NULL);
  dt_tensor *holes[] = {a, NULL};
  rt_assert_failed(dt_cat(2, holes, 0), DT_ERR_INVALID_ARGUMENT, "Input tensor 2", NULL);
  rt_free_all(a, b, c, r, r2, r0, one, s, flat, NULL);
}

static void test_mse_loss(void **state) {
  (void)state;
  dt_tensor *p = dt_from_floats(dt_cpu(), FLOATS(1, 2, 3, 4, 5, 6), 2, SHAPE(2, 3));
  dt_tensor *t = dt_from_floats(dt_cpu(), FLOATS(1, 1, 1, 1, 1, 1), 2, SHAPE(2, 3));
  dt_tensor *row = dt_from_floats(dt_cpu(), FLOATS(0, 2, 4), 1, SHAPE(3));
  dt_tensor *l = dt_mse_loss(p, t), *lb = dt_mse_loss(p, row);
  rt_assert_shape(l, 0, NULL);
  rt_assert_shape(lb, 0, NULL);
  float v;
  rt_read_f(l, &v, 1);
  assert_float_equal(v, (0 + 1 + 4 + 9 + 16 + 25) / 6.0, 1e-6);
  rt_read_f(lb, &v, 1);
  /* (1-0)^2 (2-2)^2 (3-4)^2 (4-0)^2 (5-2)^2 (6-4)^2 over the broadcast shape [2, 3] */
  assert_float_equal(v, (1 + 0 + 1 + 16 + 9 + 4) / 6.0, 1e-6);
  dt_tensor *bad = dt_from_floats(dt_cpu(), FLOATS(1, 2), 1, SHAPE(2));
  rt_assert_failed(dt_mse_loss(p, bad), DT_ERR_SHAPE, "dt_mse_loss", NULL);
  rt_free_all(p, t, row, l, lb, bad, NULL);
}

static void test_to_device(void **state) {
  (void)state;
  dt_tensor *a = rt_iota(dt_cpu(), 2, SHAPE(3, 4));
  dt_tensor *s0 = dt_to_device(a, dt_sim(0));
  dt_tensor *s1 = dt_to_device(s0, dt_sim(1));
  dt_tensor *same = dt_to_device(s1, dt_sim(1));
  dt_tensor *back = dt_to_device(same, dt_cpu());
  dt_tensor *copy = dt_to_device(a, dt_cpu());
  assert_true(dt_device_equal(dt_device_of(s0), dt_sim(0)));
  assert_true(dt_device_equal(dt_device_of(s1), dt_sim(1)));
  assert_true(dt_device_equal(dt_device_of(back), dt_cpu()));
  rt_assert_shape(back, 2, SHAPE(3, 4));
  assert_ptr_not_equal(copy, a);
  dt_free(a); /* the copy is independent */
  float v[12];
  rt_read_f(back, v, 12);
  for (int i = 0; i < 12; i++) assert_true(v[i] == 0.5f * (float)i - 3.0f);
  rt_read_f(copy, v, 12);
  assert_true(v[11] == 2.5f);
  dt_tensor *ints = dt_from_ints(dt_cpu(), INTS(4, 5), 1, SHAPE(2));
  dt_tensor *ints_sim = dt_to_device(ints, dt_sim(1));
  assert_int_equal(dt_kind_of(ints_sim), DT_INT);
  /* Autodiff to autodiff moves. */
  dt_tensor *ad = dt_from_floats(dt_autodiff(dt_cpu()), FLOATS(1, 2), 1, SHAPE(2));
  dt_tensor *ad_sim = dt_to_device(ad, dt_autodiff(dt_sim(1)));
  assert_non_null(ad_sim);
  assert_true(dt_device_equal(dt_device_of(ad_sim), dt_autodiff(dt_sim(1))));
  /* Errors. */
  if (!dt_backend_available(DT_BACKEND_CUDA))
    rt_assert_failed(dt_to_device(ints, dt_cuda(0)), DT_ERR_BACKEND_UNAVAILABLE, "dt_to_device",
                     "cuda:0", NULL);
  rt_assert_failed(dt_to_device(ints, dt_sim(7)), DT_ERR_BACKEND_UNAVAILABLE, "sim:7", NULL);
  rt_assert_failed(dt_to_device(ints, dt_sim(-2)), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_free_all(s0, s1, same, back, copy, ints, ints_sim, ad, ad_sim, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_broadcasting),    cmocka_unit_test(test_broadcast_4d),
      cmocka_unit_test(test_broadcast_errors), cmocka_unit_test(test_int_arithmetic),
      cmocka_unit_test(test_unary_and_scalar), cmocka_unit_test(test_where),
      cmocka_unit_test(test_matmul),           cmocka_unit_test(test_transpose_reshape),
      cmocka_unit_test(test_cat),              cmocka_unit_test(test_mse_loss),
      cmocka_unit_test(test_to_device),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
