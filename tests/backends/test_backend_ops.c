/* tests/backends/test_backend_ops.c — every operation on the device under test (argv[1]: sim:0,
 * sim:1, cuda:0 …) against the cpu result, in the manner of ggml's test-backend-ops: random
 * inputs made on cpu, moved to the device, the same public operation on both, results compared.
 * Shapes cover rank 0, empty tensors, broadcasting (both kernel shapes: long and short inner
 * runs), up to rank 8, sizes that are not multiples of any tile or block, and inputs large
 * enough for the reductions' two-pass (chunked) path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bk_util.h"

#define MAXR DT_MAX_RANK

typedef struct shape {
  int rank;
  int64_t d[MAXR];
} shape;

typedef dt_tensor *(*bin_fn)(const dt_tensor *, const dt_tensor *);
typedef dt_tensor *(*un_fn)(const dt_tensor *);

static const char *shape_str(const shape *s, char *buf, size_t n) {
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < s->rank && used < n; ++i)
    used += (size_t)snprintf(buf + used, n - used, i ? ",%lld" : "%lld", (long long)s->d[i]);
  if (used < n) snprintf(buf + used, n - used, "]");
  return buf;
}

/* Runs f on cpu inputs and on their copies on bk_dev; compares. Takes ownership of a and b. */
static void check_binary(const char *what, bin_fn f, dt_tensor *a, dt_tensor *b, double rtol,
                         double atol) {
  dt_tensor *want = f(a, b);
  if (want == NULL) fail_msg("%s on cpu: %s", what, dt_last_error());
  dt_tensor *da = bk_to(a, bk_dev), *db = bk_to(b, bk_dev);
  dt_tensor *got = f(da, db);
  if (got == NULL) fail_msg("%s on device: %s", what, dt_last_error());
  assert_true(dt_device_equal(dt_device_of(got), bk_dev));
  bk_assert_same(want, got, rtol, atol, what);
  bk_free_all(a, b, da, db, want, got, NULL);
}

static void check_unary(const char *what, un_fn f, dt_tensor *a, double rtol, double atol) {
  dt_tensor *want = f(a);
  if (want == NULL) fail_msg("%s on cpu: %s", what, dt_last_error());
  dt_tensor *da = bk_to(a, bk_dev);
  dt_tensor *got = f(da);
  if (got == NULL) fail_msg("%s on device: %s", what, dt_last_error());
  assert_true(dt_device_equal(dt_device_of(got), bk_dev));
  bk_assert_same(want, got, rtol, atol, what);
  bk_free_all(a, da, want, got, NULL);
}

/* Pairs of broadcastable shapes. */
static const shape kPairs[][2] = {
    {{0, {0}}, {0, {0}}},
    {{0, {0}}, {1, {5}}},
    {{1, {7}}, {1, {7}}},
    {{1, {0}}, {1, {0}}},
    {{2, {0, 3}}, {1, {3}}},
    {{1, {263171}}, {1, {263171}}},
    {{1, {263171}}, {0, {0}}},
    {{2, {3, 5}}, {2, {3, 5}}},
    {{3, {2, 3, 4}}, {1, {4}}},
    {{3, {2, 1, 4}}, {2, {3, 1}}},
    {{2, {5, 1}}, {2, {1, 7}}},
    {{2, {3, 200}}, {1, {200}}},
    {{2, {3, 200}}, {2, {3, 1}}},
    {{2, {300, 3}}, {1, {3}}},
    {{2, {1, 1}}, {2, {2, 2}}},
    {{3, {4, 1, 130}}, {3, {1, 5, 1}}},
    {{8, {2, 1, 2, 1, 2, 1, 2, 3}}, {8, {1, 2, 1, 2, 1, 2, 1, 3}}},
    {{4, {3, 1, 129, 1}}, {2, {129, 2}}},
};
#define NPAIRS (sizeof kPairs / sizeof kPairs[0])

