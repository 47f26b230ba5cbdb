/* tests/hostile/test_hostile_runtime.c — libdt given what a buggy program gives it: NULL, freed
 * and foreign handles to every function that takes a tensor, freeing twice, shapes and counts
 * that overflow or are negative, axes and ranks at the ends of int, devices with out-of-range
 * fields, and allocation failure injected at every site of transfers and autodiff calls. Each
 * must be a clear error with a status (return mode), never a crash, and leave nothing behind. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "dt/dt.h"
#include "internal.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static int64_t g_tensors0, g_storages0; /* live objects when a test started */

static int setup(void **state) {
  (void)state;
  dt_set_error_mode(DT_ERRORS_RETURN);
  g_tensors0 = dt__live_tensors();
  g_storages0 = dt__live_storages();
  return 0;
}

static int teardown(void **state) {
  (void)state;
  assert_int_equal(dt__live_tensors(), g_tensors0);
  assert_int_equal(dt__live_storages(), g_storages0);
  return 0;
}

/* The last call failed with status st, naming `fragment` in its message and a rule id. */
static void assert_failed_with(dt_status st, const char *fragment) {
  if (dt_last_status() != st || strstr(dt_last_error(), fragment) == NULL ||
      strstr(dt_last_error(), "[") == NULL)
    fail_msg("expected status %d with \"%s\", got %d: %s", (int)st, fragment,
             (int)dt_last_status(), dt_last_error());
}

/* ---- every tensor-taking function with a bad handle in each tensor position ---- */

typedef struct handles {
  dt_tensor *ok;   /* a live float cpu tensor [2, 2] */
  dt_tensor *okad; /* a live tracked autodiff<cpu> float tensor [2, 2] */
  dt_tensor *bad;  /* the handle under test */
} handles;

/* Calls one function with `bad` somewhere; returns 1 when it reported failure by its result. */
typedef int (*bad_call)(const handles *h);

#define TENSOR_CALL(name, expr)               \
  static int name(const handles *h) {         \
    dt_tensor *r = (expr);                    \
    if (r != NULL) dt_free(r);                \
    return r == NULL;                         \
  }
TENSOR_CALL(c_add_l, dt_add(h->bad, h->ok))
TENSOR_CALL(c_add_r, dt_add(h->ok, h->bad))
TENSOR_CALL(c_sub, dt_sub(h->bad, h->ok))
TENSOR_CALL(c_mul, dt_mul(h->ok, h->bad))
TENSOR_CALL(c_div, dt_div(h->bad, h->bad))
TENSOR_CALL(c_matmul, dt_matmul(h->ok, h->bad))
TENSOR_CALL(c_add_scalar, dt_add_scalar(h->bad, 1.0f))
TENSOR_CALL(c_mul_scalar, dt_mul_scalar(h->bad, 2.0f))
TENSOR_CALL(c_neg, dt_neg(h->bad))
TENSOR_CALL(c_exp, dt_exp(h->bad))
TENSOR_CALL(c_log, dt_log(h->bad))
TENSOR_CALL(c_relu, dt_relu(h->bad))
TENSOR_CALL(c_sigmoid, dt_sigmoid(h->bad))
TENSOR_CALL(c_tanh, dt_tanh(h->bad))
TENSOR_CALL(c_sum, dt_sum(h->bad))
TENSOR_CALL(c_mean, dt_mean(h->bad))
TENSOR_CALL(c_sum_dim, dt_sum_dim(h->bad, 0))
TENSOR_CALL(c_reshape, dt_reshape(h->bad, 1, SHAPE(4)))
TENSOR_CALL(c_transpose, dt_transpose(h->bad))
TENSOR_CALL(c_greater, dt_greater(h->ok, h->bad))
TENSOR_CALL(c_where_c, dt_where(h->bad, h->ok, h->ok))
TENSOR_CALL(c_where_b, dt_where(h->ok, h->ok, h->bad))
TENSOR_CALL(c_mse, dt_mse_loss(h->ok, h->bad))
TENSOR_CALL(c_to_device, dt_to_device(h->bad, dt_sim(0)))
TENSOR_CALL(c_from_inner, dt_from_inner(dt_autodiff(dt_cpu()), h->bad))
TENSOR_CALL(c_inner, dt_inner(h->bad))
TENSOR_CALL(c_detach, dt_detach(h->bad))
TENSOR_CALL(c_grad, dt_grad(h->bad))
TENSOR_CALL(c_add_ad, dt_add(h->okad, h->bad))
static int c_cat(const handles *h) {
  dt_tensor *ts[] = {h->ok, h->bad, h->ok};
  dt_tensor *r = dt_cat(3, ts, 0);
  dt_free(r);
  return r == NULL;
}
static int c_require_grad(const handles *h) { return dt_require_grad(h->bad) == NULL; }
static int c_backward(const handles *h) { return dt_backward(h->bad) != 0; }
static int c_read_floats(const handles *h) {
  float out[4];
  return dt_read_floats(h->bad, out, 4) != 0;
}
static int c_read_ints(const handles *h) {
  int64_t out[4];
  return dt_read_ints(h->bad, out, 4) != 0;
}
static int c_rank(const handles *h) { return dt_rank(h->bad) < 0; }
static int c_dim(const handles *h) { return dt_dim(h->bad, 0) < 0; }
static int c_numel(const handles *h) { return dt_numel(h->bad) < 0; }
static int c_kind(const handles *h) {
  (void)dt_kind_of(h->bad);
  return 1; /* no error value: the status says it */
}
static int c_device(const handles *h) {
  (void)dt_device_of(h->bad);
  return 1;
}

