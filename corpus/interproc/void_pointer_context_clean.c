// corpus/interproc/void_pointer_context_clean.c — a C-style callback API: a user context is
// passed as `void *` to a visitor called for every parameter; the visitor casts it back and
// accumulates a norm on the context's device. Tags behind `void *` casts and callbacks are not
// all known to the analyzer; nothing may be reported, and the program is correct. Clean.
#include <stdio.h>

#include <dt/dt.h>

typedef void (*param_visitor)(const char *name, dt_tensor *p, void *user);

typedef struct norm_ctx {
  dt_device dev;
  dt_tensor *sum; /* on dev */
} norm_ctx;

static void add_norm(const char *name, dt_tensor *p, void *user) {
  norm_ctx *ctx = (norm_ctx *)user;
  dt_tensor *sq = dt_mul(p, p);
  dt_tensor *s = dt_sum(sq);
  dt_tensor *next = dt_add(ctx->sum, s);
  dt_free(ctx->sum);
  ctx->sum = next;
  dt_free(s);
  dt_free(sq);
  (void)name;
}

static void for_each_param(dt_tensor **params, const char **names, int n, param_visitor f,
                           void *user) {
  for (int i = 0; i < n; i++) f(names[i], params[i], user);
}

int main(void) {
  dt_device dev = dt_sim(1);
  dt_tensor *params[2] = {dt_randn(dev, 1, 2, (const int64_t[]){3, 3}),
                          dt_randn(dev, 2, 1, (const int64_t[]){3})};
  const char *names[2] = {"w", "b"};
  norm_ctx ctx = {dev, dt_zeros(dev, DT_FLOAT, 0, NULL)};
  for_each_param(params, names, 2, add_norm, &ctx);
  float v = 0;
  dt_read_floats(ctx.sum, &v, 1);
  printf("squared norm %f\n", (double)v);
  dt_free(ctx.sum);
  dt_free(params[0]);
  dt_free(params[1]);
  return 0;
}
