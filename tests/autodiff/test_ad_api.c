/* tests/autodiff/test_ad_api.c — the public autodiff functions (dt_from_inner, dt_inner,
 * dt_require_grad, dt_detach, dt_backward, dt_grad): exact gradients of small programs,
 * accumulation, detach, intermediates, untracked int/bool tensors, gradients flowing back
 * across dt_to_device between autodiff devices, and every autodiff rule with SPEC §4's
 * precedence at run time (return mode). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ad_util.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static int setup(void **state) {
  (void)state;
  dt_set_error_mode(DT_ERRORS_RETURN);
  return 0;
}

static dt_tensor *leaf(dt_device ad, const float *v, int rank, const int64_t *shape) {
  dt_tensor *t = dt_from_floats(ad, v, rank, shape);
  assert_non_null(t);
  assert_ptr_equal(dt_require_grad(t), t);
  assert_int_equal(dt_last_status(), DT_OK);
  return t;
}

static void assert_floats(const dt_tensor *t, const float *want, int64_t n) {
  assert_int_equal(dt_numel(t), n);
  float *got = ad_read(t);
  for (int64_t i = 0; i < n; i++)
    if (fabsf(got[i] - want[i]) > 1e-5f * (1 + fabsf(want[i])))
      fail_msg("element %lld: got %g, want %g", (long long)i, (double)got[i], (double)want[i]);
  free(got);
}

static void assert_grad(const dt_tensor *t, const float *want, int64_t n) {
  dt_tensor *g = dt_grad(t);
  assert_non_null(g);
  assert_int_equal(dt_last_status(), DT_OK);
  dt_device d = dt_device_of(g);
  assert_false(d.autodiff);
  assert_true(dt_device_equal(d, dt_inner_device(dt_device_of(t))));
  assert_floats(g, want, n);
  dt_free(g);
}

static void assert_no_grad(const dt_tensor *t) {
  assert_null(dt_grad(t));
  assert_int_equal(dt_last_status(), DT_OK);
}

static void assert_failed(dt_status want, const char *rule, const char *fragment) {
  assert_int_equal(dt_last_status(), want);
  const char *msg = dt_last_error();
  if (strstr(msg, rule) == NULL) fail_msg("message lacks [%s]: %s", rule, msg);
  if (fragment != NULL && strstr(msg, fragment) == NULL)
    fail_msg("message lacks \"%s\": %s", fragment, msg);
}

/* d/dx sum(x*x) = 2x; the gradient is a plain tensor on the inner device. */
static void square_gradient(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = leaf(ad, (const float[]){1, -2, 3}, 1, SHAPE(3));
  assert_no_grad(x); /* nothing reached it yet */
  dt_tensor *sq = dt_mul(x, x);
  dt_tensor *loss = dt_sum(sq);
  assert_true(dt_device_equal(dt_device_of(loss), ad));
  assert_int_equal(dt_backward(loss), 0);
  assert_int_equal(dt_last_status(), DT_OK);
  assert_grad(x, (const float[]){2, -4, 6}, 3);
  dt_free(sq);
  dt_free(loss);
  dt_free(x);
}

/* Two backward passes add up, whether over two losses or twice over the same loss. */
static void gradients_accumulate(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = leaf(ad, (const float[]){1, 2}, 1, SHAPE(2));
  for (int i = 0; i < 2; i++) {
    dt_tensor *y = dt_mul_scalar(x, 3.0f);
    dt_tensor *l = dt_sum(y);
    assert_int_equal(dt_backward(l), 0);
    dt_free(y);
    dt_free(l);
  }
  assert_grad(x, (const float[]){6, 6}, 2);
  dt_tensor *sq = dt_mul(x, x);
  dt_tensor *l = dt_sum(sq);
  dt_free(sq); /* the graph keeps what it needs */
  assert_int_equal(dt_backward(l), 0);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(x, (const float[]){6 + 4, 6 + 8}, 2);
  dt_free(l);
  dt_free(x);
}