static const struct {
  const char *name;
  bad_call fn;
} k_calls[] = {
    {"dt_add(bad, ok)", c_add_l}, {"dt_add(ok, bad)", c_add_r}, {"dt_sub", c_sub},
    {"dt_mul", c_mul}, {"dt_div", c_div}, {"dt_matmul", c_matmul},
    {"dt_add_scalar", c_add_scalar}, {"dt_mul_scalar", c_mul_scalar}, {"dt_neg", c_neg},
    {"dt_exp", c_exp}, {"dt_log", c_log}, {"dt_relu", c_relu}, {"dt_sigmoid", c_sigmoid},
    {"dt_tanh", c_tanh}, {"dt_sum", c_sum}, {"dt_mean", c_mean}, {"dt_sum_dim", c_sum_dim},
    {"dt_reshape", c_reshape}, {"dt_transpose", c_transpose}, {"dt_greater", c_greater},
    {"dt_where(cond)", c_where_c}, {"dt_where(b)", c_where_b}, {"dt_mse_loss", c_mse},
    {"dt_to_device", c_to_device}, {"dt_from_inner", c_from_inner}, {"dt_inner", c_inner},
    {"dt_detach", c_detach}, {"dt_grad", c_grad}, {"dt_add(autodiff, bad)", c_add_ad},
    {"dt_cat", c_cat}, {"dt_require_grad", c_require_grad}, {"dt_backward", c_backward},
    {"dt_read_floats", c_read_floats}, {"dt_read_ints", c_read_ints}, {"dt_rank", c_rank},
    {"dt_dim", c_dim}, {"dt_numel", c_numel}, {"dt_kind_of", c_kind},
    {"dt_device_of", c_device},
};

static void every_call_rejects(handles *h, const char *fragment) {
  for (size_t i = 0; i < sizeof k_calls / sizeof k_calls[0]; i++) {
    int reported = k_calls[i].fn(h);
    if (!reported || dt_last_status() != DT_ERR_INVALID_ARGUMENT ||
        strstr(dt_last_error(), fragment) == NULL)
      fail_msg("%s: expected invalid-argument naming \"%s\", got result %s, status %d: %s",
               k_calls[i].name, fragment, reported ? "failed" : "success",
               (int)dt_last_status(), dt_last_error());
  }
}

