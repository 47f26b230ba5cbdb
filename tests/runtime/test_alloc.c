/* tests/runtime/test_alloc.c — allocation failure injected at each site (dt__fail_alloc_after):
 * for every creation function and operation, the k-th allocation is made to fail for k = 1, 2,
 * ... until the call succeeds; each failure must give out-of-memory, return NULL, and leave no
 * tensor or storage behind. */
#include "rt_util.h"

#include <stdio.h>

typedef struct ctx {
  dt_tensor *a, *b, *row, *cond, *ia, *sim0, *sim0b;
} ctx;

typedef dt_tensor *(*call_fn)(const ctx *c);

static dt_tensor *c_zeros(const ctx *c) {
  (void)c;
  return dt_zeros(dt_cpu(), DT_FLOAT, 2, SHAPE(4, 5));
}
static dt_tensor *c_ones_sim(const ctx *c) {
  (void)c;
  return dt_from_floats(dt_sim(1), FLOATS(1, 2), 1, SHAPE(2));
}
static dt_tensor *c_full(const ctx *c) {
  (void)c;
  return dt_full(dt_cpu(), 2.0f, 1, SHAPE(3));
}
static dt_tensor *c_from_ints(const ctx *c) {
  (void)c;
  return dt_from_ints(dt_cpu(), INTS(1, 2), 1, SHAPE(2));
}
static dt_tensor *c_randn(const ctx *c) {
  (void)c;
  return dt_randn(dt_cpu(), 7, 2, SHAPE(3, 3));
}
static dt_tensor *c_randn_sim(const ctx *c) {
  (void)c;
  return dt_randn(dt_sim(0), 7, 1, SHAPE(5));
}
static dt_tensor *c_add(const ctx *c) { return dt_add(c->a, c->row); }
static dt_tensor *c_greater(const ctx *c) { return dt_greater(c->a, c->b); }
static dt_tensor *c_where(const ctx *c) { return dt_where(c->cond, c->a, c->b); }
static dt_tensor *c_scalar(const ctx *c) { return dt_mul_scalar(c->ia, 3.0f); }
static dt_tensor *c_unary(const ctx *c) { return dt_tanh(c->a); }
static dt_tensor *c_sum(const ctx *c) { return dt_sum(c->a); }
static dt_tensor *c_mean(const ctx *c) { return dt_mean(c->a); }
static dt_tensor *c_sum_dim(const ctx *c) { return dt_sum_dim(c->a, 1); }
static dt_tensor *c_matmul(const ctx *c) {
  dt_tensor *t = dt_transpose(c->b);
  if (t == NULL) return NULL;
  dt_tensor *r = dt_matmul(c->a, t);
  dt_free(t);
  return r;
}
static dt_tensor *c_reshape(const ctx *c) { return dt_reshape(c->a, 1, SHAPE(12)); }
static dt_tensor *c_transpose(const ctx *c) { return dt_transpose(c->a); }
static dt_tensor *c_cat(const ctx *c) {
  dt_tensor *ts[] = {c->a, c->b, c->a};
  return dt_cat(3, ts, 0);
}
static dt_tensor *c_mse(const ctx *c) { return dt_mse_loss(c->a, c->b); }
static dt_tensor *c_mse_broadcast(const ctx *c) { return dt_mse_loss(c->a, c->row); }
static dt_tensor *c_to_sim(const ctx *c) { return dt_to_device(c->a, dt_sim(0)); }
static dt_tensor *c_to_cpu(const ctx *c) { return dt_to_device(c->sim0, dt_cpu()); }
static dt_tensor *c_sim_to_sim(const ctx *c) { return dt_to_device(c->sim0, dt_sim(1)); }
static dt_tensor *c_autodiff_zeros(const ctx *c) {
  (void)c;
  return dt_zeros(dt_autodiff(dt_sim(0)), DT_INT, 1, SHAPE(2));
}

