/* tests/autodiff/test_ad_memory.c — the graph's memory: a 10,000-step training loop keeps flat
 * live tensor and storage counts; freeing handles (intermediates, leaves, the loss) before or
 * after backward frees what the graph no longer needs; a 100,000-node chain goes through
 * backward and dt_free without recursion; allocation failures injected at every allocation of
 * a forward+backward step are reported (out-of-memory) and leak nothing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "ad_mlp.h"
#include "ad_util.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static void flat_memory(dt_device inner, int steps) {
  dt_device ad = dt_autodiff(inner);
  int64_t t0 = dt__live_tensors(), s0 = dt__live_storages();
  dt_tensor *x, *y;
  ad_mlp_data(ad, 16, 4, 3, &x, &y);
  ad_mlp m;
  assert_int_equal(ad_mlp_init(&m, ad, 4, 8, 1, 5), 0);
  int64_t t100 = 0, s100 = 0;
  float first = 0, last = 0;
  for (int s = 1; s <= steps; s++) {
    last = ad_mlp_step(&m, x, y, 0.02f);
    assert_true(last >= 0);
    if (s == 1) first = last;
    if (s == 100) {
      t100 = dt__live_tensors();
      s100 = dt__live_storages();
    }
  }
  printf("%d steps: loss %.4f -> %.4f; live tensors %lld / %lld, storages %lld / %lld\n", steps,
         (double)first, (double)last, (long long)t100, (long long)dt__live_tensors(),
         (long long)s100, (long long)dt__live_storages());
  assert_int_equal(dt__live_tensors(), t100);
  assert_int_equal(dt__live_storages(), s100);
  assert_true(last < first);
  ad_mlp_free(&m);
  dt_free(x);
  dt_free(y);
  assert_int_equal(dt__live_tensors(), t0);
  assert_int_equal(dt__live_storages(), s0);
}

static void flat_memory_cpu_10000_steps(void **state) {
  (void)state;
  flat_memory(dt_cpu(), 10000);
}

static void flat_memory_sim_1000_steps(void **state) {
  (void)state;
  if (!dt_backend_available(DT_BACKEND_SIM)) fail_msg("the sim backend is not available");
  flat_memory(dt_sim(0), 1000);
}

/* Freeing every handle but the loss before backward: the graph keeps what it needs. Then
   freeing the loss releases everything but the leaf and its gradient. */
static void free_before_backward(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  int64_t t0 = dt__live_tensors(), s0 = dt__live_storages();
  dt_tensor *x = dt_require_grad(dt_from_floats(ad, (const float[]){1, 2, 3}, 1, SHAPE(3)));
  dt_tensor *e = dt_exp(x);
  dt_tensor *p = dt_mul(e, x);
  dt_tensor *l = dt_sum(p);
  dt_free(e);
  dt_free(p);
  int64_t graph_storages = dt__live_storages();
  assert_true(graph_storages > s0 + 2); /* e's value is kept by the graph for exp's gradient */
  assert_int_equal(dt_backward(l), 0);
  dt_free(l);
  /* left: x and its gradient (a tensor the leaf's node holds) */
  assert_int_equal(dt__live_tensors(), t0 + 2);
  assert_int_equal(dt__live_storages(), s0 + 2);
  dt_tensor *g = dt_grad(x);
  float gv[3], xv[3] = {1, 2, 3};
  assert_int_equal(dt_read_floats(g, gv, 3), 0);
  for (int i = 0; i < 3; i++) {
    float want = expf(xv[i]) * (1 + xv[i]);
    assert_true(fabsf(gv[i] - want) < 1e-4f * want);
  }
  dt_free(g);
  dt_free(x);
  assert_int_equal(dt__live_tensors(), t0);
  assert_int_equal(dt__live_storages(), s0);
}

/* The leaf freed before backward: the gradient has nowhere to stay, nothing leaks. */
static void free_leaf_before_backward(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  int64_t t0 = dt__live_tensors(), s0 = dt__live_storages();
  dt_tensor *x = dt_require_grad(dt_from_floats(ad, (const float[]){1, 2}, 1, SHAPE(2)));
  dt_tensor *y = dt_mul(x, x);
  dt_free(x);
  dt_tensor *l = dt_sum(y);
  assert_int_equal(dt_backward(l), 0);
  dt_tensor *gy = dt_grad(y);
  assert_non_null(gy);
  dt_free(gy);
  dt_free(y);
  dt_free(l);
  assert_int_equal(dt__live_tensors(), t0);
  assert_int_equal(dt__live_storages(), s0);
}