static void make_handles(handles *h) {
  h->ok = dt_ones(dt_cpu(), DT_FLOAT, 2, SHAPE(2, 2));
  h->okad = dt_require_grad(dt_ones(dt_autodiff(dt_cpu()), DT_FLOAT, 2, SHAPE(2, 2)));
  assert_non_null(h->ok);
  assert_non_null(h->okad);
}

static void test_null_handles(void **state) {
  (void)state;
  handles h = {0};
  make_handles(&h);
  h.bad = NULL;
  every_call_rejects(&h, "NULL");
  dt_free(h.ok);
  dt_free(h.okad);
}

static void test_freed_handles(void **state) {
  (void)state;
  handles h = {0};
  make_handles(&h);
  h.bad = dt_ones(dt_sim(0), DT_FLOAT, 2, SHAPE(2, 2));
  dt_free(h.bad);
  every_call_rejects(&h, "freed");
  /* A tracked tensor freed while its graph lives on. */
  dt_tensor *y = dt_mul(h.okad, h.okad);
  assert_non_null(y);
  h.bad = y;
  dt_free(y);
  every_call_rejects(&h, "freed");
  /* Freeing twice: reported, not a double free. */
  dt_free(h.bad);
  assert_failed_with(DT_ERR_INVALID_ARGUMENT, "freed");
  dt_free(h.ok);
  dt_free(h.okad);
}

/* A pointer to memory that was never a tensor (zeroed, or random-looking bytes). */
static void test_foreign_pointers(void **state) {
  (void)state;
  handles h = {0};
  make_handles(&h);
  union {
    dt_tensor t;
    unsigned char bytes[sizeof(dt_tensor)];
  } *fake = calloc(1, sizeof *fake);
  assert_non_null(fake);
  h.bad = &fake->t;
  every_call_rejects(&h, "not a live dt tensor");
  for (size_t i = 0; i < sizeof fake->bytes; i++) fake->bytes[i] = (unsigned char)(i * 37 + 11);
  every_call_rejects(&h, "not a live dt tensor");
  dt_free(h.bad);
  assert_failed_with(DT_ERR_INVALID_ARGUMENT, "not a live dt tensor");
  free(fake);
  dt_free(h.ok);
  dt_free(h.okad);
}

/* ---- shapes, counts, axes, ranks and devices out of range ---- */

static void expect_create_fails(dt_tensor *t, const char *fragment) {
  if (t != NULL) {
    dt_free(t);
    fail_msg("creation with a bad shape succeeded (expected \"%s\")", fragment);
  }
  assert_failed_with(DT_ERR_INVALID_ARGUMENT, fragment);
}