static void inject_each_site(const char *name, call_fn fn, const ctx *c) {
  const int64_t tensors = dt__live_tensors(), storages = dt__live_storages();
  int failures = 0;
  for (int64_t k = 1; k < 100; k++) {
    dt__fail_alloc_after(k);
    dt_tensor *r = fn(c);
    dt__fail_alloc_after(0);
    if (r != NULL) {
      assert_int_equal(dt_last_status(), DT_OK);
      dt_free(r);
      assert_int_equal(dt__live_tensors(), tensors);
      assert_int_equal(dt__live_storages(), storages);
      assert_true(failures == k - 1); /* every earlier site failed cleanly */
      return;
    }
    if (dt_last_status() != DT_ERR_OUT_OF_MEMORY)
      fprintf(stderr, "%s, site %lld: %s\n", name, (long long)k, dt_last_error());
    assert_int_equal(dt_last_status(), DT_ERR_OUT_OF_MEMORY);
    assert_int_equal(dt__live_tensors(), tensors);
    assert_int_equal(dt__live_storages(), storages);
    failures++;
  }
  fail_msg("%s never succeeded", name);
}

static void test_every_site(void **state) {
  (void)state;
  ctx c;
  c.a = rt_iota(dt_cpu(), 2, SHAPE(3, 4));
  c.b = rt_iota(dt_cpu(), 2, SHAPE(3, 4));
  c.row = rt_iota(dt_cpu(), 1, SHAPE(4));
  c.cond = dt_greater(c.a, c.row);
  c.ia = dt_from_ints(dt_cpu(), INTS(1, 2, 3), 1, SHAPE(3));
  c.sim0 = dt_to_device(c.a, dt_sim(0));
  c.sim0b = dt_to_device(c.b, dt_sim(0));
  const struct {
    const char *name;
    call_fn fn;
    int min_sites; /* allocations the call makes at least */
  } calls[] = {
      {"dt_zeros", c_zeros, 3},        {"dt_from_floats(sim)", c_ones_sim, 3},
      {"dt_full", c_full, 3},          {"dt_from_ints", c_from_ints, 3},
      {"dt_randn", c_randn, 4},        {"dt_randn(sim)", c_randn_sim, 4},
      {"dt_add", c_add, 3},            {"dt_greater", c_greater, 3},
      {"dt_where", c_where, 3},        {"dt_mul_scalar", c_scalar, 3},
      {"dt_tanh", c_unary, 3},         {"dt_sum", c_sum, 3},
      {"dt_mean", c_mean, 3},          {"dt_sum_dim", c_sum_dim, 3},
      {"dt_matmul", c_matmul, 6},      {"dt_reshape", c_reshape, 1},
      {"dt_transpose", c_transpose, 3}, {"dt_cat", c_cat, 3},
      {"dt_mse_loss", c_mse, 3},       {"dt_mse_loss(broadcast)", c_mse_broadcast, 9},
      {"dt_to_device(sim)", c_to_sim, 3}, {"dt_to_device(cpu)", c_to_cpu, 3},
      {"dt_to_device(sim:0 -> sim:1)", c_sim_to_sim, 4},
      {"dt_zeros(autodiff<sim:0>)", c_autodiff_zeros, 3},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    /* The call must fail at each of its first min_sites allocations. */
    dt__fail_alloc_after(calls[i].min_sites);
    dt_tensor *r = calls[i].fn(&c);
    dt__fail_alloc_after(0);
    if (r != NULL) fail_msg("%s makes fewer than %d allocations", calls[i].name, calls[i].min_sites);
    inject_each_site(calls[i].name, calls[i].fn, &c);
  }
  rt_free_all(c.a, c.b, c.row, c.cond, c.ia, c.sim0, c.sim0b, NULL);
}

static void test_injection_is_one_shot(void **state) {
  (void)state;
  dt__fail_alloc_after(1);
  rt_assert_failed(dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL), DT_ERR_OUT_OF_MEMORY, "dt_zeros", NULL);
  dt_tensor *t = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
  assert_non_null(t);
  dt_free(t);
  /* 0 disables; negative counts too. */
  dt__fail_alloc_after(-5);
  t = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
  assert_non_null(t);
  dt_free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_site),
      cmocka_unit_test(test_injection_is_one_shot),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