/* Gradients stop at dt_detach; a detached tensor is untracked on the same autodiff device. */
static void detach_stops_gradients(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = leaf(ad, (const float[]){1, 2, 3}, 1, SHAPE(3));
  dt_tensor *d = dt_detach(x);
  assert_non_null(d);
  assert_true(dt_device_equal(dt_device_of(d), ad));
  assert_floats(d, (const float[]){1, 2, 3}, 3);
  dt_tensor *p = dt_mul(d, x); /* d(sum(d*x))/dx = d, not 2x */
  dt_tensor *l = dt_sum(p);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(x, (const float[]){1, 2, 3}, 3);
  assert_no_grad(d);
  /* plain tensors detach to plain handles */
  dt_tensor *c = dt_from_floats(dt_cpu(), (const float[]){5}, 0, NULL);
  dt_tensor *cd = dt_detach(c);
  assert_non_null(cd);
  assert_true(dt_device_equal(dt_device_of(cd), dt_cpu()));
  assert_floats(cd, (const float[]){5}, 1);
  dt_free(c);
  dt_free(cd);
  dt_free(p);
  dt_free(l);
  dt_free(d);
  dt_free(x);
}

/* Only dt_require_grad leaves and what is computed from them get gradients. */
static void untracked_tensors_get_none(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *w = leaf(ad, (const float[]){2, 3}, 1, SHAPE(2));
  dt_tensor *c = dt_from_floats(ad, (const float[]){5, 7}, 1, SHAPE(2)); /* tracked constant */
  dt_tensor *p = dt_mul(w, c);
  dt_tensor *l = dt_sum(p);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(w, (const float[]){5, 7}, 2);
  assert_no_grad(c);
  /* intermediates whose handle is live keep their gradient too */
  assert_grad(p, (const float[]){1, 1}, 2);
  /* a loss computed from constants only: backward succeeds and reaches nothing */
  dt_tensor *cc = dt_mul(c, c);
  dt_tensor *lc = dt_sum(cc);
  assert_int_equal(dt_backward(lc), 0);
  assert_no_grad(c);
  dt_free(cc);
  dt_free(lc);
  dt_free(p);
  dt_free(l);
  dt_free(c);
  dt_free(w);
}

/* y = 3x; loss = sum(y*y): dloss/dy = 2y, dloss/dx = 18x. */
static void intermediate_gradient(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = leaf(ad, (const float[]){1, -1}, 1, SHAPE(2));
  dt_tensor *y = dt_mul_scalar(x, 3.0f);
  dt_tensor *yy = dt_mul(y, y);
  dt_tensor *l = dt_sum(yy);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(y, (const float[]){6, -6}, 2);
  assert_grad(x, (const float[]){18, -18}, 2);
  assert_grad(l, (const float[]){1}, 1);
  dt_free(yy);
  dt_free(l);
  dt_free(y);
  dt_free(x);
}

/* dt_require_grad on a computed tensor makes it a leaf: gradients stop there. */
static void require_grad_cuts_history(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = leaf(ad, (const float[]){1, 2}, 1, SHAPE(2));
  dt_tensor *y = dt_mul_scalar(x, 3.0f);
  assert_ptr_equal(dt_require_grad(y), y);
  assert_ptr_equal(dt_require_grad(y), y); /* twice is harmless */
  dt_tensor *l = dt_sum(y);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(y, (const float[]){1, 1}, 2);
  assert_no_grad(x);
  dt_free(l);
  dt_free(y);
  dt_free(x);
}

/* dt_inner: a plain, untracked handle on the inner device sharing the values; dt_from_inner:
   an autodiff handle on the same values, a leaf once marked. */
static void inner_and_from_inner(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_sim(0));
  dt_tensor *x = leaf(ad, (const float[]){1, 2, 3, 4}, 2, SHAPE(2, 2));
  dt_tensor *in = dt_inner(x);
  assert_non_null(in);
  assert_true(dt_device_equal(dt_device_of(in), dt_sim(0)));
  assert_int_equal(dt_rank(in), 2);
  assert_floats(in, (const float[]){1, 2, 3, 4}, 4);
  dt_tensor *back = dt_from_inner(ad, in);
  assert_non_null(back);
  assert_int_equal(dt_last_status(), DT_OK);
  assert_true(dt_device_equal(dt_device_of(back), ad));
  assert_floats(back, (const float[]){1, 2, 3, 4}, 4);
  assert_no_grad(back);
  assert_ptr_equal(dt_require_grad(back), back);
  dt_tensor *l = dt_mean(back);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(back, (const float[]){0.25f, 0.25f, 0.25f, 0.25f}, 4);
  assert_no_grad(x); /* back is its own leaf */
  /* int tensors wrap too, and stay untracked */
  dt_tensor *ints = dt_from_ints(dt_sim(0), (const int64_t[]){1, 2}, 1, SHAPE(2));
  dt_tensor *ad_ints = dt_from_inner(ad, ints);
  assert_non_null(ad_ints);
  assert_int_equal(dt_kind_of(ad_ints), DT_INT);
  assert_no_grad(ad_ints);
  dt_free(ints);
  dt_free(ad_ints);
  dt_free(l);
  dt_free(back);
  dt_free(in);
  dt_free(x);
}