static void test_binary_ops(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  static const struct {
    const char *name;
    bin_fn f;
  } ops[] = {{"add", dt_add}, {"sub", dt_sub}, {"mul", dt_mul}, {"div", dt_div}, {"greater", dt_greater}};
  bk_rng r = {1};
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; ++o) {
    for (size_t p = 0; p < NPAIRS; ++p) {
      for (int k = 0; k < 2; ++k) {
        const shape *sa = &kPairs[p][k], *sb = &kPairs[p][1 - k]; /* both orders */
        char what[256], b1[64], b2[64];
        snprintf(what, sizeof what, "%s float %s %s", ops[o].name, shape_str(sa, b1, sizeof b1),
                 shape_str(sb, b2, sizeof b2));
        check_binary(what, ops[o].f, bk_rand_floats(&r, sa->rank, sa->d, -4, 4),
                     bk_rand_floats(&r, sb->rank, sb->d, -4, 4), 1e-6, 0);
        snprintf(what, sizeof what, "%s int %s %s", ops[o].name, b1, b2);
        /* small ints, zero divisors included (int division by zero gives 0) */
        check_binary(what, ops[o].f, bk_rand_ints(&r, sa->rank, sa->d, -20, 20),
                     bk_rand_ints(&r, sb->rank, sb->d, -5, 5), 0, 0);
      }
    }
  }
}

static void test_int_edges(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  /* wrapping arithmetic and the division corner cases, exactly as cpu */
  const int64_t x[6] = {INT64_MAX, INT64_MIN, INT64_MIN, -7, 7, 0};
  const int64_t y[6] = {1, -1, 0, 2, -2, 0};
  const int64_t shape1[1] = {6};
  static const bin_fn fs[] = {dt_add, dt_sub, dt_mul, dt_div, dt_greater};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; ++i)
    check_binary("int64 edge values", fs[i], dt_from_ints(dt_cpu(), x, 1, shape1),
                 dt_from_ints(dt_cpu(), y, 1, shape1), 0, 0);
}

static void test_where(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  bk_rng r = {2};
  static const shape triples[][3] = {
      {{0, {0}}, {0, {0}}, {0, {0}}},
      {{1, {1001}}, {1, {1001}}, {1, {1001}}},
      {{2, {3, 200}}, {1, {200}}, {2, {3, 1}}},
      {{2, {300, 3}}, {0, {0}}, {1, {3}}},
      {{1, {0}}, {1, {0}}, {1, {0}}},
      {{3, {2, 1, 5}}, {2, {4, 1}}, {1, {5}}},
  };
  for (size_t t = 0; t < sizeof triples / sizeof triples[0]; ++t) {
    const shape *c = &triples[t][0], *a = &triples[t][1], *b = &triples[t][2];
    for (int kind = 0; kind < 3; ++kind) {
      dt_tensor *cond = bk_rand_bools(&r, c->rank, c->d), *x, *y;
      if (kind == 0) {
        x = bk_rand_floats(&r, a->rank, a->d, -1, 1);
        y = bk_rand_floats(&r, b->rank, b->d, -1, 1);
      } else if (kind == 1) {
        x = bk_rand_ints(&r, a->rank, a->d, -1000000000000LL, 1000000000000LL);
        y = bk_rand_ints(&r, b->rank, b->d, -100, 100);
      } else {
        x = bk_rand_bools(&r, a->rank, a->d);
        y = bk_rand_bools(&r, b->rank, b->d);
      }
      dt_tensor *want = dt_where(cond, x, y);
      if (want == NULL) fail_msg("where on cpu: %s", dt_last_error());
      dt_tensor *dc = bk_to(cond, bk_dev), *dx = bk_to(x, bk_dev), *dy = bk_to(y, bk_dev);
      dt_tensor *got = dt_where(dc, dx, dy);
      char what[256];
      snprintf(what, sizeof what, "where case %zu kind %d", t, kind);
      bk_assert_same(want, got, 0, 0, what);
      bk_free_all(cond, x, y, want, dc, dx, dy, got, NULL);
    }
  }
}

static const shape kUnaryShapes[] = {{0, {0}}, {1, {0}}, {1, {1025}}, {3, {3, 7, 11}}, {1, {100003}}};
#define NUNARY (sizeof kUnaryShapes / sizeof kUnaryShapes[0])

