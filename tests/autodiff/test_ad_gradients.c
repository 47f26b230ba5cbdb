/* tests/autodiff/test_ad_gradients.c — every float operation's gradient against central finite
 * differences, broadcasting included, on the autodiff device named by argv[1] (cpu, sim, cuda).
 * A backend that is not available fails the test (it is never skipped as passed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ad_util.h"

#define S(...) {__VA_ARGS__}
#define IN(r, sh, lo, hi) {r, S sh, lo, hi, 0}
#define IN_AWAY(r, sh, away, hi) {r, S sh, 0, hi, away}

static dt_device g_ad; /* the autodiff device under test */

static dt_tensor *f_add(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_add(in[0], in[1]); }
static dt_tensor *f_sub(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_sub(in[0], in[1]); }
static dt_tensor *f_mul(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_mul(in[0], in[1]); }
static dt_tensor *f_div(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_div(in[0], in[1]); }
static dt_tensor *f_square(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_mul(in[0], in[0]); }
static dt_tensor *f_matmul(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_matmul(in[0], in[1]); }
static dt_tensor *f_add_scalar(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_add_scalar(in[0], 1.5f); }
static dt_tensor *f_mul_scalar(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_mul_scalar(in[0], -2.5f); }
static dt_tensor *f_neg(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_neg(in[0]); }
static dt_tensor *f_exp(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_exp(in[0]); }
static dt_tensor *f_log(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_log(in[0]); }
static dt_tensor *f_relu(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_relu(in[0]); }
static dt_tensor *f_sigmoid(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_sigmoid(in[0]); }
static dt_tensor *f_tanh(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_tanh(in[0]); }
static dt_tensor *f_sum(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_sum(in[0]); }
static dt_tensor *f_mean(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_mean(in[0]); }
static dt_tensor *f_sum_dim0(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_sum_dim(in[0], 0); }
static dt_tensor *f_sum_dim1(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_sum_dim(in[0], 1); }
static dt_tensor *f_sum_dim_neg(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_sum_dim(in[0], -1); }
static dt_tensor *f_reshape(dt_device ad, dt_tensor *const *in) {
  (void)ad;
  return dt_reshape(in[0], 3, (const int64_t[]){3, 1, 2});
}
static dt_tensor *f_transpose(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_transpose(in[0]); }
static dt_tensor *f_cat0(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_cat(2, in, 0); }
static dt_tensor *f_cat1(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_cat(3, in, 1); }
static dt_tensor *f_cat_neg(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_cat(2, in, -1); }
static dt_tensor *f_mse(dt_device ad, dt_tensor *const *in) { (void)ad; return dt_mse_loss(in[0], in[1]); }

/* where(c > 0, a, b) with a fixed condition pattern of shape [2, 3]. */
static dt_tensor *f_where(dt_device ad, dt_tensor *const *in) {
  const float pattern[6] = {1, -1, 1, -1, -1, 1};
  dt_tensor *c = dt_from_floats(ad, pattern, 2, (const int64_t[]){2, 3});
  dt_tensor *zero = dt_zeros(ad, DT_FLOAT, 0, NULL);
  dt_tensor *cond = dt_greater(c, zero);
  dt_tensor *r = dt_where(cond, in[0], in[1]);
  dt_free(c);
  dt_free(zero);
  dt_free(cond);
  return r;
}

/* a*b + a: one input reaching the result along two paths. */
static dt_tensor *f_two_paths(dt_device ad, dt_tensor *const *in) {
  (void)ad;
  dt_tensor *p = dt_mul(in[0], in[1]);
  dt_tensor *r = dt_add(p, in[0]);
  dt_free(p);
  return r;
}

/* A layer: tanh(sigmoid(x W + b) * 2 - 1), intermediates freed before backward. */
static dt_tensor *f_layer(dt_device ad, dt_tensor *const *in) {
  (void)ad;
  dt_tensor *xw = dt_matmul(in[0], in[1]);
  dt_tensor *z = dt_add(xw, in[2]);
  dt_tensor *s = dt_sigmoid(z);
  dt_tensor *m = dt_mul_scalar(s, 2.0f);
  dt_tensor *c = dt_add_scalar(m, -1.0f);
  dt_tensor *r = dt_tanh(c);
  dt_free(xw);
  dt_free(z);
  dt_free(s);
  dt_free(m);
  dt_free(c);
  return r;
}

