/* tests/runtime/test_check.c — the precheck (check.c): every tag rule of SPEC §4 with its
 * message and both tags, the precedence between rules, kinds per operation (docs/semantics.md),
 * and NULL / freed handles. Tensors on sim are created by copies only, so these tests need no
 * sim kernels. */
#include "rt_util.h"

#include <string.h>

static dt_tensor *on(dt_device d, int64_t n) {
  float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  dt_tensor *t = dt_from_floats(d, v, 1, SHAPE(n));
  assert_non_null(t);
  return t;
}

static dt_tensor *ints_on(dt_device d) {
  dt_tensor *t = dt_from_ints(d, INTS(1, 2, 3), 1, SHAPE(3));
  assert_non_null(t);
  return t;
}

static void test_backend_mismatch(void **state) {
  (void)state;
  dt_tensor *a = on(dt_cpu(), 3), *b = on(dt_sim(1), 3);
  rt_assert_failed(dt_add(a, b), DT_ERR_BACKEND_MISMATCH, "dt_add",
                   "The provided tensors are not on the same backend", "cpu", "sim:1", NULL);
  rt_assert_failed(dt_matmul(b, a), DT_ERR_BACKEND_MISMATCH, "dt_matmul", NULL);
  rt_assert_failed(dt_mse_loss(a, b), DT_ERR_BACKEND_MISMATCH, "dt_mse_loss", NULL);
  rt_free_all(a, b, NULL);
}

static void test_autodiff_inner_backend(void **state) {
  (void)state;
  dt_tensor *a = dt_zeros(dt_autodiff(dt_cpu()), DT_FLOAT, 1, SHAPE(3));
  dt_tensor *s = on(dt_sim(0), 3);
  dt_tensor *b = dt_to_device(s, dt_sim(0));
  assert_non_null(a);
  assert_non_null(b);
  dt_tensor *ad_sim = NULL;
  /* An autodiff tensor on sim, made by creation on the autodiff device (a copy-only path). */
  ad_sim = dt_from_floats(dt_autodiff(dt_sim(0)), FLOATS(1, 2, 3), 1, SHAPE(3));
  assert_non_null(ad_sim);
  rt_assert_failed(dt_sub(a, ad_sim), DT_ERR_AUTODIFF_INNER_BACKEND, "dt_sub",
                   "Autodiff float tensor is on the wrong backend (expected cpu, got sim:0)", NULL);
  rt_free_all(a, s, b, ad_sim, NULL);
}

static void test_autodiff_expected(void **state) {
  (void)state;
  dt_tensor *ad = dt_from_floats(dt_autodiff(dt_cpu()), FLOATS(1, 2, 3), 1, SHAPE(3));
  dt_tensor *plain = on(dt_cpu(), 3), *plain_sim = on(dt_sim(0), 3);
  rt_assert_failed(dt_mul(ad, plain), DT_ERR_AUTODIFF_EXPECTED, "dt_mul", "autodiff<cpu>", "cpu",
                   "Expected autodiff-wrapped float tensor", NULL);
  rt_assert_failed(dt_mul(plain, ad), DT_ERR_AUTODIFF_EXPECTED, "autodiff<cpu>", NULL);
  /* Whatever the backends: autodiff-ness decides first. */
  rt_assert_failed(dt_add(ad, plain_sim), DT_ERR_AUTODIFF_EXPECTED, "sim:0", NULL);
  /* Transfers cannot cross autodiff-ness. */
  rt_assert_failed(dt_to_device(plain, dt_autodiff(dt_cpu())), DT_ERR_AUTODIFF_EXPECTED,
                   "dt_to_device", "Cannot move between autodiff and non-autodiff", NULL);
  rt_assert_failed(dt_to_device(ad, dt_sim(0)), DT_ERR_AUTODIFF_EXPECTED, "autodiff<cpu>", "sim:0",
                   NULL);
  rt_free_all(ad, plain, plain_sim, NULL);
}

