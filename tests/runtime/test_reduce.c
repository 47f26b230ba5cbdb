/* tests/runtime/test_reduce.c — reductions on cpu: dt_sum, dt_mean, dt_sum_dim on every axis
 * (negative axes too) against a double-precision reference, int sums, empty tensors, axis errors,
 * and the accuracy of long float sums (blocked summation). */
#include "rt_util.h"

#include <math.h>
#include <stdlib.h>

static void test_sum_mean(void **state) {
  (void)state;
  dt_tensor *t = rt_iota(dt_cpu(), 2, SHAPE(3, 5));
  dt_tensor *s = dt_sum(t), *m = dt_mean(t);
  rt_assert_shape(s, 0, NULL);
  rt_assert_shape(m, 0, NULL);
  double want = 0;
  for (int i = 0; i < 15; i++) want += 0.5 * i - 3.0;
  float v;
  rt_read_f(s, &v, 1);
  assert_float_equal(v, want, 1e-5);
  rt_read_f(m, &v, 1);
  assert_float_equal(v, want / 15, 1e-6);
  dt_tensor *i = dt_from_ints(dt_cpu(), INTS(1, 2, 3, 4, -20), 1, SHAPE(5));
  dt_tensor *is = dt_sum(i);
  assert_int_equal(dt_kind_of(is), DT_INT);
  int64_t iv;
  rt_read_i(is, &iv, 1);
  assert_int_equal(iv, -10);
  rt_free_all(t, s, m, i, is, NULL);
}

static void test_sum_dim(void **state) {
  (void)state;
  const int64_t shape[3] = {3, 4, 70};
  dt_tensor *t = rt_iota(dt_cpu(), 3, shape);
  float *all = malloc(sizeof(float) * 3 * 4 * 70);
  rt_read_f(t, all, 3 * 4 * 70);
  for (int axis = -3; axis < 3; axis++) {
    const int ax = axis < 0 ? axis + 3 : axis;
    dt_tensor *r = dt_sum_dim(t, axis);
    int64_t oshape[2];
    for (int k = 0, j = 0; k < 3; k++)
      if (k != ax) oshape[j++] = shape[k];
    rt_assert_shape(r, 2, oshape);
    float got[4 * 70];
    rt_read_f(r, got, 4 * 70);
    for (int64_t o = 0; o < oshape[0]; o++)
      for (int64_t p = 0; p < oshape[1]; p++) {
        double want = 0;
        for (int64_t q = 0; q < shape[ax]; q++) {
          int64_t idx[3];
          int64_t rest[2] = {o, p};
          for (int k = 0, j = 0; k < 3; k++) idx[k] = k == ax ? q : rest[j++];
          want += all[(idx[0] * 4 + idx[1]) * 70 + idx[2]];
        }
        assert_float_equal(got[o * oshape[1] + p], want, 1e-4 * (1 + fabs(want)));
      }
    dt_free(r);
  }
  free(all);
  /* Rank 1 -> rank 0; int; errors. */
  dt_tensor *i = dt_from_ints(dt_cpu(), INTS(1, 2, 3, 4, 5, 6), 2, SHAPE(2, 3));
  dt_tensor *ri = dt_sum_dim(i, 0);
  int64_t iv[3];
  rt_read_i(ri, iv, 3);
  assert_int_equal(iv[0], 5);
  assert_int_equal(iv[2], 9);
  dt_tensor *v = rt_iota(dt_cpu(), 1, SHAPE(4));
  dt_tensor *r0 = dt_sum_dim(v, 0);
  rt_assert_shape(r0, 0, NULL);
  rt_assert_failed(dt_sum_dim(t, 3), DT_ERR_INVALID_ARGUMENT, "dt_sum_dim", "Axis 3", NULL);
  rt_assert_failed(dt_sum_dim(t, -4), DT_ERR_INVALID_ARGUMENT, NULL);
  dt_tensor *scalar = dt_full(dt_cpu(), 1.0f, 0, NULL);
  rt_assert_failed(dt_sum_dim(scalar, 0), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_free_all(t, i, ri, v, r0, scalar, NULL);
}

static void test_empty(void **state) {
  (void)state;
  dt_tensor *e = dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(0, 3));
  dt_tensor *s = dt_sum(e), *m = dt_mean(e), *sd = dt_sum_dim(e, 0), *sd1 = dt_sum_dim(e, 1);
  float v[3];
  rt_read_f(s, v, 1);
  assert_true(v[0] == 0.0f);
  rt_read_f(m, v, 1);
  assert_true(isnan(v[0])); /* the mean of nothing, as NumPy */
  rt_assert_shape(sd, 1, SHAPE(3));
  rt_read_f(sd, v, 3);
  assert_true(v[0] == 0 && v[1] == 0 && v[2] == 0);
  rt_assert_shape(sd1, 1, SHAPE(0));
  rt_free_all(e, s, m, sd, sd1, NULL);
}

static void test_long_sum_accuracy(void **state) {
  (void)state;
  /* 2^24 + 7 values of 0.1f: a naive float loop stalls at 2^21 or so; blocked summation keeps
     the relative error near float precision. */
  const int64_t n = (1 << 24) + 7;
  dt_tensor *t = dt_full(dt_cpu(), 0.1f, 1, SHAPE(n));
  dt_tensor *s = dt_sum(t), *m = dt_mean(t);
  float v;
  rt_read_f(s, &v, 1);
  const double want = (double)0.1f * (double)n;
  assert_true(fabs(v - want) / want < 1e-6);
  rt_read_f(m, &v, 1);
  assert_true(fabs(v - 0.1f) < 1e-7);
  /* Column sums over many rows are blocked too. */
  dt_tensor *cols = dt_full(dt_cpu(), 0.1f, 2, SHAPE(1 << 20, 3));
  dt_tensor *cs = dt_sum_dim(cols, 0);
  float c[3];
  rt_read_f(cs, c, 3);
  for (int i = 0; i < 3; i++) assert_true(fabs(c[i] - (double)0.1f * (1 << 20)) / ((1 << 20) * 0.1) < 1e-6);
  rt_free_all(t, s, m, cols, cs, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sum_mean),
      cmocka_unit_test(test_sum_dim),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_long_sum_accuracy),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
