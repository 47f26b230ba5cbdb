/* tests/autodiff/test_ad_train.c — a two-layer network trains on the autodiff device named by
 * argv[1] (cpu, sim, cuda): its loss falls, and its losses match the same training on
 * autodiff<cpu> step for step (the gradients do not depend on the backend). cuda is reported
 * as skipped where no GPU is present; a missing cpu or sim backend is a failure. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ad_mlp.h"
#include "ad_util.h"

enum { STEPS = 300, BATCH = 32, IN = 4, HIDDEN = 16 };
static dt_device g_inner;

/* Trains STEPS steps on autodiff<inner>; fills losses[STEPS]. */
static void train(dt_device inner, float *losses) {
  dt_device ad = dt_autodiff(inner);
  ad_mlp m;
  dt_tensor *x, *y;
  ad_mlp_data(ad, BATCH, IN, 7, &x, &y);
  assert_non_null(x);
  assert_non_null(y);
  assert_int_equal(ad_mlp_init(&m, ad, IN, HIDDEN, 1, 11), 0);
  for (int s = 0; s < STEPS; s++) {
    losses[s] = ad_mlp_step(&m, x, y, 0.05f);
    assert_true(losses[s] >= 0);
  }
  ad_mlp_free(&m);
  dt_free(x);
  dt_free(y);
}

static void loss_falls(void **state) {
  (void)state;
  float losses[STEPS];
  int64_t t0 = dt__live_tensors(), s0 = dt__live_storages();
  train(g_inner, losses);
  printf("loss: first %.4f, after %d steps %.4f\n", (double)losses[0], STEPS,
         (double)losses[STEPS - 1]);
  assert_true(losses[STEPS - 1] < 0.5f * losses[0]);
  /* and it keeps falling over the second half */
  assert_true(losses[STEPS - 1] < losses[STEPS / 2]);
  assert_int_equal(dt__live_tensors(), t0);
  assert_int_equal(dt__live_storages(), s0);
}

static void matches_cpu(void **state) {
  (void)state;
  if (g_inner.backend == DT_BACKEND_CPU) {
    /* the cpu run against itself: deterministic */
    float a[STEPS], b[STEPS];
    train(g_inner, a);
    train(g_inner, b);
    assert_memory_equal(a, b, sizeof a);
    return;
  }
  float ref[STEPS], got[STEPS];
  train(dt_cpu(), ref);
  train(g_inner, got);
  for (int s = 0; s < 50; s++)
    if (fabsf(ref[s] - got[s]) > 1e-3f * (1 + ref[s]))
      fail_msg("step %d: cpu loss %g, this backend %g", s, (double)ref[s], (double)got[s]);
}

int main(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "cpu";
  if (ad_device_by_name(name, &g_inner) != 0) {
    fprintf(stderr, "usage: %s cpu|sim|cuda\n", argv[0]);
    return 2;
  }
  if (g_inner.backend == DT_BACKEND_CUDA && !dt_backend_available(DT_BACKEND_CUDA)) {
    fprintf(stderr, "SKIP: cuda is not available on this machine\n");
    return 77; /* ctest: SKIP_RETURN_CODE */
  }
  /* cpu and sim must exist: a missing one fails here (abort mode names the reason) */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(loss_falls),
      cmocka_unit_test(matches_cpu),
  };
  return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