static void test_device_mismatch(void **state) {
  (void)state;
  dt_tensor *a = on(dt_sim(0), 3), *b = on(dt_sim(1), 3);
  rt_assert_failed(dt_div(a, b), DT_ERR_DEVICE_MISMATCH, "dt_div", "wrong device", "sim:0", "sim:1",
                   NULL);
  dt_tensor *x = dt_from_floats(dt_autodiff(dt_sim(0)), FLOATS(1), 0, NULL);
  dt_tensor *y = dt_from_floats(dt_autodiff(dt_sim(1)), FLOATS(1), 0, NULL);
  rt_assert_failed(dt_add(x, y), DT_ERR_DEVICE_MISMATCH, "autodiff<sim:0>", "autodiff<sim:1>", NULL);
  rt_free_all(a, b, x, y, NULL);
}

static void test_kind_mismatch(void **state) {
  (void)state;
  dt_tensor *f = on(dt_cpu(), 3), *i = ints_on(dt_cpu());
  dt_tensor *b = dt_greater(f, f);
  assert_non_null(b);
  assert_int_equal(dt_kind_of(b), DT_BOOL);
  rt_assert_failed(dt_add(f, i), DT_ERR_KIND_MISMATCH, "dt_add",
                   "Tensor kinds not accepted together (float and int)", NULL);
  rt_assert_failed(dt_add(b, b), DT_ERR_KIND_MISMATCH, "bool", NULL);
  rt_assert_failed(dt_matmul(b, b), DT_ERR_KIND_MISMATCH, "dt_matmul", NULL);
  rt_assert_failed(dt_neg(b), DT_ERR_KIND_MISMATCH, "dt_neg", NULL);
  rt_assert_failed(dt_sum(b), DT_ERR_KIND_MISMATCH, "dt_sum", NULL);
  rt_assert_failed(dt_exp(i), DT_ERR_KIND_MISMATCH, "dt_exp", "(int)", NULL);
  rt_assert_failed(dt_log(i), DT_ERR_KIND_MISMATCH, "dt_log", NULL);
  rt_assert_failed(dt_sigmoid(i), DT_ERR_KIND_MISMATCH, NULL);
  rt_assert_failed(dt_tanh(i), DT_ERR_KIND_MISMATCH, NULL);
  rt_assert_failed(dt_mean(i), DT_ERR_KIND_MISMATCH, "dt_mean", NULL);
  rt_assert_failed(dt_mse_loss(i, i), DT_ERR_KIND_MISMATCH, NULL);
  rt_assert_failed(dt_greater(f, i), DT_ERR_KIND_MISMATCH, NULL);
  rt_assert_failed(dt_greater(b, b), DT_ERR_KIND_MISMATCH, NULL);
  rt_assert_failed(dt_add_scalar(b, 1.0f), DT_ERR_KIND_MISMATCH, NULL);
  rt_assert_failed(dt_where(f, f, f), DT_ERR_KIND_MISMATCH, "dt_where",
                   "(float, float and float)", NULL);
  rt_assert_failed(dt_where(b, f, i), DT_ERR_KIND_MISMATCH, NULL);
  dt_tensor *mixed[] = {f, i};
  rt_assert_failed(dt_cat(2, mixed, 0), DT_ERR_KIND_MISMATCH, "dt_cat", NULL);
  float fv[3];
  int64_t iv[3];
  assert_int_equal(dt_read_floats(i, fv, 3), DT_ERR_KIND_MISMATCH);
  assert_int_equal(dt_read_ints(f, iv, 3), DT_ERR_KIND_MISMATCH);
  /* Accepted combinations. */
  dt_tensor *bools[] = {b, b};
  dt_tensor *ok[] = {dt_add(i, i),      dt_neg(i),          dt_relu(i),          dt_sum(i),
                     dt_where(b, i, i), dt_where(b, b, b),  dt_cat(2, bools, 0), dt_greater(i, i),
                     dt_mul_scalar(i, 2.0f)};
  for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
    assert_non_null(ok[k]);
    dt_free(ok[k]);
  }
  rt_free_all(f, i, b, NULL);
}