/* 100,000 nodes in a chain: ordering, backward and freeing are not recursive. */
static void deep_chain(void **state) {
  (void)state;
  enum { DEPTH = 100000 };
  dt_device ad = dt_autodiff(dt_cpu());
  int64_t t0 = dt__live_tensors(), s0 = dt__live_storages();
  dt_tensor *x = dt_require_grad(dt_from_floats(ad, (const float[]){0.5f}, 0, NULL));
  dt_tensor *cur = dt_add_scalar(x, 0.0f);
  for (int i = 0; i < DEPTH; i++) {
    dt_tensor *next = dt_add_scalar(cur, 1e-3f);
    assert_non_null(next);
    dt_free(cur);
    cur = next;
  }
  assert_int_equal(dt_backward(cur), 0);
  dt_tensor *g = dt_grad(x);
  assert_float_equal(ad_scalar(g), 1.0f, 0);
  dt_free(g);
  dt_free(cur);
  dt_free(x);
  assert_int_equal(dt__live_tensors(), t0);
  assert_int_equal(dt__live_storages(), s0);
}

/* One forward+backward on autodiff<cpu> tolerating failures anywhere (NULL propagates in
   return mode). Returns the status of the first failed call, DT_OK when none failed. */
static dt_status one_step(void) {
  dt_status first = DT_OK;
#define NOTE() \
  if (first == DT_OK) first = dt_last_status()
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = dt_from_floats(ad, (const float[]){1, 2, 3, 4, 5, 6}, 2, SHAPE(2, 3));
  NOTE();
  dt_tensor *w = dt_from_floats(ad, (const float[]){.1f, .2f, .3f, .4f, .5f, .6f}, 2, SHAPE(3, 2));
  NOTE();
  if (w != NULL && dt_require_grad(w) == NULL) NOTE();
  dt_tensor *xw = dt_matmul(x, w);
  NOTE();
  dt_tensor *s = dt_sigmoid(xw);
  NOTE();
  dt_tensor *parts[2] = {s, xw};
  dt_tensor *c = dt_cat(2, parts, 1);
  NOTE();
  dt_tensor *l = dt_mean(c);
  NOTE();
  int rc = dt_backward(l);
  NOTE();
  dt_tensor *g = dt_grad(w);
  NOTE();
  if (first == DT_OK) {
    assert_int_equal(rc, 0);
    assert_non_null(g);
  }
  dt_free(g);
  dt_free(l);
  dt_free(c);
  dt_free(s);
  dt_free(xw);
  dt_free(w);
  dt_free(x);
#undef NOTE
  return first;
}

static void allocation_failures(void **state) {
  (void)state;
  dt_set_error_mode(DT_ERRORS_RETURN);
  int64_t t0 = dt__live_tensors(), s0 = dt__live_storages();
  int failures = 0, n;
  for (n = 1; n < 1000; n++) {
    dt__fail_alloc_after(n);
    dt_status st = one_step();
    dt__fail_alloc_after(0);
    assert_int_equal(dt__live_tensors(), t0);
    assert_int_equal(dt__live_storages(), s0);
    if (st == DT_OK) break; /* the n-th allocation is past the step: every site was hit */
    if (st != DT_ERR_OUT_OF_MEMORY) fail_msg("allocation %d: status %d, not out-of-memory", n, (int)st);
    failures++;
  }
  printf("%d allocation sites failed in turn, each reported and leak-free\n", failures);
  assert_true(failures > 20); /* forward and backward both allocate */
  dt_set_error_mode(DT_ERRORS_ABORT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(flat_memory_cpu_10000_steps),
      cmocka_unit_test(flat_memory_sim_1000_steps),
      cmocka_unit_test(free_before_backward),
      cmocka_unit_test(free_leaf_before_backward),
      cmocka_unit_test(deep_chain),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
