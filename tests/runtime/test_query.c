/* tests/runtime/test_query.c — queries and host reads (query.c): device, kind, rank, dims (and
 * negative axes), element counts; NULL and freed handles; dt_read_floats / dt_read_ints with
 * too-small, NULL and exact buffers; bool reads; reads from the simulated device. */
#include "rt_util.h"

#include <string.h>

static void test_queries(void **state) {
  (void)state;
  dt_tensor *t = rt_iota(dt_sim(1), 3, SHAPE(2, 3, 4));
  assert_true(dt_device_equal(dt_device_of(t), dt_sim(1)));
  assert_int_equal(dt_last_status(), DT_OK);
  assert_int_equal(dt_kind_of(t), DT_FLOAT);
  assert_int_equal(dt_rank(t), 3);
  assert_int_equal(dt_dim(t, 0), 2);
  assert_int_equal(dt_dim(t, 2), 4);
  assert_int_equal(dt_dim(t, -1), 4);
  assert_int_equal(dt_dim(t, -3), 2);
  assert_int_equal(dt_numel(t), 24);
  assert_int_equal(dt_dim(t, 3), -1);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(dt_last_error(), "dt_dim"));
  assert_int_equal(dt_dim(t, -4), -1);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  /* A success resets the status. */
  assert_int_equal(dt_rank(t), 3);
  assert_int_equal(dt_last_status(), DT_OK);
  dt_free(t);
}

static void test_queries_on_bad_handles(void **state) {
  (void)state;
  dt_device d = dt_device_of(NULL);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_true(dt_device_equal(d, dt_cpu()));
  assert_int_equal(dt_kind_of(NULL), 0);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_int_equal(dt_rank(NULL), -1);
  assert_int_equal(dt_dim(NULL, 0), -1);
  assert_int_equal(dt_numel(NULL), -1);
  assert_non_null(strstr(dt_last_error(), "dt_numel"));
  dt_tensor *t = dt_zeros(dt_cpu(), DT_FLOAT, 1, SHAPE(3));
  dt_free(t);
  assert_int_equal(dt_rank(t), -1);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(dt_last_error(), "freed"));
  float v[3];
  assert_int_equal(dt_read_floats(t, v, 3), DT_ERR_INVALID_ARGUMENT);
  assert_int_equal(dt_read_floats(NULL, v, 3), DT_ERR_INVALID_ARGUMENT);
}

static void test_read_buffers(void **state) {
  (void)state;
  dt_tensor *t = rt_iota(dt_cpu(), 2, SHAPE(2, 2));
  float v[5] = {9, 9, 9, 9, 9};
  /* Too small: nothing written. */
  assert_int_equal(dt_read_floats(t, v, 3), DT_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(dt_last_error(), "dt_read_floats"));
  for (int i = 0; i < 5; i++) assert_true(v[i] == 9);
  assert_int_equal(dt_read_floats(t, v, -1), DT_ERR_INVALID_ARGUMENT);
  assert_int_equal(dt_read_floats(t, NULL, 4), DT_ERR_INVALID_ARGUMENT);
  /* Larger capacity: exactly numel written. */
  assert_int_equal(dt_read_floats(t, v, 5), 0);
  assert_int_equal(dt_last_status(), DT_OK);
  for (int i = 0; i < 4; i++) assert_true(v[i] == 0.5f * (float)i - 3.0f);
  assert_true(v[4] == 9);
  dt_free(t);
}

static void test_read_ints_and_bools(void **state) {
  (void)state;
  dt_tensor *i = dt_from_ints(dt_cpu(), INTS(5, -6, 7), 1, SHAPE(3));
  dt_tensor *x = dt_from_floats(dt_cpu(), FLOATS(1, 5, 2, 8), 1, SHAPE(4));
  dt_tensor *y = dt_from_floats(dt_cpu(), FLOATS(2, 2, 2, 2), 1, SHAPE(4));
  dt_tensor *g = dt_greater(x, y);
  dt_tensor *xs = dt_to_device(x, dt_sim(0)), *ys = dt_to_device(y, dt_sim(0));
  int64_t v[4] = {0};
  rt_read_i(i, v, 4);
  assert_int_equal(v[0], 5);
  assert_int_equal(v[1], -6);
  assert_int_equal(v[2], 7);
  rt_read_i(g, v, 4);
  for (int k = 0; k < 4; k++) assert_int_equal(v[k], (k == 1 || k == 3) ? 1 : 0);
  assert_int_equal(dt_read_ints(g, v, 3), DT_ERR_INVALID_ARGUMENT);
  float f[4];
  assert_int_equal(dt_read_floats(g, f, 4), DT_ERR_KIND_MISMATCH);
  assert_non_null(strstr(dt_last_error(), "(bool)"));
  /* From the simulated device (copied out to the host). */
  float back[4];
  rt_read_f(xs, back, 4);
  assert_true(back[0] == 1 && back[1] == 5 && back[2] == 2 && back[3] == 8);
  rt_free_all(i, x, y, g, xs, ys, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_queries),
      cmocka_unit_test(test_queries_on_bad_handles),
      cmocka_unit_test(test_read_buffers),
      cmocka_unit_test(test_read_ints_and_bools),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