static void test_overflowing_shapes(void **state) {
  (void)state;
  expect_create_fails(dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(INT64_MAX, 2)), "overflows");
  expect_create_fails(dt_zeros(dt_cpu(), DT_INT, 2, SHAPE((int64_t)1 << 32, (int64_t)1 << 32)),
                      "overflows");
  expect_create_fails(dt_ones(dt_sim(0), DT_BOOL, 3, SHAPE(1 << 30, 1 << 30, 1 << 30)), "overflows");
  expect_create_fails(dt_full(dt_cpu(), 1.0f, 8, SHAPE(256, 256, 256, 256, 256, 256, 256, 256)),
                      "overflows");
  /* Bytes overflow even where the element count would not: 2^61 eight-byte ints. */
  expect_create_fails(dt_zeros(dt_cpu(), DT_INT, 1, SHAPE((int64_t)1 << 61)), "overflows");
  expect_create_fails(dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(3, -1)), "negative");
  expect_create_fails(dt_zeros(dt_cpu(), DT_FLOAT, 1, SHAPE(INT64_MIN)), "negative");
  expect_create_fails(dt_randn(dt_cpu(), 1, -1, SHAPE(1)), "Rank");
  expect_create_fails(dt_randn(dt_cpu(), 1, INT_MIN, SHAPE(1)), "Rank");
  expect_create_fails(dt_randn(dt_cpu(), 1, INT_MAX, NULL), "Rank");
  expect_create_fails(dt_zeros(dt_cpu(), DT_FLOAT, 9, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1)), "Rank");
  expect_create_fails(dt_zeros(dt_cpu(), DT_FLOAT, 2, NULL), "NULL");
  expect_create_fails(dt_from_floats(dt_cpu(), NULL, 1, SHAPE(4)), "NULL");
  expect_create_fails(dt_from_ints(dt_sim(1), NULL, 2, SHAPE(2, 2)), "NULL");
  expect_create_fails(dt_zeros(dt_cpu(), (dt_kind)0, 1, SHAPE(1)), "kind");
  expect_create_fails(dt_zeros(dt_cpu(), (dt_kind)-7, 1, SHAPE(1)), "kind");

  dt_tensor *t = dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(2, 3));
  assert_non_null(t);
  expect_create_fails(dt_reshape(t, 2, SHAPE(INT64_MAX, 2)), "overflows");
  expect_create_fails(dt_reshape(t, 2, SHAPE(-2, -3)), "negative");
  expect_create_fails(dt_reshape(t, 9, SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 6)), "Rank");
  expect_create_fails(dt_reshape(t, 1, NULL), "NULL");
  /* Axes at the ends of int. */
  const int axes[] = {INT_MIN, INT_MIN + 1, -3, 2, INT_MAX};
  for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++) {
    assert_int_equal(dt_dim(t, axes[i]), -1);
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
    assert_null(dt_sum_dim(t, axes[i]));
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
    dt_tensor *ts[] = {t, t};
    assert_null(dt_cat(2, ts, axes[i]));
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  }
  /* Counts: negative, zero, INT_MIN; capacities too small or negative. */
  dt_tensor *ts[] = {t, t};
  assert_null(dt_cat(0, ts, 0));
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_null(dt_cat(-1, ts, 0));
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_null(dt_cat(INT_MIN, ts, 0));
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_null(dt_cat(3, NULL, 0));
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  float out[6];
  const int64_t caps[] = {-1, INT64_MIN, 0, 5};
  for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
    assert_int_not_equal(dt_read_floats(t, out, caps[i]), 0);
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  }
  assert_int_not_equal(dt_read_floats(t, NULL, 6), 0);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  dt_free(t);
}

/* Devices built by hand with fields out of range, and ordinals at the ends of int. */
static void test_devices_out_of_range(void **state) {
  (void)state;
  const dt_device bad[] = {{(dt_backend)0, 0, 0}, {(dt_backend)99, 0, 0}, {(dt_backend)-1, 0, 0},
                           {DT_BACKEND_CPU, -1, 0}, {DT_BACKEND_SIM, INT_MIN, 0},
                           {DT_BACKEND_SIM, 0, 7}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char name[64];
    (void)dt_device_name(bad[i], name, sizeof name); /* any text, but NUL-terminated */
    assert_true(memchr(name, '\0', sizeof name) != NULL);
    dt_tensor *t = dt_zeros(bad[i], DT_FLOAT, 1, SHAPE(2));
    if (t != NULL) {
      /* {SIM, 0, 7}: a non-zero autodiff flag is autodiff; that device is valid. */
      assert_true(bad[i].autodiff != 0 && bad[i].ordinal == 0);
      dt_free(t);
      continue;
    }
    assert_true(dt_last_status() == DT_ERR_INVALID_ARGUMENT ||
                dt_last_status() == DT_ERR_BACKEND_UNAVAILABLE);
  }
  char tiny[1];
  (void)dt_device_name(dt_sim(1), tiny, sizeof tiny);
  assert_int_equal(tiny[0], '\0');
  (void)dt_device_name(dt_sim(1), NULL, 0);
  const int ordinals[] = {2, 1000, INT_MAX};
  for (size_t i = 0; i < sizeof ordinals / sizeof ordinals[0]; i++) {
    assert_null(dt_ones(dt_sim(ordinals[i]), DT_FLOAT, 0, NULL));
    assert_failed_with(DT_ERR_BACKEND_UNAVAILABLE, "sim");
    assert_null(dt_ones(dt_autodiff(dt_sim(ordinals[i])), DT_FLOAT, 0, NULL));
    assert_failed_with(DT_ERR_BACKEND_UNAVAILABLE, "sim");
  }
  assert_null(dt_ones(dt_sim(-1), DT_FLOAT, 0, NULL));
  assert_failed_with(DT_ERR_INVALID_ARGUMENT, "");
  assert_null(dt_ones(dt_cuda(INT_MAX), DT_FLOAT, 0, NULL));
  assert_true(dt_last_status() == DT_ERR_BACKEND_UNAVAILABLE);
  dt_tensor *t = dt_ones(dt_cpu(), DT_FLOAT, 1, SHAPE(3));
  assert_null(dt_to_device(t, dt_sim(INT_MAX)));
  assert_failed_with(DT_ERR_BACKEND_UNAVAILABLE, "sim");
  assert_null(dt_to_device(t, (dt_device){(dt_backend)42, 0, 0}));
  assert_true(dt_last_status() == DT_ERR_INVALID_ARGUMENT ||
              dt_last_status() == DT_ERR_BACKEND_UNAVAILABLE);
  dt_free(t);
}