static void test_unary_ops(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  static const struct {
    const char *name;
    un_fn f;
    int ints;
    float lo, hi;
  } ops[] = {{"neg", dt_neg, 1, -5, 5},          {"relu", dt_relu, 1, -5, 5},
             {"exp", dt_exp, 0, -20, 20},        {"log", dt_log, 0, 0.001f, 100},
             {"sigmoid", dt_sigmoid, 0, -30, 30}, {"tanh", dt_tanh, 0, -10, 10}};
  bk_rng r = {3};
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; ++o) {
    for (size_t s = 0; s < NUNARY; ++s) {
      const shape *sh = &kUnaryShapes[s];
      char what[256], b[64];
      snprintf(what, sizeof what, "%s float %s", ops[o].name, shape_str(sh, b, sizeof b));
      check_unary(what, ops[o].f, bk_rand_floats(&r, sh->rank, sh->d, ops[o].lo, ops[o].hi), 2e-6,
                  1e-7);
      if (ops[o].ints) {
        snprintf(what, sizeof what, "%s int %s", ops[o].name, b);
        check_unary(what, ops[o].f, bk_rand_ints(&r, sh->rank, sh->d, -1000, 1000), 0, 0);
      }
    }
  }
  /* special values: NaN from log of negatives, infinities from exp and log(0) */
  const float special[6] = {-1.0f, 0.0f, 1000.0f, -1000.0f, INFINITY, -INFINITY};
  const int64_t n6[1] = {6};
  static const un_fn fs[] = {dt_neg, dt_relu, dt_exp, dt_log, dt_sigmoid, dt_tanh};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; ++i)
    check_unary("special values", fs[i], dt_from_floats(dt_cpu(), special, 1, n6), 2e-6, 0);
}

static dt_tensor *add_s(const dt_tensor *a, float s) { return dt_add_scalar(a, s); }
static dt_tensor *mul_s(const dt_tensor *a, float s) { return dt_mul_scalar(a, s); }

static void test_scalar_ops(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  dt_tensor *(*fs[2])(const dt_tensor *, float) = {add_s, mul_s};
  const float scalars[] = {2.5f, -1.25f, 0.0f, 1e20f, -3.75f};
  bk_rng r = {4};
  for (int f = 0; f < 2; ++f) {
    for (size_t s = 0; s < sizeof scalars / sizeof scalars[0]; ++s) {
      for (size_t h = 0; h < NUNARY; ++h) {
        const shape *sh = &kUnaryShapes[h];
        for (int ints = 0; ints < 2; ++ints) {
          dt_tensor *a = ints ? bk_rand_ints(&r, sh->rank, sh->d, -100000, 100000)
                              : bk_rand_floats(&r, sh->rank, sh->d, -10, 10);
          dt_tensor *want = fs[f](a, scalars[s]);
          dt_tensor *da = bk_to(a, bk_dev);
          dt_tensor *got = fs[f](da, scalars[s]);
          char what[256];
          snprintf(what, sizeof what, "%s_scalar %g on %s", f ? "mul" : "add", scalars[s],
                   ints ? "int" : "float");
          bk_assert_same(want, got, 1e-6, 0, what);
          bk_free_all(a, da, want, got, NULL);
        }
      }
    }
  }
}

static const shape kReduceShapes[] = {
    {0, {0}},          {1, {0}},          {1, {1}},         {1, {1000003}},   {2, {3, 100000}},
    {2, {100000, 3}},  {3, {2, 3, 4}},    {2, {64, 7001}},  {2, {0, 5}},      {2, {5, 0}},
    {2, {7001, 64}},   {3, {17, 3000, 5}}, {2, {2, 300}},   {4, {2, 1, 3, 1}},
};
#define NREDUCE (sizeof kReduceShapes / sizeof kReduceShapes[0])

