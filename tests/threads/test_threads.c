/* tests/threads/test_threads.c — the runtime used from several threads at once: independent
 * work on cpu, sim:0 and sim:1 (including autodiff training steps) giving the same numbers as a
 * single-threaded run; tensors shared read-only between threads, with views and frees racing on
 * the reference counts; tensors freed on another thread than the one that made them; failures
 * racing with successes, each thread seeing only its own status and message; and the error mode
 * set while other threads fail; backward passes on several threads at once over graphs that
 * share a trainable leaf (and a shared intermediate), whose gradients must add up exactly; one
 * handle freed by several threads at once (exactly one free wins); large cpu loops, which the
 * cpu backend splits over its worker pool, started from several threads at once (one gets the
 * pool, the others run alone) and matching plain C loops exactly. Built normally
 * (threads.runtime) and with ThreadSanitizer (threads.tsan, tests/threads/run_tsan.sh), which
 * must report no race. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "dt/dt.h"
#include "internal.h" /* dt__live_tensors */

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define N_THREADS 4
#define ROUNDS 12

/* Runs body(i) on N_THREADS threads started together; returns when all are done. Each body
   returns NULL on success or a static message saying what went wrong. */
typedef struct run_arg {
  pthread_barrier_t *start;
  const char *(*body)(int);
  int index;
  const char *failure;
} run_arg;

static void *run_one(void *p) {
  run_arg *a = p;
  pthread_barrier_wait(a->start);
  a->failure = a->body(a->index);
  return NULL;
}

static void run_threads(const char *(*body)(int)) {
  pthread_t th[N_THREADS];
  run_arg args[N_THREADS];
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, N_THREADS);
  for (int i = 0; i < N_THREADS; i++) {
    args[i] = (run_arg){&start, body, i, NULL};
    assert_int_equal(pthread_create(&th[i], NULL, run_one, &args[i]), 0);
  }
  for (int i = 0; i < N_THREADS; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&start);
  for (int i = 0; i < N_THREADS; i++)
    if (args[i].failure != NULL) fail_msg("thread %d: %s", i, args[i].failure);
}

static int setup(void **state) {
  (void)state;
  dt_set_error_mode(DT_ERRORS_RETURN);
  return 0;
}

/* The device thread i works on in round r: cpu, sim:0 and sim:1 in turn. */
static dt_device device_for(int i) {
  switch (i % 3) {
    case 0:
      return dt_cpu();
    case 1:
      return dt_sim(0);
    default:
      return dt_sim(1);
  }
}

/* ---- first use and transfers: every lazily made part of the runtime (backend registry,
   simulated device memory and thread pool, handle table) is first reached by several threads at
   once; tensors move between cpu, sim:0 and sim:1, plain and autodiff, gradients flowing back
   across the moves ---- */

static const char *first_use_body(int i) {
  for (int r = 0; r < ROUNDS; r++) {
    dt_device from = device_for(i + r), to = device_for(i + r + 1);
    float v[6] = {1, 2, 3, 4, 5, (float)i};
    dt_tensor *a = dt_from_floats(from, v, 2, SHAPE(2, 3));
    dt_tensor *b = a ? dt_to_device(a, to) : NULL;
    dt_tensor *c = b ? dt_to_device(b, from) : NULL;
    float back[6] = {0};
    if (c == NULL || dt_read_floats(c, back, 6) != 0) return "a plain transfer failed";
    if (memcmp(back, v, sizeof v) != 0) return "a plain transfer changed the values";
    dt_tensor *w = dt_require_grad(dt_from_floats(dt_autodiff(from), v, 2, SHAPE(2, 3)));
    dt_tensor *moved = w ? dt_to_device(w, dt_autodiff(to)) : NULL;
    dt_tensor *loss = moved ? dt_sum(moved) : NULL;
    if (loss == NULL || dt_backward(loss) != 0) return "an autodiff transfer failed";
    dt_tensor *g = dt_grad(w);
    float ones[6] = {0};
    if (g == NULL || dt_read_floats(g, ones, 6) != 0 || ones[0] != 1.0f || ones[5] != 1.0f)
      return "the gradient did not come back across the move";
    dt_free(g);
    dt_free(loss);
    dt_free(moved);
    dt_free(w);
    dt_free(c);
    dt_free(b);
    dt_free(a);
  }
  return dt_last_status() == DT_OK ? NULL : "a free reported an error";
}