/* ---- allocation failure at every site of transfers and autodiff calls ---- */

typedef dt_status (*alloc_scenario)(void);

/* dt_require_grad of a creation that may have failed (keeping the creation's status). When
   dt_require_grad fails, t is still the caller's: freed here, the status kept. */
static dt_tensor *leaf(dt_tensor *t) {
  if (t == NULL || dt_require_grad(t) != NULL) return t;
  dt_status st = dt_last_status();
  dt_free(t);
  assert_int_equal(dt_last_status(), st); /* dt_free never resets the status */
  return NULL;
}

static dt_status status_of(dt_tensor *t) {
  dt_status st = t ? DT_OK : dt_last_status();
  dt_free(t);
  return st;
}

static dt_status sc_to_sim(void) {
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 2, SHAPE(3, 4));
  if (a == NULL) return dt_last_status();
  dt_tensor *b = dt_to_device(a, dt_sim(1));
  dt_tensor *c = b ? dt_to_device(b, dt_sim(0)) : NULL;
  dt_tensor *d = c ? dt_to_device(c, dt_cpu()) : NULL;
  dt_status st = d ? DT_OK : dt_last_status();
  dt_free(a);
  dt_free(b);
  dt_free(c);
  dt_free(d);
  return st;
}

static dt_status sc_autodiff_move(void) {
  dt_tensor *w = leaf(dt_randn(dt_autodiff(dt_cpu()), 3, 1, SHAPE(5)));
  if (w == NULL) return dt_last_status();
  dt_tensor *m = dt_to_device(w, dt_autodiff(dt_sim(0)));
  dt_tensor *loss = m ? dt_sum(m) : NULL;
  dt_status st = loss ? (dt_backward(loss) == 0 ? DT_OK : dt_last_status()) : dt_last_status();
  dt_tensor *g = st == DT_OK ? dt_grad(w) : NULL;
  if (st == DT_OK && g == NULL) st = dt_last_status();
  dt_free(g);
  dt_free(loss);
  dt_free(m);
  dt_free(w);
  return st;
}

static dt_status sc_inner_outer(void) {
  dt_tensor *p = dt_ones(dt_sim(0), DT_FLOAT, 1, SHAPE(4));
  if (p == NULL) return dt_last_status();
  dt_tensor *ad = dt_from_inner(dt_autodiff(dt_sim(0)), p);
  dt_tensor *in = ad ? dt_inner(ad) : NULL;
  dt_tensor *det = in ? dt_detach(ad) : NULL;
  dt_status st = det ? DT_OK : dt_last_status();
  dt_free(det);
  dt_free(in);
  dt_free(ad);
  dt_free(p);
  return st;
}