/* A moving value: to the other autodiff device and back (gradients flow back across). */
static dt_device other_device(dt_device ad) {
  dt_device inner = dt_inner_device(ad);
  if (inner.backend == DT_BACKEND_CPU) return dt_autodiff(dt_sim(0));
  return dt_autodiff(dt_cpu());
}
static dt_tensor *f_to_device(dt_device ad, dt_tensor *const *in) {
  dt_tensor *moved = dt_to_device(in[0], other_device(ad));
  dt_tensor *e = dt_exp(moved);
  dt_tensor *m = dt_mul(e, e);
  dt_tensor *back = dt_to_device(m, ad);
  dt_tensor *r = dt_mul(back, in[1]);
  dt_free(moved);
  dt_free(e);
  dt_free(m);
  dt_free(back);
  return r;
}
/* sim:0 -> sim:1 -> original (the same backend, another ordinal). */
static dt_tensor *f_to_ordinal(dt_device ad, dt_tensor *const *in) {
  dt_tensor *moved = dt_to_device(in[0], dt_autodiff(dt_sim(1)));
  dt_tensor *s = dt_sigmoid(moved);
  dt_tensor *r = dt_to_device(s, ad);
  dt_free(moved);
  dt_free(s);
  return r;
}
/* to_device onto the same device: a copy that stays in the graph. */
static dt_tensor *f_to_same(dt_device ad, dt_tensor *const *in) {
  dt_tensor *c = dt_to_device(in[0], ad);
  dt_tensor *r = dt_mul_scalar(c, 3.0f);
  dt_free(c);
  return r;
}

typedef struct grad_case {
  const char *name;
  ad_fn fn;
  int n;
  ad_input_spec in[3];
} grad_case;

static const grad_case k_cases[] = {
    {"add", f_add, 2, {IN(2, (2, 3), -1, 1), IN(2, (2, 3), -1, 1)}},
    {"add_broadcast_row", f_add, 2, {IN(2, (2, 3), -1, 1), IN(1, (3), -1, 1)}},
    {"add_broadcast_both", f_add, 2, {IN(2, (2, 1), -1, 1), IN(2, (1, 3), -1, 1)}},
    {"add_broadcast_rank0", f_add, 2, {IN(0, (0), -1, 1), IN(3, (2, 2, 3), -1, 1)}},
    {"sub", f_sub, 2, {IN(2, (2, 3), -1, 1), IN(2, (2, 3), -1, 1)}},
    {"sub_broadcast", f_sub, 2, {IN(1, (3), -1, 1), IN(2, (2, 1), -1, 1)}},
    {"mul", f_mul, 2, {IN(2, (2, 3), -1, 1), IN(2, (2, 3), -1, 1)}},
    {"mul_broadcast", f_mul, 2, {IN(3, (2, 1, 3), -1, 1), IN(2, (4, 1), -1, 1)}},
    {"mul_same_input", f_square, 1, {IN(2, (2, 3), -1, 1)}},
    {"div", f_div, 2, {IN(2, (2, 3), -1, 1), IN(2, (2, 3), 0.5f, 2)}},
    {"div_broadcast", f_div, 2, {IN(1, (3), -1, 1), IN(2, (2, 1), 0.5f, 2)}},
    {"matmul", f_matmul, 2, {IN(2, (2, 3), -1, 1), IN(2, (3, 4), -1, 1)}},
    {"matmul_vector_shapes", f_matmul, 2, {IN(2, (1, 5), -1, 1), IN(2, (5, 1), -1, 1)}},
    {"add_scalar", f_add_scalar, 1, {IN(2, (2, 3), -1, 1)}},
    {"mul_scalar", f_mul_scalar, 1, {IN(2, (2, 3), -1, 1)}},
    {"neg", f_neg, 1, {IN(2, (2, 3), -1, 1)}},
    {"exp", f_exp, 1, {IN(2, (2, 3), -1, 1)}},
    {"log", f_log, 1, {IN(2, (2, 3), 0.5f, 2)}},
    {"relu", f_relu, 1, {IN_AWAY(2, (3, 4), 0.1f, 1)}},
    {"sigmoid", f_sigmoid, 1, {IN(2, (2, 3), -2, 2)}},
    {"tanh", f_tanh, 1, {IN(2, (2, 3), -1.5f, 1.5f)}},
    {"sum", f_sum, 1, {IN(2, (2, 3), -1, 1)}},
    {"sum_rank0", f_sum, 1, {IN(0, (0), -1, 1)}},
    {"mean", f_mean, 1, {IN(3, (2, 3, 2), -1, 1)}},
    {"sum_dim0", f_sum_dim0, 1, {IN(2, (2, 3), -1, 1)}},
    {"sum_dim1", f_sum_dim1, 1, {IN(3, (2, 3, 2), -1, 1)}},
    {"sum_dim_negative_axis", f_sum_dim_neg, 1, {IN(3, (2, 3, 2), -1, 1)}},
    {"reshape", f_reshape, 1, {IN(2, (2, 3), -1, 1)}},
    {"transpose", f_transpose, 1, {IN(2, (2, 3), -1, 1)}},
    {"cat_axis0", f_cat0, 2, {IN(2, (1, 3), -1, 1), IN(2, (2, 3), -1, 1)}},
    {"cat_axis1_three", f_cat1, 3, {IN(2, (2, 1), -1, 1), IN(2, (2, 3), -1, 1), IN(2, (2, 2), -1, 1)}},
    {"cat_negative_axis", f_cat_neg, 2, {IN(3, (2, 2, 1), -1, 1), IN(3, (2, 2, 2), -1, 1)}},
    {"where", f_where, 2, {IN(2, (2, 3), -1, 1), IN(2, (2, 3), -1, 1)}},
    {"where_broadcast", f_where, 2, {IN(1, (3), -1, 1), IN(2, (2, 1), -1, 1)}},
    {"mse_loss", f_mse, 2, {IN(2, (4, 3), -1, 1), IN(2, (4, 3), -1, 1)}},
    {"mse_loss_broadcast", f_mse, 2, {IN(2, (4, 3), -1, 1), IN(1, (3), -1, 1)}},
    {"two_paths", f_two_paths, 2, {IN(2, (2, 3), -1, 1), IN(1, (3), -1, 1)}},
    {"layer", f_layer, 3, {IN(2, (4, 3), -1, 1), IN(2, (3, 5), -1, 1), IN(1, (5), -1, 1)}},
    {"to_device_across_backends", f_to_device, 2, {IN(2, (2, 3), -1, 1), IN(2, (2, 3), -1, 1)}},
    {"to_device_same_device", f_to_same, 1, {IN(2, (2, 3), -1, 1)}},
};
static const grad_case k_ordinal_case = {"to_device_across_ordinals", f_to_ordinal, 1,
                                         {IN(2, (2, 3), -2, 2)}};

