/* tests/runtime/test_create.c — the creation functions (create.c, tensor.c): values, kinds and
 * devices of dt_zeros / dt_ones / dt_full / dt_from_floats / dt_from_ints / dt_randn; ranks 0,
 * DT_MAX_RANK and beyond; negative, zero and overflowing dimensions; NULL arguments; randn's
 * determinism and distribution. */
#include "rt_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_fill_values(void **state) {
  (void)state;
  dt_tensor *z = dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(2, 3));
  dt_tensor *o = dt_ones(dt_cpu(), DT_INT, 1, SHAPE(4));
  dt_tensor *ob = dt_ones(dt_cpu(), DT_BOOL, 1, SHAPE(5));
  dt_tensor *zb = dt_zeros(dt_cpu(), DT_BOOL, 1, SHAPE(2));
  dt_tensor *f = dt_full(dt_cpu(), -2.5f, 3, SHAPE(1, 2, 2));
  assert_int_equal(dt_last_status(), DT_OK);
  rt_assert_shape(z, 2, SHAPE(2, 3));
  assert_int_equal(dt_kind_of(z), DT_FLOAT);
  assert_int_equal(dt_kind_of(o), DT_INT);
  assert_int_equal(dt_kind_of(ob), DT_BOOL);
  assert_int_equal(dt_kind_of(f), DT_FLOAT);
  float fv[6];
  int64_t iv[5];
  rt_read_f(z, fv, 6);
  for (int i = 0; i < 6; i++) assert_true(fv[i] == 0.0f);
  rt_read_i(o, iv, 5);
  for (int i = 0; i < 4; i++) assert_int_equal(iv[i], 1);
  rt_read_i(ob, iv, 5);
  for (int i = 0; i < 5; i++) assert_int_equal(iv[i], 1);
  rt_read_i(zb, iv, 5);
  assert_int_equal(iv[0] + iv[1], 0);
  rt_read_f(f, fv, 6);
  for (int i = 0; i < 4; i++) assert_true(fv[i] == -2.5f);
  rt_free_all(z, o, ob, zb, f, NULL);
}

static void test_from_host(void **state) {
  (void)state;
  float src[6] = {1.5f, -2, 3, 4e10f, -0.0f, 7};
  dt_tensor *t = dt_from_floats(dt_cpu(), src, 2, SHAPE(3, 2));
  rt_assert_shape(t, 2, SHAPE(3, 2));
  src[0] = 99; /* the tensor holds a copy */
  float back[6];
  rt_read_f(t, back, 6);
  assert_true(back[0] == 1.5f);
  assert_memory_equal(back + 1, src + 1, 5 * sizeof(float));
  int64_t isrc[4] = {INT64_MIN, -1, 0, INT64_MAX}, iback[4];
  dt_tensor *i = dt_from_ints(dt_cpu(), isrc, 1, SHAPE(4));
  assert_int_equal(dt_kind_of(i), DT_INT);
  rt_read_i(i, iback, 4);
  assert_memory_equal(iback, isrc, sizeof isrc);
  /* The same on the simulated device: copies in and out. */
  dt_tensor *s = dt_from_ints(dt_sim(1), isrc, 2, SHAPE(2, 2));
  assert_non_null(s);
  assert_true(dt_device_equal(dt_device_of(s), dt_sim(1)));
  memset(iback, 0, sizeof iback);
  rt_read_i(s, iback, 4);
  assert_memory_equal(iback, isrc, sizeof isrc);
  rt_free_all(t, i, s, NULL);
}

static void test_autodiff_device_creation(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *f = dt_full(ad, 3.0f, 1, SHAPE(2));
  dt_tensor *i = dt_zeros(ad, DT_INT, 1, SHAPE(2));
  assert_non_null(f);
  assert_non_null(i);
  /* Int tensors created on an autodiff device report that device. */
  assert_true(dt_device_equal(dt_device_of(f), ad));
  assert_true(dt_device_equal(dt_device_of(i), ad));
  float v[2];
  rt_read_f(f, v, 2);
  assert_true(v[0] == 3.0f && v[1] == 3.0f);
  rt_free_all(f, i, NULL);
}

static void test_ranks(void **state) {
  (void)state;
  /* Rank 0: one element, shape may be NULL. */
  dt_tensor *s = dt_full(dt_cpu(), 4.0f, 0, NULL);
  rt_assert_shape(s, 0, NULL);
  assert_int_equal(dt_numel(s), 1);
  float v;
  rt_read_f(s, &v, 1);
  assert_true(v == 4.0f);
  /* DT_MAX_RANK works; one more does not. */
  int64_t shape[DT_MAX_RANK + 1];
  for (int k = 0; k <= DT_MAX_RANK; k++) shape[k] = k % 2 + 1;
  dt_tensor *big = dt_ones(dt_cpu(), DT_FLOAT, DT_MAX_RANK, shape);
  assert_non_null(big);
  assert_int_equal(dt_rank(big), DT_MAX_RANK);
  assert_int_equal(dt_numel(big), 16);
  rt_assert_failed(dt_ones(dt_cpu(), DT_FLOAT, DT_MAX_RANK + 1, shape), DT_ERR_INVALID_ARGUMENT,
                   "dt_ones", "Rank 9", NULL);
  rt_assert_failed(dt_zeros(dt_cpu(), DT_FLOAT, -1, shape), DT_ERR_INVALID_ARGUMENT, "Rank -1", NULL);
  rt_assert_failed(dt_from_floats(dt_cpu(), &v, 2, NULL), DT_ERR_INVALID_ARGUMENT, "shape is NULL",
                   NULL);
  rt_free_all(s, big, NULL);
}