static dt_status sc_cat_where_autodiff(void) {
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *a = leaf(dt_randn(ad, 1, 2, SHAPE(2, 3)));
  dt_tensor *b = a ? leaf(dt_randn(ad, 2, 2, SHAPE(2, 3))) : NULL;
  if (b == NULL) {
    dt_status st = dt_last_status();
    dt_free(a);
    return st;
  }
  dt_tensor *ts[] = {a, b, a};
  dt_tensor *c = dt_cat(3, ts, 1);
  dt_tensor *cond = c ? dt_greater(a, b) : NULL;
  dt_tensor *w = cond ? dt_where(cond, a, b) : NULL;
  dt_tensor *s1 = w ? dt_mean(c) : NULL;
  dt_tensor *s2 = s1 ? dt_mse_loss(w, a) : NULL;
  dt_tensor *loss = s2 ? dt_add(s1, s2) : NULL;
  dt_status st = loss ? (dt_backward(loss) == 0 ? DT_OK : dt_last_status()) : dt_last_status();
  dt_tensor *g = st == DT_OK ? dt_grad(b) : NULL;
  if (st == DT_OK && g == NULL) st = dt_last_status();
  dt_free(g);
  dt_free(loss);
  dt_free(s2);
  dt_free(s1);
  dt_free(w);
  dt_free(cond);
  dt_free(c);
  dt_free(b);
  dt_free(a);
  return st;
}

static dt_status sc_sim_ops(void) {
  dt_tensor *a = dt_randn(dt_sim(1), 5, 2, SHAPE(4, 4));
  if (a == NULL) return dt_last_status();
  dt_tensor *t = dt_transpose(a);
  dt_tensor *m = t ? dt_matmul(a, t) : NULL;
  dt_tensor *r = m ? dt_reshape(m, 1, SHAPE(16)) : NULL;
  dt_tensor *s = r ? dt_sum_dim(m, -1) : NULL;
  dt_status st = status_of(s);
  dt_free(r);
  dt_free(m);
  dt_free(t);
  dt_free(a);
  return st;
}

static void inject_every_site(const char *name, alloc_scenario sc) {
  int64_t t0 = dt__live_tensors(), s0 = dt__live_storages();
  int sites = 0;
  for (int64_t n = 1; n < 2000; n++) {
    dt__fail_alloc_after(n);
    dt_status st = sc();
    dt__fail_alloc_after(0);
    if (dt__live_tensors() != t0 || dt__live_storages() != s0)
      fail_msg("%s: allocation %lld failed: %lld tensors and %lld storages left behind", name,
               (long long)n, (long long)(dt__live_tensors() - t0),
               (long long)(dt__live_storages() - s0));
    if (st == DT_OK) {
      printf("%s: %d allocation sites failed in turn, each out-of-memory and leak-free\n", name,
             sites);
      assert_true(sites >= 3);
      return;
    }
    if (st != DT_ERR_OUT_OF_MEMORY)
      fail_msg("%s: allocation %lld failed: status %d (%s), not out-of-memory", name,
               (long long)n, (int)st, dt_last_error());
    sites++;
  }
  fail_msg("%s: never succeeded", name);
}

static void test_allocation_failure_everywhere(void **state) {
  (void)state;
  inject_every_site("cpu/sim transfers", sc_to_sim);
  inject_every_site("autodiff move and backward", sc_autodiff_move);
  inject_every_site("from_inner/inner/detach", sc_inner_outer);
  inject_every_site("autodiff cat/where/mean/mse backward", sc_cat_where_autodiff);
  inject_every_site("sim matmul/reshape/sum_dim", sc_sim_ops);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_null_handles, setup, teardown),
      cmocka_unit_test_setup_teardown(test_freed_handles, setup, teardown),
      cmocka_unit_test_setup_teardown(test_foreign_pointers, setup, teardown),
      cmocka_unit_test_setup_teardown(test_overflowing_shapes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_devices_out_of_range, setup, teardown),
      cmocka_unit_test_setup_teardown(test_allocation_failure_everywhere, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