static void check_reduce(const char *what, dt_tensor *a, int axis /* -99: full */, int mean) {
  int64_t len = axis == -99 ? dt_numel(a) : dt_dim(a, axis < 0 ? axis + dt_rank(a) : axis);
  double atol = dt_kind_of(a) == DT_FLOAT ? 2e-6 * (double)(len + 1) * bk_max_abs(a) : 0;
  if (mean && len > 0) atol /= (double)len;
  dt_tensor *want = axis == -99 ? (mean ? dt_mean(a) : dt_sum(a)) : dt_sum_dim(a, axis);
  if (want == NULL) fail_msg("%s on cpu: %s", what, dt_last_error());
  dt_tensor *da = bk_to(a, bk_dev);
  dt_tensor *got = axis == -99 ? (mean ? dt_mean(da) : dt_sum(da)) : dt_sum_dim(da, axis);
  bk_assert_same(want, got, 1e-5, atol, what);
  bk_free_all(a, da, want, got, NULL);
}

static void test_reductions(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  bk_rng r = {5};
  for (size_t s = 0; s < NREDUCE; ++s) {
    const shape *sh = &kReduceShapes[s];
    char what[256], b[64];
    shape_str(sh, b, sizeof b);
    for (int ints = 0; ints < 2; ++ints) {
      const char *k = ints ? "int" : "float";
#define MAKE() (ints ? bk_rand_ints(&r, sh->rank, sh->d, -1000000, 1000000) \
                     : bk_rand_floats(&r, sh->rank, sh->d, -1, 1))
      snprintf(what, sizeof what, "sum %s %s", k, b);
      check_reduce(what, MAKE(), -99, 0);
      if (!ints) {
        snprintf(what, sizeof what, "mean %s %s", k, b);
        check_reduce(what, MAKE(), -99, 1);
      }
      for (int axis = 0; axis < sh->rank; ++axis) {
        snprintf(what, sizeof what, "sum_dim(%d) %s %s", axis, k, b);
        check_reduce(what, MAKE(), axis, 0);
      }
      if (sh->rank > 0) {
        snprintf(what, sizeof what, "sum_dim(-1) %s %s", k, b);
        check_reduce(what, MAKE(), -1, 0);
      }
#undef MAKE
    }
  }
  /* int sums wrap exactly as on cpu */
  const int64_t big[4] = {INT64_MAX, INT64_MAX, 5, INT64_MIN};
  const int64_t n4[1] = {4};
  check_reduce("int sum that wraps", dt_from_ints(dt_cpu(), big, 1, n4), -99, 0);
}

static void test_matmul(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  static const int64_t mkn[][3] = {{1, 1, 1},    {3, 5, 7},     {64, 64, 64},  {65, 33, 129},
                                   {128, 256, 64}, {200, 1, 300}, {1, 300, 1},  {0, 5, 3},
                                   {4, 0, 6},    {5, 3, 0},     {257, 129, 131}, {130, 513, 67},
                                   /* k and n multiples of 4 (whole 16-byte load groups), edge
                                      tiles in m, n and k */
                                   {67, 64, 68}, {1, 4, 4},      {129, 12, 260}, {200, 136, 4}};
  bk_rng r = {6};
  for (size_t i = 0; i < sizeof mkn / sizeof mkn[0]; ++i) {
    const int64_t sa[2] = {mkn[i][0], mkn[i][1]}, sb[2] = {mkn[i][1], mkn[i][2]};
    char what[256];
    snprintf(what, sizeof what, "matmul float %lldx%lldx%lld", (long long)mkn[i][0],
             (long long)mkn[i][1], (long long)mkn[i][2]);
    check_binary(what, dt_matmul, bk_rand_floats(&r, 2, sa, -1, 1), bk_rand_floats(&r, 2, sb, -1, 1),
                 1e-5, 2e-6 * (double)(mkn[i][1] + 1));
    snprintf(what, sizeof what, "matmul int %lldx%lldx%lld", (long long)mkn[i][0],
             (long long)mkn[i][1], (long long)mkn[i][2]);
    check_binary(what, dt_matmul, bk_rand_ints(&r, 2, sa, -50, 50), bk_rand_ints(&r, 2, sb, -50, 50),
                 0, 0);
  }
}

/* DT_MATMUL_FAST: TF32 on cuda (within TF32's rounding of the exact cpu product), exact
   elsewhere; the setting reads back and is process-wide. */