static void test_first_use_and_transfers(void **state) {
  (void)state;
  run_threads(first_use_body);
}

/* ---- independent work: one training step of a small model per device ---- */

/* Loss and gradient sum of a linear model y = x w on d (autodiff), seeded by seed. */
static const char *train_step(dt_device d, uint64_t seed, float out[2]) {
  dt_device ad = dt_autodiff(d);
  dt_tensor *x = dt_randn(ad, seed, 2, SHAPE(16, 8));
  dt_tensor *w = dt_require_grad(dt_randn(ad, seed + 1, 2, SHAPE(8, 1)));
  dt_tensor *y = dt_full(ad, 0.5f, 2, SHAPE(16, 1));
  dt_tensor *xw = dt_matmul(x, w);
  dt_tensor *p = dt_tanh(xw);
  dt_tensor *loss = dt_mse_loss(p, y);
  if (loss == NULL) return "forward failed";
  if (dt_backward(loss) != 0) return "backward failed";
  dt_tensor *g = dt_grad(w);
  dt_tensor *gs = g ? dt_sum(g) : NULL;
  if (gs == NULL) return "no gradient";
  if (dt_read_floats(loss, &out[0], 1) != 0 || dt_read_floats(gs, &out[1], 1) != 0)
    return "read failed";
  dt_free(gs);
  dt_free(g);
  dt_free(loss);
  dt_free(p);
  dt_free(xw);
  dt_free(y);
  dt_free(w);
  dt_free(x);
  if (dt_last_status() != DT_OK) return "a free reported an error";
  return NULL;
}

static float g_expected[N_THREADS][2];

static const char *independent_body(int i) {
  for (int r = 0; r < ROUNDS; r++) {
    float got[2];
    const char *why = train_step(device_for(i + r), 100u + (uint64_t)i, got);
    if (why != NULL) return why;
    if (fabsf(got[0] - g_expected[i][0]) > 1e-4f || fabsf(got[1] - g_expected[i][1]) > 1e-4f)
      return "numbers differ from the single-threaded run";
  }
  return NULL;
}

static void test_independent_training(void **state) {
  (void)state;
  /* The same step on every device gives the same numbers (to rounding): reference on cpu. */
  for (int i = 0; i < N_THREADS; i++) assert_null(train_step(dt_cpu(), 100u + (uint64_t)i, g_expected[i]));
  run_threads(independent_body);
}

/* ---- shared read-only tensors, views and frees racing on reference counts ---- */

static dt_tensor *g_shared[3]; /* one per device, made before the threads start */

static const char *shared_body(int i) {
  for (int r = 0; r < ROUNDS * 4; r++) {
    const dt_tensor *s = g_shared[(i + r) % 3];
    dt_tensor *v = dt_reshape(s, 1, SHAPE(24)); /* shares storage: refcount up */
    dt_tensor *d = dt_detach(s);                /* shares storage too */
    dt_tensor *sum = v ? dt_add(v, v) : NULL;
    dt_tensor *tot = sum ? dt_sum(sum) : NULL;
    float t = 0;
    if (tot == NULL || dt_read_floats(tot, &t, 1) != 0) return "shared computation failed";
    if (fabsf(t - 2.0f * 276.0f) > 1e-3f) return "wrong sum of a shared tensor";
    dt_free(tot);
    dt_free(sum);
    dt_free(d);
    dt_free(v); /* refcount down, racing with the other threads */
  }
  return NULL;
}

