/* tests/backends/test_backend_rules.c — every tag rule across backends, with the device under
 * test X (argv[1]: sim:0, or cuda:0 on a GPU machine) and a second device of its backend X':
 * cpu with X is backend-mismatch, X with X' device-mismatch, autodiff<cpu> with autodiff<X>
 * autodiff-inner-backend, plain with autodiff autodiff-expected, and so on, for every operation
 * with several tensor operands; plus backend-unavailable for devices that do not exist, and for
 * cuda where the machine has no GPU (with the reason in the message). */
#include <stdio.h>
#include <string.h>

#include "bk_util.h"

/* A second device of bk_dev's backend, if there is one. */
static int other_ordinal(dt_device *o) {
  *o = bk_dev;
  o->ordinal = bk_dev.ordinal == 0 ? 1 : 0;
  dt_tensor *t = dt_zeros(*o, DT_FLOAT, 0, NULL);
  int ok = t != NULL;
  dt_free(t);
  return ok;
}

typedef dt_tensor *(*bin_fn)(const dt_tensor *, const dt_tensor *);

static dt_tensor *cat2(const dt_tensor *a, const dt_tensor *b) {
  dt_tensor *ts[2] = {(dt_tensor *)a, (dt_tensor *)b};
  return dt_cat(2, ts, 0);
}
static dt_tensor *where_b(const dt_tensor *a, const dt_tensor *b) {
  /* the condition lives with a */
  dt_tensor *c = dt_greater(a, a);
  if (c == NULL) return NULL;
  dt_tensor *r = dt_where(c, a, b);
  dt_free(c);
  return r;
}

static const struct {
  const char *name;
  bin_fn f;
} kOps[] = {{"dt_add", dt_add},         {"dt_sub", dt_sub},         {"dt_mul", dt_mul},
            {"dt_div", dt_div},         {"dt_matmul", dt_matmul},   {"dt_greater", dt_greater},
            {"dt_mse_loss", dt_mse_loss}, {"dt_cat", cat2},         {"dt_where", where_b}};
#define NOPS (sizeof kOps / sizeof kOps[0])

/* Asserts that every operation on (a on da, b on db) fails with `rule`, naming both devices. */
static void expect_rule(dt_device da, dt_device db, dt_kind ka, dt_kind kb, dt_status rule) {
  const int64_t shape[2] = {2, 2};
  dt_tensor *a = ka == DT_FLOAT ? dt_ones(da, DT_FLOAT, 2, shape) : dt_ones(da, ka, 2, shape);
  dt_tensor *b = dt_ones(db, kb, 2, shape);
  if (a == NULL || b == NULL) fail_msg("operands: %s", dt_last_error());
  /* messages name the (inner) devices: "expected cpu, got sim:0" */
  char na[48], nb[48];
  dt_device_name(dt_inner_device(da), na, sizeof na);
  dt_device_name(dt_inner_device(db), nb, sizeof nb);
  for (size_t i = 0; i < NOPS; ++i) {
    dt_tensor *r = kOps[i].f(a, b);
    if (r != NULL) fail_msg("%s(%s, %s) succeeded", kOps[i].name, na, nb);
    if (dt_last_status() != rule)
      fail_msg("%s(%s, %s): %s, expected [%s]", kOps[i].name, na, nb, dt_last_error(),
               dt_status_rule_id(rule));
    const char *msg = dt_last_error();
    char id[48];
    snprintf(id, sizeof id, "[%s]", dt_status_rule_id(rule));
    if (strstr(msg, id) == NULL) fail_msg("message without the rule id: %s", msg);
    if (rule != DT_ERR_KIND_MISMATCH && (strstr(msg, na) == NULL || strstr(msg, nb) == NULL))
      fail_msg("message does not name %s and %s: %s", na, nb, msg);
  }
  dt_free(a);
  dt_free(b);
}

static void test_backend_mismatch(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  expect_rule(dt_cpu(), bk_dev, DT_FLOAT, DT_FLOAT, DT_ERR_BACKEND_MISMATCH);
  expect_rule(bk_dev, dt_cpu(), DT_FLOAT, DT_FLOAT, DT_ERR_BACKEND_MISMATCH);
  /* the tag rule comes before the kind rule */
  expect_rule(dt_cpu(), bk_dev, DT_FLOAT, DT_INT, DT_ERR_BACKEND_MISMATCH);
  if (bk_dev.backend != DT_BACKEND_SIM)
    expect_rule(dt_sim(0), bk_dev, DT_FLOAT, DT_FLOAT, DT_ERR_BACKEND_MISMATCH);
}

