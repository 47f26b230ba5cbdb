/* tests/runtime/test_prim.c — the internal primitives autodiff builds gradients from (prim.c):
 * they ignore autodiff-ness and give results the device of the tensor they are computed like;
 * sum_to_shape undoes broadcasting; narrow cuts a slice; sum_dim with keepdim; copy_to keeps or
 * changes the tag as asked. Primitives work on objects: O() resolves a handle, H() hands an
 * object back as a handle so the public queries and dt_free apply to it. */
#include "rt_util.h"

#define O(handle) dt__resolve_fast(handle)
#define H(obj) dt__handle_of(obj)

static const dt_site k_site = {__FILE__, __LINE__, "test_prim"};

static void test_sum_to_shape(void **state) {
  (void)state;
  /* g of shape [2, 3, 4] summed back to the shapes that broadcast to it. */
  dt_tensor *g = rt_iota(dt_cpu(), 3, SHAPE(2, 3, 4));
  float all[24];
  rt_read_f(g, all, 24);
  struct {
    int rank;
    int64_t shape[3];
  } targets[] = {{3, {2, 3, 4}}, {2, {3, 4}}, {1, {4}}, {3, {2, 1, 4}}, {2, {3, 1}},
                 {0, {0}},       {3, {1, 1, 1}}, {1, {1}}, {3, {2, 3, 1}}};
  for (size_t c = 0; c < sizeof targets / sizeof targets[0]; c++) {
    const int r = targets[c].rank;
    const int64_t *ts = targets[c].shape;
    dt_tensor *s = H(dt__prim_sum_to_shape(&k_site, O(g), r, ts));
    rt_assert_shape(s, r, ts);
    float got[24];
    rt_read_f(s, got, 24);
    /* Reference: every element of g adds into the target cell it broadcasts from. */
    float want[24] = {0};
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++)
        for (int k = 0; k < 4; k++) {
          const int64_t idx[3] = {i, j, k};
          int64_t off = 0;
          for (int a = 0; a < r; a++) {
            const int64_t d = ts[a], at = idx[3 - r + a];
            off = off * d + (d == 1 ? 0 : at);
          }
          want[off] += all[(i * 3 + j) * 4 + k];
        }
    for (int64_t e = 0; e < dt_numel(s); e++) assert_float_equal(got[e], want[e], 1e-4);
    dt_free(s);
  }
  rt_assert_failed(H(dt__prim_sum_to_shape(&k_site, O(g), 2, SHAPE(3, 5))), DT_ERR_SHAPE,
                   "test_prim", NULL);
  rt_assert_failed(H(dt__prim_sum_to_shape(&k_site, O(g), 4, SHAPE(1, 2, 3, 4))), DT_ERR_SHAPE,
                   NULL);
  dt_free(g);
}

static void test_narrow_and_keepdim(void **state) {
  (void)state;
  dt_tensor *a = rt_iota(dt_cpu(), 2, SHAPE(3, 4));
  dt_tensor *n = H(dt__prim_narrow(&k_site, O(a), 1, 1, 2));
  rt_assert_shape(n, 2, SHAPE(3, 2));
  float v[12];
  rt_read_f(n, v, 6);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) assert_true(v[i * 2 + j] == 0.5f * (float)(i * 4 + j + 1) - 3.0f);
  dt_tensor *e = H(dt__prim_narrow(&k_site, O(a), 0, 3, 0));
  rt_assert_shape(e, 2, SHAPE(0, 4));
  rt_assert_failed(H(dt__prim_narrow(&k_site, O(a), 0, 2, 2)), DT_ERR_INVALID_ARGUMENT, NULL);
  rt_assert_failed(H(dt__prim_narrow(&k_site, O(a), 0, -1, 1)), DT_ERR_INVALID_ARGUMENT, NULL);
  dt_tensor *k = H(dt__prim_sum_dim(&k_site, O(a), -1, 1));
  rt_assert_shape(k, 2, SHAPE(3, 1));
  rt_free_all(a, n, e, k, NULL);
}

static void test_results_take_like_device(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = dt_from_floats(ad, FLOATS(1, 2, 3), 1, SHAPE(3));
  dt_tensor *p = dt_from_floats(dt_cpu(), FLOATS(1, 1, 1), 1, SHAPE(3));
  /* Primitives mix plain and autodiff tensors of one inner device freely. */
  dt_tensor *r = H(dt__prim_binary(&k_site, DT_OP_ADD, O(x), O(p)));
  dt_tensor *q = H(dt__prim_binary(&k_site, DT_OP_ADD, O(p), O(x)));
  assert_true(dt_device_equal(dt_device_of(r), ad));
  assert_true(dt_device_equal(dt_device_of(q), dt_cpu()));
  float v[3];
  rt_read_f(q, v, 3);
  assert_true(v[0] == 2 && v[2] == 4);
  dt_tensor *z = H(dt__prim_fill(&k_site, dt_cpu(), DT_FLOAT, 0.0f, 1, SHAPE(3)));
  dt_tensor *c = H(dt__prim_copy_to(&k_site, O(x), dt_sim(1)));
  assert_true(dt_device_equal(dt_device_of(c), dt_sim(1)));
  rt_read_f(c, v, 3);
  assert_true(v[1] == 2);
  rt_free_all(x, p, r, q, z, c, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sum_to_shape),
      cmocka_unit_test(test_narrow_and_keepdim),
      cmocka_unit_test(test_results_take_like_device),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