static void test_shared_tensors(void **state) {
  (void)state;
  float vals[24];
  for (int i = 0; i < 24; i++) vals[i] = (float)i; /* sum 276 */
  for (int k = 0; k < 3; k++) {
    g_shared[k] = dt_from_floats(device_for(k), vals, 2, SHAPE(4, 6));
    assert_non_null(g_shared[k]);
  }
  run_threads(shared_body);
  for (int k = 0; k < 3; k++) dt_free(g_shared[k]);
}

/* ---- made on one thread, freed on another ---- */

#define HANDOFF 64
static dt_tensor *g_handoff[N_THREADS][HANDOFF];

static const char *make_body(int i) {
  for (int k = 0; k < HANDOFF; k++) {
    g_handoff[i][k] = dt_ones(device_for(i + k), k % 2 ? DT_INT : DT_FLOAT, 1, SHAPE(k + 1));
    if (g_handoff[i][k] == NULL) return "creation failed";
  }
  return NULL;
}

static const char *free_other_body(int i) {
  int other = (i + 1) % N_THREADS;
  for (int k = 0; k < HANDOFF; k++) {
    if (dt_numel(g_handoff[other][k]) != k + 1) return "a handed-over tensor changed";
    dt_free(g_handoff[other][k]);
    if (dt_last_status() != DT_OK) return "freeing another thread's tensor failed";
  }
  return NULL;
}

static void test_free_on_another_thread(void **state) {
  (void)state;
  run_threads(make_body);
  run_threads(free_other_body);
}

/* ---- failures: each thread sees its own status and message ---- */

static const char *errors_body(int i) {
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, SHAPE(3));
  dt_tensor *s = dt_ones(dt_sim(i % 2), DT_FLOAT, 1, SHAPE(3));
  dt_tensor *k = dt_ones(dt_cpu(), DT_INT, 1, SHAPE(3));
  if (!a || !s || !k) return "creation failed";
  char mark[32];
  snprintf(mark, sizeof mark, "thread-%d.c", i);
  for (int r = 0; r < ROUNDS * 8; r++) {
    dt_set_error_mode(DT_ERRORS_RETURN); /* racing with the others' failures */
    dt_tensor *bad = NULL;
    dt_status want;
    const char *rule;
    switch ((r + i) % 3) {
      case 0:
        bad = dt_add_at(mark, r, a, s);
        want = DT_ERR_BACKEND_MISMATCH;
        rule = "[backend-mismatch]";
        break;
      case 1:
        bad = dt_add_at(mark, r, a, k);
        want = DT_ERR_KIND_MISMATCH;
        rule = "[kind-mismatch]";
        break;
      default:
        bad = dt_reshape_at(mark, r, a, 1, SHAPE(4));
        want = DT_ERR_SHAPE;
        rule = "[shape]";
        break;
    }
    if (bad != NULL) return "a failing call succeeded";
    char where[48];
    snprintf(where, sizeof where, "%s:%d: ", mark, r);
    if (dt_last_status() != want) return "status of another thread's failure";
    if (strncmp(dt_last_error(), where, strlen(where)) != 0 || strstr(dt_last_error(), rule) == NULL)
      return "message of another thread's failure";
    dt_tensor *ok = dt_neg(a);
    if (ok == NULL || dt_last_status() != DT_OK || dt_last_error()[0] != '\0')
      return "success did not reset this thread's status";
    dt_free(ok);
  }
  dt_free(k);
  dt_free(s);
  dt_free(a);
  return NULL;
}

static void test_thread_local_errors(void **state) {
  (void)state;
  assert_null(dt_add(NULL, NULL)); /* the main thread's own failure */
  run_threads(errors_body);
  assert_int_equal(dt_last_status(), DT_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(dt_last_error(), "NULL"));
}

/* ---- backward on several threads over graphs sharing a trainable leaf ---- */

#define LEAF_N 48
#define LEAF_ROUNDS 25
static dt_tensor *g_leaf;   /* w: a trainable leaf every thread's graph uses */
static dt_tensor *g_leaf_twice; /* h = 2 w: an intermediate every thread's graph uses too */