static void run_case(void **state) {
  const grad_case *c = *state;
  uint64_t seed = 0x5eed;
  for (const char *p = c->name; *p; p++) seed = seed * 131 + (unsigned char)*p;
  ad_gradcheck(g_ad, c->fn, c->n, c->in, seed);
}

/* The sim backend must exist for the cross-backend cases; a missing backend is a failure. */
static void backend_present(void **state) {
  (void)state;
  dt_backend b = dt_inner_device(g_ad).backend;
  if (!dt_backend_available(b)) fail_msg("backend %d is not available on this machine", (int)b);
  if (!dt_backend_available(DT_BACKEND_SIM)) fail_msg("the sim backend is not available");
}

int main(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "cpu";
  dt_device inner;
  if (ad_device_by_name(name, &inner) != 0) {
    fprintf(stderr, "usage: %s cpu|sim|cuda\n", argv[0]);
    return 2;
  }
  g_ad = dt_autodiff(inner);
  if (inner.backend == DT_BACKEND_CUDA && !dt_backend_available(DT_BACKEND_CUDA)) {
    fprintf(stderr, "SKIP: cuda is not available on this machine\n");
    return 77; /* ctest reports it as skipped (SKIP_RETURN_CODE) */
  }
  enum { N = sizeof k_cases / sizeof k_cases[0] };
  struct CMUnitTest tests[N + 2];
  char names[N + 2][64];
  int k = 0;
  tests[k++] = (struct CMUnitTest){"backend_present", backend_present, NULL, NULL, NULL};
  for (int i = 0; i < N; i++, k++) {
    snprintf(names[k], sizeof names[k], "%s_%s", k_cases[i].name, name);
    tests[k] = (struct CMUnitTest){names[k], run_case, NULL, NULL, (void *)&k_cases[i]};
  }
  if (inner.backend == DT_BACKEND_SIM) {
    snprintf(names[k], sizeof names[k], "%s_%s", k_ordinal_case.name, name);
    tests[k++] = (struct CMUnitTest){names[k - 1], run_case, NULL, NULL, (void *)&k_ordinal_case};
  }
  return _cmocka_run_group_tests(name, tests, (size_t)k, NULL, NULL);
}