static void test_matmul_fast(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  assert_int_equal(dt_get_matmul_precision(), DT_MATMUL_EXACT);
  static const int64_t mkn[][3] = {{3, 5, 7}, {65, 33, 129}, {130, 513, 67}, {256, 256, 256}};
  bk_rng r = {7};
  for (size_t i = 0; i < sizeof mkn / sizeof mkn[0]; ++i) {
    const int64_t sa[2] = {mkn[i][0], mkn[i][1]}, sb[2] = {mkn[i][1], mkn[i][2]};
    dt_tensor *a = bk_rand_floats(&r, 2, sa, -1, 1), *b = bk_rand_floats(&r, 2, sb, -1, 1);
    dt_tensor *want = dt_matmul(a, b); /* exact, on cpu */
    dt_tensor *da = bk_to(a, bk_dev), *db = bk_to(b, bk_dev);
    dt_set_matmul_precision(DT_MATMUL_FAST);
    assert_int_equal(dt_get_matmul_precision(), DT_MATMUL_FAST);
    dt_tensor *got = dt_matmul(da, db);
    dt_set_matmul_precision(DT_MATMUL_EXACT);
    if (got == NULL) fail_msg("fast matmul on device: %s", dt_last_error());
    char what[128];
    snprintf(what, sizeof what, "fast matmul float %lldx%lldx%lld", (long long)mkn[i][0],
             (long long)mkn[i][1], (long long)mkn[i][2]);
    const int tf32 = bk_dev.backend == DT_BACKEND_CUDA;
    bk_assert_same(want, got, tf32 ? 1e-2 : 1e-5,
                   (tf32 ? 2e-3 : 2e-6) * (double)(mkn[i][1] + 1), what);
    bk_free_all(a, b, da, db, want, got, NULL);
  }
  assert_int_equal(dt_get_matmul_precision(), DT_MATMUL_EXACT);
}

static void test_transpose_and_reshape(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  static const int64_t shapes[][2] = {{0, 3}, {3, 0}, {1, 1}, {1, 37}, {37, 1},
                                      {33, 65}, {1000, 3}, {64, 64}, {129, 257}};
  bk_rng r = {7};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    for (int kind = 0; kind < 3; ++kind) {
      dt_tensor *a = kind == 0   ? bk_rand_floats(&r, 2, shapes[i], -1, 1)
                     : kind == 1 ? bk_rand_ints(&r, 2, shapes[i], INT64_MIN / 2, INT64_MAX / 2)
                                 : bk_rand_bools(&r, 2, shapes[i]);
      char what[256];
      snprintf(what, sizeof what, "transpose kind %d %lldx%lld", kind, (long long)shapes[i][0],
               (long long)shapes[i][1]);
      check_unary(what, dt_transpose, a, 0, 0);
    }
  }
  /* a reshaped view on the device computes like one on cpu */
  const int64_t s6[1] = {24}, s234[3] = {2, 3, 4};
  dt_tensor *a = bk_rand_floats(&r, 1, s6, -1, 1);
  dt_tensor *da = bk_to(a, bk_dev);
  dt_tensor *va = dt_reshape(a, 3, s234), *vda = dt_reshape(da, 3, s234);
  dt_tensor *want = dt_sum_dim(va, 1), *got = dt_sum_dim(vda, 1);
  bk_assert_same(want, got, 1e-6, 1e-6, "sum_dim of a reshaped view");
  bk_free_all(a, da, va, vda, want, got, NULL);
}