/* Int and bool results on autodiff devices report the device and never join the graph. */
static void int_and_bool_untracked(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_cpu());
  dt_tensor *x = leaf(ad, (const float[]){-1, 2}, 1, SHAPE(2));
  dt_tensor *zero = dt_zeros(ad, DT_FLOAT, 0, NULL);
  dt_tensor *mask = dt_greater(x, zero);
  assert_non_null(mask);
  assert_int_equal(dt_kind_of(mask), DT_BOOL);
  assert_true(dt_device_equal(dt_device_of(mask), ad));
  assert_no_grad(mask);
  dt_tensor *i = dt_zeros(ad, DT_INT, 1, SHAPE(2));
  dt_tensor *i2 = dt_add(i, i);
  assert_non_null(i2);
  assert_true(dt_device_equal(dt_device_of(i2), ad));
  assert_no_grad(i2);
  assert_null(dt_require_grad(i));
  assert_failed(DT_ERR_KIND_MISMATCH, "[kind-mismatch]", NULL);
  dt_tensor *isum = dt_sum(i);
  assert_int_equal(dt_backward(isum), DT_ERR_KIND_MISMATCH);
  assert_failed(DT_ERR_KIND_MISMATCH, "[kind-mismatch]", NULL);
  /* where(mask, x, 0): gradient to x where the mask holds, none to the bool condition */
  dt_tensor *w = dt_where(mask, x, zero);
  dt_tensor *l = dt_sum(w);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(x, (const float[]){0, 1}, 2);
  dt_free(w);
  dt_free(l);
  dt_free(isum);
  dt_free(i);
  dt_free(i2);
  dt_free(mask);
  dt_free(zero);
  dt_free(x);
}

/* The headline: autodiff<cpu> -> autodiff<sim:0> -> loss; the cpu leaf gets its gradient,
   and a chain through sim:1 and back works too. */
static void gradients_cross_backends(void **state) {
  (void)state;
  if (!dt_backend_available(DT_BACKEND_SIM)) fail_msg("the sim backend is not available");
  dt_device adc = dt_autodiff(dt_cpu()), ads0 = dt_autodiff(dt_sim(0)),
            ads1 = dt_autodiff(dt_sim(1));
  dt_tensor *x = leaf(adc, (const float[]){1, 2, 3}, 1, SHAPE(3));
  dt_tensor *xs = dt_to_device(x, ads0);
  assert_non_null(xs);
  assert_true(dt_device_equal(dt_device_of(xs), ads0));
  dt_tensor *sq = dt_mul(xs, xs);
  dt_tensor *l = dt_sum(sq);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(x, (const float[]){2, 4, 6}, 3); /* on cpu */
  assert_grad(xs, (const float[]){2, 4, 6}, 3); /* on sim:0 */
  dt_free(l);
  dt_free(sq);
  /* sim:0 -> sim:1 -> cpu, scaled on each */
  dt_tensor *a = dt_mul_scalar(xs, 2.0f);
  dt_tensor *b = dt_to_device(a, ads1);
  dt_tensor *c = dt_mul_scalar(b, 5.0f);
  dt_tensor *d = dt_to_device(c, adc);
  dt_tensor *l2 = dt_sum(d);
  assert_int_equal(dt_backward(l2), 0);
  assert_grad(x, (const float[]){2 + 10, 4 + 10, 6 + 10}, 3);
  dt_tensor *gb = dt_grad(b);
  assert_non_null(gb);
  assert_true(dt_device_equal(dt_device_of(gb), dt_sim(1)));
  dt_free(gb);
  dt_free(a);
  dt_free(b);
  dt_free(c);
  dt_free(d);
  dt_free(l2);
  dt_free(xs);
  dt_free(x);
}

/* ---- rules ---- */