/* Thread i's constant: small integers, so every sum below is exact in floats. */
static float leaf_const(int i, int k) { return (float)(1 + i + (k % 5)); }

static const char *shared_leaf_body(int i) {
  dt_device ad = dt_device_of(g_leaf);
  float c[LEAF_N];
  for (int k = 0; k < LEAF_N; k++) c[k] = leaf_const(i, k);
  for (int r = 0; r < LEAF_ROUNDS; r++) {
    /* loss = sum(w * c) + sum(h * c): d loss / d w = c + 2 c, d loss / d h = c. */
    dt_tensor *ct = dt_from_floats(ad, c, 1, SHAPE(LEAF_N));
    dt_tensor *wc = dt_mul(g_leaf, ct), *hc = dt_mul(g_leaf_twice, ct);
    dt_tensor *s1 = dt_sum(wc), *s2 = dt_sum(hc);
    dt_tensor *loss = s1 && s2 ? dt_add(s1, s2) : NULL;
    if (loss == NULL) return "forward failed";
    if (dt_backward(loss) != 0) return "backward failed";
    dt_tensor *g = dt_grad(g_leaf); /* read while the other threads add to it */
    if (g == NULL) return "the shared leaf has no gradient";
    float probe[LEAF_N];
    if (dt_read_floats(g, probe, LEAF_N) != 0) return "reading the gradient failed";
    dt_free(g);
    dt_free(loss);
    dt_free(s2);
    dt_free(s1);
    dt_free(hc);
    dt_free(wc);
    dt_free(ct);
  }
  return dt_last_status() == DT_OK ? NULL : "a free reported an error";
}

static void check_shared_leaf(dt_device inner) {
  dt_device ad = dt_autodiff(inner);
  g_leaf = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, SHAPE(LEAF_N)));
  g_leaf_twice = dt_mul_scalar(g_leaf, 2.0f);
  assert_non_null(g_leaf_twice);
  run_threads(shared_leaf_body);
  float gw[LEAF_N], gh[LEAF_N];
  dt_tensor *tw = dt_grad(g_leaf), *th = dt_grad(g_leaf_twice);
  assert_non_null(tw);
  assert_non_null(th);
  assert_int_equal(dt_read_floats(tw, gw, LEAF_N), 0);
  assert_int_equal(dt_read_floats(th, gh, LEAF_N), 0);
  for (int k = 0; k < LEAF_N; k++) {
    float sum = 0; /* every pass of every thread added its c */
    for (int i = 0; i < N_THREADS; i++) sum += leaf_const(i, k);
    const float want_h = (float)LEAF_ROUNDS * sum;
    if (gh[k] != want_h || gw[k] != 3.0f * want_h)
      fail_msg("element %d: grad(w) %g (want %g), grad(h) %g (want %g)", k, (double)gw[k],
               (double)(3.0f * want_h), (double)gh[k], (double)want_h);
  }
  dt_free(tw);
  dt_free(th);
  dt_free(g_leaf_twice);
  dt_free(g_leaf);
  assert_int_equal(dt_last_status(), DT_OK);
}

static void test_backward_on_a_shared_leaf(void **state) {
  (void)state;
  const int64_t live = dt__live_tensors();
  check_shared_leaf(dt_cpu());
  check_shared_leaf(dt_sim(1));
  assert_int_equal(dt__live_tensors(), live);
}

/* ---- one handle freed by every thread at once ---- */

static dt_tensor *g_contested;
static int g_free_won[N_THREADS];

static const char *contested_free_body(int i) {
  dt_free(g_contested);
  g_free_won[i] = dt_last_status() == DT_OK;
  if (!g_free_won[i] && strstr(dt_last_error(), "freed") == NULL) return "wrong message";
  return NULL;
}

/* ---- large loops: the cpu backend's worker pool, from several threads at once ---- */

#define BIG_ROWS 600
#define BIG_COLS 1000 /* 600,000 elements: several ranges of the pool */

