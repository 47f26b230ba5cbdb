/* tests/backends/test_backend_transfer.c — dt_to_device in every direction among cpu, sim:0,
 * sim:1 and the device under test (argv[1]; cuda:0 adds the GPU to the set), for every kind and
 * for empty and rank-0 tensors; chains of moves; autodiff tensors moved between devices keep
 * their values and let gradients flow back. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bk_util.h"

#define MAX_DEVS 4

static int devices(dt_device *out) {
  int n = 0;
  out[n++] = dt_cpu();
  out[n++] = dt_sim(0);
  out[n++] = dt_sim(1);
  int dup = 0;
  for (int i = 0; i < n; ++i) dup |= dt_device_equal(out[i], bk_dev);
  if (!dup) out[n++] = bk_dev;
  return n;
}

static dt_tensor *make(bk_rng *r, int kind, int rank, const int64_t *shape) {
  switch (kind) {
    case 0:
      return bk_rand_floats(r, rank, shape, -100, 100);
    case 1:
      return bk_rand_ints(r, rank, shape, INT64_MIN + 1, INT64_MAX);
    default:
      return bk_rand_bools(r, rank, shape);
  }
}

static void test_every_direction(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  static const struct {
    int rank;
    int64_t d[2];
  } shapes[] = {{0, {0}}, {1, {0}}, {1, {1001}}, {2, {3, 257}}, {2, {0, 4}}};
  dt_device devs[MAX_DEVS];
  const int nd = devices(devs);
  bk_rng r = {11};
  for (int kind = 0; kind < 3; ++kind) {
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
      dt_tensor *orig = make(&r, kind, shapes[s].rank, shapes[s].d);
      for (int i = 0; i < nd; ++i) {
        dt_tensor *src = bk_to(orig, devs[i]);
        for (int j = 0; j < nd; ++j) {
          dt_tensor *dst = dt_to_device(src, devs[j]);
          char what[256], a[32], b[32];
          dt_device_name(devs[i], a, sizeof a);
          dt_device_name(devs[j], b, sizeof b);
          snprintf(what, sizeof what, "kind %d shape %zu from %s to %s", kind, s, a, b);
          if (dst == NULL) fail_msg("%s: %s", what, dt_last_error());
          assert_true(dt_device_equal(dt_device_of(dst), devs[j]));
          assert_ptr_not_equal(dst, src); /* a new handle, also on the same device */
          bk_assert_same(orig, dst, 0, 0, what);
          dt_free(dst);
        }
        dt_free(src);
      }
      dt_free(orig);
    }
  }
}

static void test_chain(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  const int64_t shape[2] = {129, 65};
  bk_rng r = {12};
  dt_tensor *orig = bk_rand_floats(&r, 2, shape, -1, 1);
  dt_device path[] = {dt_sim(0), dt_sim(1), bk_dev, dt_sim(0), bk_dev, dt_sim(1), dt_cpu()};
  dt_tensor *cur = bk_to(orig, dt_cpu());
  for (size_t i = 0; i < sizeof path / sizeof path[0]; ++i) {
    dt_tensor *next = bk_to(cur, path[i]);
    dt_free(cur);
    cur = next;
  }
  bk_assert_same(orig, cur, 0, 0, "after a chain of moves");
  bk_free_all(orig, cur, NULL);
}

/* Computation results (not only created tensors) move correctly. */
static void test_results_move(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  const int64_t shape[2] = {33, 70};
  bk_rng r = {13};
  dt_tensor *a = bk_rand_floats(&r, 2, shape, -1, 1), *b = bk_rand_floats(&r, 2, shape, -1, 1);
  dt_tensor *want = dt_mul(a, b);
  dt_tensor *da = bk_to(a, bk_dev), *db = bk_to(b, bk_dev);
  dt_tensor *dp = dt_mul(da, db);
  assert_non_null(dp);
  dt_tensor *on_sim1 = bk_to(dp, dt_sim(1));
  dt_tensor *back = bk_to(on_sim1, dt_cpu());
  bk_assert_same(want, back, 0, 0, "a product moved device -> sim:1 -> cpu");
  bk_free_all(a, b, want, da, db, dp, on_sim1, back, NULL);
}

static void test_autodiff_moves(void **state) {
  (void)state;
  BK_REQUIRE_DEVICE();
  const float xs[5] = {1.5f, -2.0f, 0.25f, 3.0f, -0.5f};
  const int64_t n5[1] = {5};
  dt_device ad_src = dt_autodiff(dt_sim(0)), ad_dst = dt_autodiff(bk_dev);
  if (dt_device_equal(ad_dst, ad_src)) ad_dst = dt_autodiff(dt_sim(1));
  dt_tensor *x = dt_require_grad(dt_from_floats(ad_src, xs, 1, n5));
  assert_non_null(x);
  dt_tensor *y = dt_to_device(x, ad_dst);
  if (y == NULL) fail_msg("autodiff move: %s", dt_last_error());
  assert_true(dt_device_equal(dt_device_of(y), ad_dst));
  dt_tensor *sq = dt_mul(y, y), *loss = dt_sum(sq);
  assert_non_null(loss);
  assert_int_equal(dt_backward(loss), 0);
  dt_tensor *g = dt_grad(x);
  if (g == NULL) fail_msg("no gradient across the move: %s", dt_last_error());
  assert_true(dt_device_equal(dt_device_of(g), dt_sim(0)));
  float gv[5];
  assert_int_equal(dt_read_floats(g, gv, 5), 0);
  for (int i = 0; i < 5; ++i) assert_float_equal(gv[i], 2.0f * xs[i], 1e-5f);
  bk_free_all(x, y, sq, loss, g, NULL);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_direction),
      cmocka_unit_test(test_chain),
      cmocka_unit_test(test_results_move),
      cmocka_unit_test(test_autodiff_moves),
  };
  return bk_main(argc, argv, "transfers", tests, sizeof tests / sizeof tests[0]);
}
