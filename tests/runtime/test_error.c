/* tests/runtime/test_error.c — the error model (error.c): status and message of the last call,
 * reset on success, the "file:line: op: message [rule-id]" format with the caller's line, rule
 * ids generated from dt/rules.def, the error mode switch, and thread-local status (two threads
 * failing and succeeding in lockstep). */
#include "rt_util.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void test_status_and_reset(void **state) {
  (void)state;
  dt_tensor *a = dt_zeros(dt_cpu(), DT_FLOAT, 1, SHAPE(2));
  assert_int_equal(dt_last_status(), DT_OK);
  assert_string_equal(dt_last_error(), "");
  const int line = __LINE__ + 1;
  dt_tensor *bad = dt_add(a, NULL);
  assert_null(bad);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  char want[512];
  snprintf(want, sizeof want, "%s:%d: dt_add: Input tensor 2 is NULL [invalid-argument]", __FILE__,
           line);
  assert_string_equal(dt_last_error(), want);
  /* A later success of any fallible call resets both. */
  assert_int_equal(dt_numel(a), 2);
  assert_int_equal(dt_last_status(), DT_OK);
  assert_string_equal(dt_last_error(), "");
  /* Reads return the status they set. */
  float v[2];
  assert_int_equal(dt_read_floats(a, v, 1), DT_ERR_INVALID_ARGUMENT);
  assert_int_equal(dt_read_floats(a, v, 2), DT_OK);
  assert_int_equal(dt_last_status(), DT_OK);
  dt_free(a);
}

static void test_rule_ids_from_table(void **state) {
  (void)state;
  assert_string_equal(dt_status_rule_id(DT_OK), "ok");
  assert_string_equal(dt_status_rule_id((dt_status)999), "unknown");
  int rows = 0;
#define DT_RULE(status, id, name, short_description, help) \
  assert_string_equal(dt_status_rule_id(status), id);      \
  rows++;
#include "dt/rules.def"
#undef DT_RULE
  assert_int_equal(rows, DT_ERR_DEVICE); /* every non-OK status has exactly one row */
  assert_string_equal(dt_status_rule_id(DT_ERR_BACKEND_MISMATCH), "backend-mismatch");
  assert_string_equal(dt_status_rule_id(DT_ERR_BACKEND_UNAVAILABLE), "backend-unavailable");
}

static void test_error_mode_switch(void **state) {
  (void)state;
  dt_set_error_mode(DT_ERRORS_ABORT);
  assert_int_equal(dt_get_error_mode(), DT_ERRORS_ABORT);
  dt_set_error_mode(DT_ERRORS_RETURN);
  assert_int_equal(dt_get_error_mode(), DT_ERRORS_RETURN);
}

static void test_message_tags(void **state) {
  (void)state;
  dt_tensor *f = dt_zeros(dt_autodiff(dt_cpu()), DT_FLOAT, 1, SHAPE(2));
  dt_tensor *i = dt_zeros(dt_autodiff(dt_cpu()), DT_INT, 1, SHAPE(2));
  rt_assert_failed(dt_where(f, f, f), DT_ERR_KIND_MISMATCH, "dt_where",
                   "(float, float and float)", NULL);
  rt_assert_failed(dt_add(f, i), DT_ERR_KIND_MISMATCH, "(float and int)", NULL);
  rt_free_all(f, i, NULL);
}

/* Every public name is a real function too (SPEC §3): take each one's address, and call some
   through pointers, where messages carry no call site. */