static void test_cat(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  bk_rng r = {8};
  /* parts of [2, x, 3] along axis 1, [x, 5] along 0, [4, x] along 1 (short runs), rank 1 */
  static const struct {
    int rank, axis;
    int64_t base[3];
    int64_t sizes[4];
    int nparts;
  } cases[] = {
      {3, 1, {2, 0, 3}, {1, 4, 0, 2}, 4},
      {2, 0, {0, 5}, {3, 1, 7, 0}, 4},
      {2, 1, {4, 0}, {1, 2, 1, 300}, 4},
      {1, 0, {0}, {1000, 3, 129, 0}, 4},
      {3, 2, {2, 3, 0}, {1, 1, 1, 1}, 4},
      {3, 0, {0, 2, 2}, {5, 0, 0, 0}, 1},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    for (int kind = 0; kind < 3; ++kind) {
      dt_tensor *parts[4], *dparts[4];
      for (int p = 0; p < cases[c].nparts; ++p) {
        int64_t sh[3];
        memcpy(sh, cases[c].base, sizeof sh);
        sh[cases[c].axis] = cases[c].sizes[p];
        parts[p] = kind == 0   ? bk_rand_floats(&r, cases[c].rank, sh, -1, 1)
                   : kind == 1 ? bk_rand_ints(&r, cases[c].rank, sh, -99, 99)
                               : bk_rand_bools(&r, cases[c].rank, sh);
        dparts[p] = bk_to(parts[p], bk_dev);
      }
      dt_tensor *want = dt_cat(cases[c].nparts, parts, cases[c].axis);
      if (want == NULL) fail_msg("cat on cpu: %s", dt_last_error());
      dt_tensor *got = dt_cat(cases[c].nparts, dparts, cases[c].axis);
      char what[256];
      snprintf(what, sizeof what, "cat case %zu kind %d", c, kind);
      bk_assert_same(want, got, 0, 0, what);
      for (int p = 0; p < cases[c].nparts; ++p) bk_free_all(parts[p], dparts[p], NULL);
      bk_free_all(want, got, NULL);
    }
  }
}

static void test_mse(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  bk_rng r = {9};
  for (size_t p = 0; p < NPAIRS; ++p) {
    const shape *sa = &kPairs[p][0], *sb = &kPairs[p][1];
    char what[256], b1[64], b2[64];
    snprintf(what, sizeof what, "mse_loss %s %s", shape_str(sa, b1, sizeof b1),
             shape_str(sb, b2, sizeof b2));
    check_binary(what, dt_mse_loss, bk_rand_floats(&r, sa->rank, sa->d, -2, 2),
                 bk_rand_floats(&r, sb->rank, sb->d, -2, 2), 1e-5, 1e-6);
  }
}

static void test_creation(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  static const shape shapes[] = {{0, {0}}, {1, {0}}, {2, {3, 1001}}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const shape *sh = &shapes[s];
    for (int kind = DT_FLOAT; kind <= DT_BOOL; ++kind) {
      dt_tensor *w0 = dt_zeros(dt_cpu(), (dt_kind)kind, sh->rank, sh->d);
      dt_tensor *g0 = dt_zeros(bk_dev, (dt_kind)kind, sh->rank, sh->d);
      bk_assert_same(w0, g0, 0, 0, "zeros");
      dt_tensor *w1 = dt_ones(dt_cpu(), (dt_kind)kind, sh->rank, sh->d);
      dt_tensor *g1 = dt_ones(bk_dev, (dt_kind)kind, sh->rank, sh->d);
      bk_assert_same(w1, g1, 0, 0, "ones");
      bk_free_all(w0, g0, w1, g1, NULL);
    }
    dt_tensor *wf = dt_full(dt_cpu(), -2.75f, sh->rank, sh->d);
    dt_tensor *gf = dt_full(bk_dev, -2.75f, sh->rank, sh->d);
    bk_assert_same(wf, gf, 0, 0, "full");
    dt_tensor *wr = dt_randn(dt_cpu(), 42, sh->rank, sh->d);
    dt_tensor *gr = dt_randn(bk_dev, 42, sh->rank, sh->d);
    bk_assert_same(wr, gr, 0, 0, "randn with one seed");
    bk_free_all(wf, gf, wr, gr, NULL);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_creation),  cmocka_unit_test(test_binary_ops),
      cmocka_unit_test(test_int_edges), cmocka_unit_test(test_where),
      cmocka_unit_test(test_unary_ops), cmocka_unit_test(test_scalar_ops),
      cmocka_unit_test(test_reductions), cmocka_unit_test(test_matmul),
      cmocka_unit_test(test_matmul_fast),
      cmocka_unit_test(test_transpose_and_reshape), cmocka_unit_test(test_cat),
      cmocka_unit_test(test_mse),
  };
  return bk_main(argc, argv, "backend ops", tests, sizeof tests / sizeof tests[0]);
}
