/* tests/corpus/runtime_sarif_sample.c — a program that fails run-time tag checks on purpose,
 * for the DT_REPORT tests (test_runtime_sarif.c, run_runtime_validator.sh). It prints one
 * "expect RULE LINE FUNCTION OP" line per failing call site, taken from __LINE__ and __func__
 * on the failing call's own line (printed before the call, which may abort), so the tests hold no hard-coded line numbers.
 * usage: runtime_sarif_sample return|abort|clean */
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

static void expect_if(int when, const char *rule, int line, const char *func, const char *op) {
  if (!when) return;
  printf("expect %s %d %s %s\n", rule, line, func, op);
  fflush(stdout);
}

static void mix_backends(int times) {
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){3});
  dt_tensor *b = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){3});
  for (int i = 0; i < times; i++) {
    expect_if(i == 0, "backend-mismatch", __LINE__, __func__, "dt_add"); dt_tensor *c = dt_add(a, b);
    dt_free(c);
  }
  dt_free(b);
  dt_free(a);
}

static void
bad_kinds(dt_device dev)
{
  dt_tensor *f = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){2, 2});
  dt_tensor *m = dt_greater(f, f);
  expect_if(1, "kind-mismatch", __LINE__, __func__, "dt_matmul"); dt_tensor *p = dt_matmul(m, m);
  dt_free(p);
  dt_free(m);
  dt_free(f);
}

static int plain_backward(void) {
  dt_tensor *x = dt_full(dt_sim(1), 2.0f, 0, NULL);
  expect_if(1, "autodiff-expected", __LINE__, __func__, "dt_backward"); int rc = dt_backward(x);
  dt_free(x);
  return rc;
}

static void shapes(void) {
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 2, (const int64_t[]){2, 3});
  expect_if(1, "shape", __LINE__, __func__, "dt_matmul"); dt_tensor *p = dt_matmul(a, a);
  dt_free(p);
  dt_free(a);
}

static void no_call_site(void) {
  /* Through the plain function (a pointer): the runtime knows no file or line. */
  dt_tensor *(*add)(const dt_tensor *, const dt_tensor *) = &dt_add;
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *b = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *c = add(a, b);
  printf("expect backend-mismatch 0 - dt_add\n");
  dt_free(c);
  dt_free(b);
  dt_free(a);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "return";
  if (strcmp(mode, "clean") == 0) {
    dt_tensor *a = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
    dt_tensor *s = dt_sum(a);
    dt_free(s);
    dt_free(a);
    return 0;
  }
  if (strcmp(mode, "abort") == 0) {
    dt_set_error_mode(DT_ERRORS_ABORT);
    bad_kinds(dt_cpu());
    return 0; /* not reached */
  }
  dt_set_error_mode(DT_ERRORS_RETURN);
  mix_backends(3);
  bad_kinds(dt_sim(0));
  plain_backward();
  shapes();
  no_call_site();
  return 0;
}