static void from_inner_rules(void **state) {
  (void)state;
  dt_tensor *s0 = dt_zeros(dt_sim(0), DT_FLOAT, 1, SHAPE(2));
  dt_tensor *s1 = dt_zeros(dt_sim(1), DT_FLOAT, 1, SHAPE(2));
  dt_tensor *c = dt_zeros(dt_cpu(), DT_FLOAT, 1, SHAPE(2));
  dt_tensor *adt = dt_zeros(dt_autodiff(dt_sim(0)), DT_FLOAT, 1, SHAPE(2));
  assert_non_null(s0);
  assert_non_null(s1);
  assert_non_null(adt);
  /* the headline bug */
  assert_null(dt_from_inner(dt_autodiff(dt_cpu()), s0));
  assert_failed(DT_ERR_AUTODIFF_INNER_BACKEND, "[autodiff-inner-backend]",
                "dt_from_inner: Autodiff float tensor is on the wrong backend (expected cpu, got sim:0)");
  assert_non_null(strstr(dt_last_error(), "test_ad_api.c:"));
  assert_null(dt_from_inner(dt_autodiff(dt_sim(0)), c));
  assert_failed(DT_ERR_AUTODIFF_INNER_BACKEND, "[autodiff-inner-backend]", "expected sim:0, got cpu");
  assert_null(dt_from_inner(dt_autodiff(dt_sim(0)), s1));
  assert_failed(DT_ERR_DEVICE_MISMATCH, "[device-mismatch]", "sim:1");
  assert_null(dt_from_inner(dt_cpu(), c));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", NULL);
  assert_null(dt_from_inner(dt_autodiff(dt_sim(0)), adt));
  assert_failed(DT_ERR_AUTODIFF_NESTED, "[autodiff-nested]", NULL);
  /* §4: nested decides before expected, and before inner-backend */
  assert_null(dt_from_inner(dt_cpu(), adt));
  assert_failed(DT_ERR_AUTODIFF_NESTED, "[autodiff-nested]", NULL);
  assert_null(dt_from_inner(dt_autodiff(dt_cpu()), adt));
  assert_failed(DT_ERR_AUTODIFF_NESTED, "[autodiff-nested]", NULL);
  /* expected decides before inner-backend */
  assert_null(dt_from_inner(dt_sim(1), c));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", NULL);
  /* invalid handles first of all */
  assert_null(dt_from_inner(dt_cpu(), NULL));
  assert_failed(DT_ERR_INVALID_ARGUMENT, "[invalid-argument]", NULL);
  dt_tensor *dead = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
  dt_free(dead);
  assert_null(dt_from_inner(dt_autodiff(dt_cpu()), dead));
  assert_failed(DT_ERR_INVALID_ARGUMENT, "[invalid-argument]", "freed");
  /* a success resets the status */
  dt_tensor *ok = dt_from_inner(dt_autodiff(dt_sim(1)), s1);
  assert_non_null(ok);
  assert_int_equal(dt_last_status(), DT_OK);
  assert_string_equal(dt_last_error(), "");
  dt_free(ok);
  dt_free(s0);
  dt_free(s1);
  dt_free(c);
  dt_free(adt);
}

static void plain_tensor_rules(void **state) {
  (void)state;
  dt_tensor *c = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
  assert_int_equal(dt_backward(c), DT_ERR_AUTODIFF_EXPECTED);
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]",
                "dt_backward: Expected autodiff-wrapped float tensor, got cpu");
  assert_null(dt_grad(c));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", "dt_grad:");
  assert_null(dt_require_grad(c));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", "dt_require_grad:");
  assert_null(dt_inner(c));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", "dt_inner:");
  /* dt_to_device cannot cross autodiff-ness, either way */
  assert_null(dt_to_device(c, dt_autodiff(dt_cpu())));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", NULL);
  dt_tensor *a = dt_zeros(dt_autodiff(dt_cpu()), DT_FLOAT, 0, NULL);
  assert_null(dt_to_device(a, dt_sim(0)));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", NULL);
  /* NULL and freed handles */
  assert_int_equal(dt_backward(NULL), DT_ERR_INVALID_ARGUMENT);
  assert_null(dt_grad(NULL));
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_null(dt_detach(NULL));
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  dt_free(c);
  assert_null(dt_grad(c));
  assert_failed(DT_ERR_INVALID_ARGUMENT, "[invalid-argument]", "freed");
  /* a loss must have one element */
  dt_tensor *v = dt_zeros(dt_autodiff(dt_cpu()), DT_FLOAT, 1, SHAPE(2));
  assert_non_null(dt_require_grad(v));
  assert_int_equal(dt_backward(v), DT_ERR_SHAPE);
  assert_failed(DT_ERR_SHAPE, "[shape]", NULL);
  /* ... of any rank */
  dt_tensor *one = dt_zeros(dt_autodiff(dt_cpu()), DT_FLOAT, 2, SHAPE(1, 1));
  assert_non_null(dt_require_grad(one));
  assert_int_equal(dt_backward(one), 0);
  assert_grad(one, (const float[]){1}, 1);
  dt_free(one);
  dt_free(v);
  dt_free(a);
}