static void test_precedence(void **state) {
  (void)state;
  dt_device adc = dt_autodiff(dt_cpu());
  dt_tensor *cpu_f = on(dt_cpu(), 3), *sim0_i = ints_on(dt_sim(0)), *sim1_i = ints_on(dt_sim(1));
  dt_tensor *sim0_f = on(dt_sim(0), 3);
  dt_tensor *ad_cpu_i = dt_from_ints(adc, INTS(1, 2, 3), 1, SHAPE(3));
  dt_tensor *ad_sim_f = dt_from_floats(dt_autodiff(dt_sim(0)), FLOATS(1, 2), 1, SHAPE(2));
  assert_non_null(ad_cpu_i);
  assert_non_null(ad_sim_f);
  /* Backend before kind; kind before shape. */
  rt_assert_failed(dt_add(cpu_f, sim0_i), DT_ERR_BACKEND_MISMATCH, NULL);
  /* Device before kind. */
  rt_assert_failed(dt_add(sim0_f, sim1_i), DT_ERR_DEVICE_MISMATCH, NULL);
  /* Autodiff-ness before backend and kind. */
  rt_assert_failed(dt_add(ad_cpu_i, sim0_f), DT_ERR_AUTODIFF_EXPECTED, NULL);
  /* Inner backend before kind and shape ([3] vs [2] would not broadcast). */
  rt_assert_failed(dt_add(ad_cpu_i, ad_sim_f), DT_ERR_AUTODIFF_INNER_BACKEND, NULL);
  /* Kind before shape: [3] float and [3] int... and [2] vs [3] float is a shape error. */
  dt_tensor *two = on(dt_sim(0), 2);
  rt_assert_failed(dt_add(sim0_f, sim0_i), DT_ERR_KIND_MISMATCH, NULL);
  rt_assert_failed(dt_add(sim0_f, two), DT_ERR_SHAPE, NULL);
  /* Three operands: the first rule in precedence wins wherever the operand is. */
  dt_tensor *cond = dt_greater(cpu_f, cpu_f);
  assert_non_null(cond);
  rt_assert_failed(dt_where(cond, cpu_f, sim0_f), DT_ERR_BACKEND_MISMATCH, NULL);
  rt_assert_failed(dt_where(cpu_f, cpu_f, sim0_f), DT_ERR_BACKEND_MISMATCH, NULL);
  dt_tensor *list[] = {sim0_f, sim0_f, ad_sim_f};
  rt_assert_failed(dt_cat(3, list, 0), DT_ERR_AUTODIFF_EXPECTED, NULL);
  rt_free_all(cpu_f, sim0_i, sim1_i, sim0_f, ad_cpu_i, ad_sim_f, two, cond, NULL);
}

static void test_invalid_handles(void **state) {
  (void)state;
  dt_tensor *a = on(dt_cpu(), 3);
  rt_assert_failed(dt_add(a, NULL), DT_ERR_INVALID_ARGUMENT, "dt_add", "Input tensor 2 is NULL",
                   NULL);
  rt_assert_failed(dt_add(NULL, a), DT_ERR_INVALID_ARGUMENT, "Input tensor 1", NULL);
  rt_assert_failed(dt_neg(NULL), DT_ERR_INVALID_ARGUMENT, "dt_neg", NULL);
  rt_assert_failed(dt_where(NULL, a, a), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_assert_failed(dt_cat(1, NULL, 0), DT_ERR_INVALID_ARGUMENT, "dt_cat", NULL);
  rt_assert_failed(dt_to_device(NULL, dt_cpu()), DT_ERR_INVALID_ARGUMENT, NULL);
  dt_tensor *gone = on(dt_cpu(), 2);
  dt_free(gone);
  /* A freed handle is named as such, before any tag rule. */
  rt_assert_failed(dt_add(a, gone), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
  rt_assert_failed(dt_sum(gone), DT_ERR_INVALID_ARGUMENT, "freed", NULL);
  /* A non-tensor pointer. */
  uint64_t junk[32] = {0};
  rt_assert_failed(dt_neg((const dt_tensor *)junk), DT_ERR_INVALID_ARGUMENT, "not a live", NULL);
  /* Freeing NULL is a no-op and leaves the status alone. */
  dt_free(NULL);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  /* A double free is reported, not a crash. */
  dt_free(gone);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(dt_last_error(), "dt_free"));
  dt_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_backend_mismatch), cmocka_unit_test(test_autodiff_inner_backend),
      cmocka_unit_test(test_autodiff_expected), cmocka_unit_test(test_device_mismatch),
      cmocka_unit_test(test_kind_mismatch),    cmocka_unit_test(test_precedence),
      cmocka_unit_test(test_invalid_handles),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