static void test_dims(void **state) {
  (void)state;
  rt_assert_failed(dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(2, -3)), DT_ERR_INVALID_ARGUMENT,
                   "negative", "-3", NULL);
  rt_assert_failed(dt_full(dt_cpu(), 1.0f, 2, SHAPE(INT64_MAX, 2)), DT_ERR_INVALID_ARGUMENT,
                   "overflow", NULL);
  rt_assert_failed(dt_ones(dt_cpu(), DT_INT, 3, SHAPE(1LL << 30, 1LL << 30, 1LL << 10)),
                   DT_ERR_INVALID_ARGUMENT, "overflow", NULL);
  rt_assert_failed(dt_randn(dt_cpu(), 1, 1, SHAPE(-1)), DT_ERR_INVALID_ARGUMENT, NULL);
  /* Large but representable: the allocation itself fails. */
  rt_assert_failed(dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(1LL << 28, 1LL << 28)),
                   DT_ERR_OUT_OF_MEMORY, "dt_zeros", NULL);
  /* Zero-sized dimensions make empty tensors, even next to huge ones. */
  dt_tensor *e = dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(0, INT64_MAX));
  assert_non_null(e);
  assert_int_equal(dt_numel(e), 0);
  dt_tensor *e2 = dt_from_floats(dt_cpu(), NULL, 1, SHAPE(0));
  assert_non_null(e2);
  assert_int_equal(dt_read_floats(e2, NULL, 0), 0);
  rt_free_all(e, e2, NULL);
}

static void test_bad_arguments(void **state) {
  (void)state;
  rt_assert_failed(dt_from_floats(dt_cpu(), NULL, 1, SHAPE(3)), DT_ERR_INVALID_ARGUMENT,
                   "dt_from_floats", "data pointer is NULL", NULL);
  rt_assert_failed(dt_from_ints(dt_sim(0), NULL, 1, SHAPE(3)), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_assert_failed(dt_zeros(dt_cpu(), (dt_kind)0, 1, SHAPE(3)), DT_ERR_INVALID_ARGUMENT, "kind",
                   NULL);
  rt_assert_failed(dt_ones(dt_cpu(), (dt_kind)4, 1, SHAPE(3)), DT_ERR_INVALID_ARGUMENT, NULL);
}

static void test_randn(void **state) {
  (void)state;
  enum { N = 20001 };
  dt_tensor *a = dt_randn(dt_cpu(), 42, 1, SHAPE(N));
  dt_tensor *b = dt_randn(dt_cpu(), 42, 1, SHAPE(N));
  dt_tensor *c = dt_randn(dt_cpu(), 43, 1, SHAPE(N));
  dt_tensor *s = dt_randn(dt_sim(1), 42, 2, SHAPE(3, 6667));
  assert_int_equal(dt_kind_of(a), DT_FLOAT);
  float *va = malloc(sizeof(float) * N), *vb = malloc(sizeof(float) * N);
  float *vc = malloc(sizeof(float) * N), *vs = malloc(sizeof(float) * N);
  rt_read_f(a, va, N);
  rt_read_f(b, vb, N);
  rt_read_f(c, vc, N);
  rt_read_f(s, vs, N);
  /* Same seed, same values, whatever the device or shape; another seed differs. */
  assert_memory_equal(va, vb, sizeof(float) * N);
  assert_memory_equal(va, vs, sizeof(float) * N);
  int differ = 0;
  double sum = 0, sq = 0;
  for (int i = 0; i < N; i++) {
    differ += va[i] != vc[i];
    assert_true(isfinite(va[i]));
    sum += va[i];
    sq += (double)va[i] * va[i];
  }
  assert_true(differ > N - 10);
  const double mean = sum / N, var = sq / N - mean * mean;
  assert_true(fabs(mean) < 0.05);
  assert_true(fabs(var - 1.0) < 0.05);
  /* A prefix of a longer draw is the shorter draw (values depend on seed and index). */
  dt_tensor *short_draw = dt_randn(dt_cpu(), 42, 0, NULL);
  float first;
  rt_read_f(short_draw, &first, 1);
  assert_true(first == va[0]);
  free(va), free(vb), free(vc), free(vs);
  rt_free_all(a, b, c, s, short_draw, NULL);
}

static void test_plain_function_names(void **state) {
  (void)state;
  /* Every public name is also a real function; without a call site there is no file prefix. */
  dt_tensor *(*zeros)(dt_device, dt_kind, int, const int64_t *) = &dt_zeros;
  dt_tensor *(*from)(dt_device, const float *, int, const int64_t *) = &dt_from_floats;
  dt_tensor *t = zeros(dt_cpu(), DT_FLOAT, 1, SHAPE(2));
  assert_non_null(t);
  assert_null(from(dt_cpu(), NULL, 1, SHAPE(2)));
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_int_equal(strncmp(dt_last_error(), "dt_from_floats: ", 16), 0);
  dt_free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fill_values),  cmocka_unit_test(test_from_host),
      cmocka_unit_test(test_autodiff_device_creation),
      cmocka_unit_test(test_ranks),        cmocka_unit_test(test_dims),
      cmocka_unit_test(test_bad_arguments), cmocka_unit_test(test_randn),
      cmocka_unit_test(test_plain_function_names),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