/* Operations mixing autodiff<cpu> and autodiff<sim:0> and friends, by §4's precedence. */
static void mixed_operand_rules(void **state) {
  (void)state;
  dt_device adc = dt_autodiff(dt_cpu()), ads0 = dt_autodiff(dt_sim(0)),
            ads1 = dt_autodiff(dt_sim(1));
  dt_tensor *ac = dt_ones(adc, DT_FLOAT, 2, SHAPE(2, 2));
  dt_tensor *as0 = dt_ones(ads0, DT_FLOAT, 2, SHAPE(2, 2));
  dt_tensor *as1 = dt_ones(ads1, DT_FLOAT, 2, SHAPE(2, 2));
  dt_tensor *as0i = dt_ones(ads0, DT_INT, 2, SHAPE(2, 2));
  dt_tensor *ps0 = dt_ones(dt_sim(0), DT_FLOAT, 2, SHAPE(2, 2));
  dt_tensor *pc = dt_ones(dt_cpu(), DT_FLOAT, 2, SHAPE(2, 2));
  assert_non_null(dt_require_grad(ac));
  assert_null(dt_add(ac, as0));
  assert_failed(DT_ERR_AUTODIFF_INNER_BACKEND, "[autodiff-inner-backend]",
                "dt_add: Autodiff float tensor is on the wrong backend (expected cpu, got sim:0)");
  assert_null(dt_matmul(as0, ac));
  assert_failed(DT_ERR_AUTODIFF_INNER_BACKEND, "[autodiff-inner-backend]", "expected sim:0, got cpu");
  dt_tensor *parts[3] = {ac, ac, as0};
  assert_null(dt_cat(3, parts, 0));
  assert_failed(DT_ERR_AUTODIFF_INNER_BACKEND, "[autodiff-inner-backend]", NULL);
  assert_null(dt_mse_loss(ac, as0));
  assert_failed(DT_ERR_AUTODIFF_INNER_BACKEND, "[autodiff-inner-backend]", NULL);
  /* inner-backend decides before kind-mismatch */
  assert_null(dt_add(ac, as0i));
  assert_failed(DT_ERR_AUTODIFF_INNER_BACKEND, "[autodiff-inner-backend]", NULL);
  /* autodiff-expected decides before any backend rule */
  assert_null(dt_add(ac, ps0));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", NULL);
  assert_null(dt_add(pc, ac));
  assert_failed(DT_ERR_AUTODIFF_EXPECTED, "[autodiff-expected]", NULL);
  /* same inner backend, other ordinal */
  assert_null(dt_sub(as0, as1));
  assert_failed(DT_ERR_DEVICE_MISMATCH, "[device-mismatch]", NULL);
  /* nested devices */
  (void)dt_autodiff(adc);
  assert_failed(DT_ERR_AUTODIFF_NESTED, "[autodiff-nested]", NULL);
  /* a failed op leaves the graph usable */
  dt_tensor *l = dt_sum(ac);
  assert_int_equal(dt_backward(l), 0);
  assert_grad(ac, (const float[]){1, 1, 1, 1}, 4);
  dt_free(l);
  dt_free(ac);
  dt_free(as0);
  dt_free(as1);
  dt_free(as0i);
  dt_free(ps0);
  dt_free(pc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(square_gradient, setup),
      cmocka_unit_test_setup(gradients_accumulate, setup),
      cmocka_unit_test_setup(detach_stops_gradients, setup),
      cmocka_unit_test_setup(untracked_tensors_get_none, setup),
      cmocka_unit_test_setup(intermediate_gradient, setup),
      cmocka_unit_test_setup(require_grad_cuts_history, setup),
      cmocka_unit_test_setup(inner_and_from_inner, setup),
      cmocka_unit_test_setup(int_and_bool_untracked, setup),
      cmocka_unit_test_setup(gradients_cross_backends, setup),
      cmocka_unit_test_setup(from_inner_rules, setup),
      cmocka_unit_test_setup(plain_tensor_rules, setup),
      cmocka_unit_test_setup(mixed_operand_rules, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