static void test_plain_functions_exist(void **state) {
  (void)state;
  void (*const all[])(void) = {
      (void (*)(void))&dt_autodiff,   (void (*)(void))&dt_zeros,      (void (*)(void))&dt_ones,
      (void (*)(void))&dt_full,       (void (*)(void))&dt_from_floats, (void (*)(void))&dt_from_ints,
      (void (*)(void))&dt_randn,      (void (*)(void))&dt_device_of,  (void (*)(void))&dt_kind_of,
      (void (*)(void))&dt_rank,       (void (*)(void))&dt_dim,        (void (*)(void))&dt_numel,
      (void (*)(void))&dt_read_floats, (void (*)(void))&dt_read_ints, (void (*)(void))&dt_to_device,
      (void (*)(void))&dt_from_inner, (void (*)(void))&dt_inner,      (void (*)(void))&dt_require_grad,
      (void (*)(void))&dt_detach,     (void (*)(void))&dt_backward,   (void (*)(void))&dt_grad,
      (void (*)(void))&dt_add,        (void (*)(void))&dt_sub,        (void (*)(void))&dt_mul,
      (void (*)(void))&dt_div,        (void (*)(void))&dt_matmul,     (void (*)(void))&dt_add_scalar,
      (void (*)(void))&dt_mul_scalar, (void (*)(void))&dt_neg,        (void (*)(void))&dt_exp,
      (void (*)(void))&dt_log,        (void (*)(void))&dt_relu,       (void (*)(void))&dt_sigmoid,
      (void (*)(void))&dt_tanh,       (void (*)(void))&dt_sum,        (void (*)(void))&dt_mean,
      (void (*)(void))&dt_sum_dim,    (void (*)(void))&dt_reshape,    (void (*)(void))&dt_transpose,
      (void (*)(void))&dt_cat,        (void (*)(void))&dt_greater,    (void (*)(void))&dt_where,
      (void (*)(void))&dt_mse_loss,   (void (*)(void))&dt_free};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) assert_non_null(all[i]);
  dt_tensor *(*unary[])(const dt_tensor *) = {&dt_neg, &dt_exp, &dt_log, &dt_relu,
                                              &dt_sigmoid, &dt_tanh, &dt_sum, &dt_mean,
                                              &dt_transpose};
  for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++) {
    assert_null(unary[i](NULL));
    assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
    assert_int_equal(strncmp(dt_last_error(), "dt_", 3), 0); /* no "file:line: " prefix */
  }
  int64_t (*numel)(const dt_tensor *) = &dt_numel;
  assert_int_equal(numel(NULL), -1);
  assert_string_equal(dt_last_error(), "dt_numel: The tensor is NULL [invalid-argument]");
}

/* ---- thread-locality: two threads alternate failures and successes ---- */

static pthread_barrier_t g_barrier;

static void *thread_body(void *arg) {
  const int fails_first = *(const int *)arg;
  dt_tensor *a = dt_zeros(dt_cpu(), DT_FLOAT, 1, SHAPE(3));
  int ok = a != NULL;
  for (int round = 0; round < 50; round++) {
    const int fail_now = (round % 2 == 0) == fails_first;
    dt_tensor *r = fail_now ? dt_add(a, NULL) : dt_add(a, a);
    pthread_barrier_wait(&g_barrier); /* both threads have made their call */
    if (fail_now)
      ok &= r == NULL && dt_last_status() == DT_ERR_INVALID_ARGUMENT &&
            strstr(dt_last_error(), "Input tensor 2") != NULL;
    else
      ok &= r != NULL && dt_last_status() == DT_OK && dt_last_error()[0] == '\0';
    dt_free(r);
    pthread_barrier_wait(&g_barrier); /* both have checked */
  }
  dt_free(a);
  return (void *)(intptr_t)ok;
}

static void test_thread_local_status(void **state) {
  (void)state;
  pthread_t t1, t2;
  int first = 1, second = 0;
  pthread_barrier_init(&g_barrier, NULL, 2);
  assert_int_equal(pthread_create(&t1, NULL, thread_body, &first), 0);
  assert_int_equal(pthread_create(&t2, NULL, thread_body, &second), 0);
  void *r1, *r2;
  pthread_join(t1, &r1);
  pthread_join(t2, &r2);
  pthread_barrier_destroy(&g_barrier);
  assert_true((intptr_t)r1);
  assert_true((intptr_t)r2);
  /* The main thread's status is its own. */
  (void)dt_numel(NULL);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
}

/* Several threads computing at once: the registry, counters and handle table are thread-safe. */
static void *compute_body(void *arg) {
  (void)arg;
  int ok = 1;
  for (int i = 0; i < 200 && ok; i++) {
    float host[64];
    for (int k = 0; k < 64; k++) host[k] = (float)i;
    /* Through sim by copies only, then computed on the cpu. */
    dt_tensor *a = dt_from_floats(i % 2 ? dt_cpu() : dt_sim(1), host, 1, SHAPE(64));
    dt_tensor *c = a ? dt_to_device(a, dt_cpu()) : NULL;
    dt_tensor *s = c ? dt_sum(c) : NULL;
    float v = 0;
    ok = s != NULL && dt_read_floats(s, &v, 1) == 0 && v == 64.0f * (float)i;
    dt_free(a), dt_free(c), dt_free(s);
  }
  return (void *)(intptr_t)ok;
}

static void test_concurrent_ops(void **state) {
  (void)state;
  pthread_t th[4];
  for (int i = 0; i < 4; i++) assert_int_equal(pthread_create(&th[i], NULL, compute_body, NULL), 0);
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(th[i], &r);
    assert_true((intptr_t)r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_status_and_reset),     cmocka_unit_test(test_rule_ids_from_table),
      cmocka_unit_test(test_error_mode_switch),    cmocka_unit_test(test_message_tags),
      cmocka_unit_test(test_plain_functions_exist),
      cmocka_unit_test(test_thread_local_status),  cmocka_unit_test(test_concurrent_ops),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