static const char *big_loops_body(int i) {
  const int64_t n = (int64_t)BIG_ROWS * BIG_COLS;
  float *x = malloc(sizeof(float) * (size_t)n), *got = malloc(sizeof(float) * (size_t)n);
  float bias[BIG_COLS];
  const char *failure = NULL;
  if (x == NULL || got == NULL) failure = "out of memory";
  for (int64_t k = 0; failure == NULL && k < n; k++) x[k] = (float)((k * 7 + i) % 13) - 6.0f;
  for (int c = 0; c < BIG_COLS; c++) bias[c] = (float)(c % 5) - 2.0f;
  dt_tensor *a = failure ? NULL : dt_from_floats(dt_cpu(), x, 2, SHAPE(BIG_ROWS, BIG_COLS));
  dt_tensor *b = dt_from_floats(dt_cpu(), bias, 1, SHAPE(BIG_COLS));
  for (int r = 0; failure == NULL && r < 3; r++) {
    dt_tensor *s = dt_add(a, b);    /* broadcast rows */
    dt_tensor *h = dt_relu(s);      /* unary */
    dt_tensor *m = dt_mul_scalar(h, 0.5f);
    dt_tensor *zero = dt_zeros(dt_cpu(), DT_FLOAT, 0, NULL);
    dt_tensor *pos = dt_greater(s, zero);
    dt_tensor *w = dt_where(pos, m, zero); /* where with a scalar operand */
    dt_tensor *cs = dt_sum_dim(w, 0);      /* column sums */
    if (cs == NULL || dt_read_floats(w, got, n) != 0) {
      failure = "an operation failed";
    } else {
      for (int64_t k = 0; k < n && failure == NULL; k++) {
        const float v = x[k] + bias[k % BIG_COLS];
        const float want = v > 0.0f ? v * 0.5f : 0.0f;
        if (got[k] != want) failure = "a large element-wise result differs from a plain loop";
      }
      float sums[BIG_COLS];
      if (failure == NULL && dt_read_floats(cs, sums, BIG_COLS) != 0) failure = "read failed";
      for (int c = 0; c < BIG_COLS && failure == NULL; c++) {
        double t = 0.0;
        for (int row = 0; row < BIG_ROWS; row++) t += got[(int64_t)row * BIG_COLS + c];
        if (fabs((double)sums[c] - t) > 1e-3 * (1.0 + fabs(t)))
          failure = "a large column sum differs from a plain loop";
      }
    }
    dt_tensor *all[] = {s, h, m, zero, pos, w, cs};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) dt_free(all[k]);
  }
  dt_free(a);
  dt_free(b);
  free(x);
  free(got);
  return failure;
}

static void test_large_loops_on_the_pool(void **state) {
  (void)state;
  run_threads(big_loops_body);
  const char *alone = big_loops_body(0); /* and alone, the pool free */
  assert_null(alone);
}

static void test_racing_frees_of_one_handle(void **state) {
  (void)state;
  const int64_t live = dt__live_tensors();
  for (int r = 0; r < ROUNDS * 4; r++) {
    g_contested = dt_ones(device_for(r), DT_FLOAT, 1, SHAPE(5));
    assert_non_null(g_contested);
    run_threads(contested_free_body);
    int won = 0;
    for (int i = 0; i < N_THREADS; i++) won += g_free_won[i];
    assert_int_equal(won, 1);
    assert_int_equal(dt__live_tensors(), live);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_first_use_and_transfers, setup), /* first: nothing made yet */
      cmocka_unit_test_setup(test_independent_training, setup),
      cmocka_unit_test_setup(test_shared_tensors, setup),
      cmocka_unit_test_setup(test_free_on_another_thread, setup),
      cmocka_unit_test_setup(test_thread_local_errors, setup),
      cmocka_unit_test_setup(test_backward_on_a_shared_leaf, setup),
      cmocka_unit_test_setup(test_racing_frees_of_one_handle, setup),
      cmocka_unit_test_setup(test_large_loops_on_the_pool, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