static void test_device_mismatch(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  dt_device other;
  if (!other_ordinal(&other)) skip(); /* a single GPU: no second ordinal here */
  expect_rule(bk_dev, other, DT_FLOAT, DT_FLOAT, DT_ERR_DEVICE_MISMATCH);
  expect_rule(other, bk_dev, DT_INT, DT_INT, DT_ERR_DEVICE_MISMATCH);
  expect_rule(dt_autodiff(bk_dev), dt_autodiff(other), DT_FLOAT, DT_FLOAT, DT_ERR_DEVICE_MISMATCH);
}

static void test_autodiff_rules(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  expect_rule(dt_autodiff(dt_cpu()), dt_autodiff(bk_dev), DT_FLOAT, DT_FLOAT,
              DT_ERR_AUTODIFF_INNER_BACKEND);
  expect_rule(bk_dev, dt_autodiff(bk_dev), DT_FLOAT, DT_FLOAT, DT_ERR_AUTODIFF_EXPECTED);
  expect_rule(dt_autodiff(bk_dev), dt_cpu(), DT_FLOAT, DT_FLOAT, DT_ERR_AUTODIFF_EXPECTED);

  /* dt_from_inner: inner on another backend, then on another ordinal */
  const int64_t shape[1] = {3};
  dt_tensor *on_cpu = dt_ones(dt_cpu(), DT_FLOAT, 1, shape);
  assert_null(dt_from_inner(dt_autodiff(bk_dev), on_cpu));
  assert_int_equal(dt_last_status(), DT_ERR_AUTODIFF_INNER_BACKEND);
  dt_device other;
  if (other_ordinal(&other)) {
    dt_tensor *on_x = dt_ones(bk_dev, DT_FLOAT, 1, shape);
    assert_null(dt_from_inner(dt_autodiff(other), on_x));
    assert_int_equal(dt_last_status(), DT_ERR_DEVICE_MISMATCH);
    dt_tensor *ok = dt_from_inner(dt_autodiff(bk_dev), on_x);
    if (ok == NULL) fail_msg("dt_from_inner on its own device: %s", dt_last_error());
    bk_free_all(on_x, ok, NULL);
  }
  /* moving across autodiff-ness */
  dt_tensor *plain = dt_ones(bk_dev, DT_FLOAT, 1, shape);
  assert_null(dt_to_device(plain, dt_autodiff(bk_dev)));
  assert_int_equal(dt_last_status(), DT_ERR_AUTODIFF_EXPECTED);
  bk_free_all(on_cpu, plain, NULL);
}

static void test_kind_mismatch_on_device(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  expect_rule(bk_dev, bk_dev, DT_FLOAT, DT_INT, DT_ERR_KIND_MISMATCH);
}

static void expect_unavailable(dt_device d, const char *must_contain) {
  char name[48];
  dt_device_name(d, name, sizeof name);
  const int64_t shape[1] = {4};
  dt_tensor *t = dt_zeros(d, DT_FLOAT, 1, shape);
  if (t != NULL) fail_msg("allocation on %s succeeded", name);
  assert_int_equal(dt_last_status(), DT_ERR_BACKEND_UNAVAILABLE);
  if (strstr(dt_last_error(), must_contain) == NULL)
    fail_msg("message lacks \"%s\": %s", must_contain, dt_last_error());
  dt_tensor *c = dt_ones(d.autodiff ? dt_autodiff(dt_cpu()) : dt_cpu(), DT_FLOAT, 1, shape);
  assert_null(dt_to_device(c, d));
  assert_int_equal(dt_last_status(), DT_ERR_BACKEND_UNAVAILABLE);
  dt_free(c);
}

static void test_backend_unavailable(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  expect_unavailable(dt_sim(64), "sim:64");
  expect_unavailable(dt_autodiff(dt_sim(64)), "sim:64");
  if (!dt_backend_available(DT_BACKEND_CUDA)) {
    /* the reason says why: no plugin, or a plugin and no GPU */
    const int64_t shape[1] = {1};
    dt_tensor *t = dt_zeros(dt_cuda(0), DT_FLOAT, 1, shape);
    assert_null(t);
    assert_int_equal(dt_last_status(), DT_ERR_BACKEND_UNAVAILABLE);
    const char *msg = dt_last_error();
    if (strstr(msg, "cuda") == NULL ||
        (strstr(msg, "not found") == NULL && strstr(msg, "no CUDA device") == NULL &&
         strstr(msg, "cannot load") == NULL))
      fail_msg("unclear reason: %s", msg);
    expect_unavailable(dt_cuda(0), "cuda:0");
  } else {
    expect_unavailable(dt_cuda(64), "cuda:64");
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_backend_mismatch),   cmocka_unit_test(test_device_mismatch),
      cmocka_unit_test(test_autodiff_rules),     cmocka_unit_test(test_kind_mismatch_on_device),
      cmocka_unit_test(test_backend_unavailable),
  };
  return bk_main(argc, argv, "rules across backends", tests, sizeof tests / sizeof tests[0]);
}
