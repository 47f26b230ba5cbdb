/* tests/backends/test_sim_internals.c — sim's machinery below the runtime: the grid launcher
 * (every block once, CUDA barrier semantics for regions, PRIVATE values across barriers,
 * THREADS_BELOW, launch configurations a GPU would reject, concurrent launches from several
 * host threads), the arena allocator (alignment, reuse, coalescing, exhaustion, bogus frees,
 * ownership), the two ordinals' separate memory as the backend interface sees it, and device
 * numbering. Runs with DT_SIM_MEMORY=64M (set by ctest) so exhaustion is quick to reach. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/sim/sim.h"
#include "backends/sim/sim_memory.h"
#include "backends/sim/sim_pool.h"
#include "bk_util.h"
#include "kernels/kdefs.h"

/* ---- test kernels, written as the runtime's are ---- */
typedef struct cover_args {
  int *count; /* gx * gy * bx counters */
} cover_args;
KERNEL(k_cover, cover_args, p) {
  const int64_t block = BLOCK_IDX_Y * GRID_DIM_X + BLOCK_IDX_X;
  THREADS { p.count[block * BLOCK_DIM_X + THREAD_IDX_X] += 1; }
}

/* A block that takes a while (tens of microseconds), so launches of many of them outlast the
   launcher's solo phase and the pool's workers take part. */
typedef struct slow_args {
  int *count;
  volatile double *sink;
} slow_args;
KERNEL(k_slow, slow_args, p) {
  const int64_t block = BLOCK_IDX_Y * GRID_DIM_X + BLOCK_IDX_X;
  THREADS {
    double x = (double)THREAD_IDX_X;
    for (int i = 0; i < 200; ++i) x = x * 1.0000001 + 0.5;
    p.sink[block] = x;
    p.count[block * BLOCK_DIM_X + THREAD_IDX_X] += 1;
  }
}

typedef struct barrier_args {
  int *out;
} barrier_args;
#define BT 128
KERNEL(k_barrier, barrier_args, p) {
  SHARED int buf[BT];
  PRIVATE(int, mine, 1, BT);
  THREADS {
    buf[THREAD_IDX_X] = (int)THREAD_IDX_X * 3;
    PRIV(mine)[0] = (int)THREAD_IDX_X * 7;
  }
  SYNCTHREADS();
  /* each thread reads its neighbour's word: only correct if the whole first region is done */
  THREADS { p.out[THREAD_IDX_X] = buf[(THREAD_IDX_X + 1) % BLOCK_DIM_X] + PRIV(mine)[0] * 1000; }
  SYNCTHREADS();
  THREADS_BELOW(5) { p.out[BT + THREAD_IDX_X] = 1; }
}

static void test_every_block_once(void **state) {
  (void)state;
  const int64_t gx = 37, gy = 3, bx = 64;
  int *count = calloc((size_t)(gx * gy * bx), sizeof *count);
  assert_non_null(count);
  cover_args a = {count};
  for (int rep = 0; rep < 20; ++rep) assert_int_equal(dt_sim_launch(k_cover, &a, gx, gy, bx), 0);
  for (int64_t i = 0; i < gx * gy * bx; ++i)
    if (count[i] != 20) fail_msg("thread slot %lld ran %d times, expected 20", (long long)i, count[i]);
  free(count);
}

static void test_every_slow_block_once(void **state) {
  (void)state;
  const int64_t gx = 50, gy = 4, bx = 32;
  int *count = calloc((size_t)(gx * gy * bx), sizeof *count);
  volatile double *sink = calloc((size_t)(gx * gy), sizeof *sink);
  assert_non_null(count);
  assert_non_null(sink);
  slow_args a = {count, sink};
  for (int rep = 0; rep < 5; ++rep) assert_int_equal(dt_sim_launch(k_slow, &a, gx, gy, bx), 0);
  for (int64_t i = 0; i < gx * gy * bx; ++i)
    if (count[i] != 5) fail_msg("thread slot %lld ran %d times, expected 5", (long long)i, count[i]);
  free(count);
  free((void *)sink);
}

static void test_barrier_semantics(void **state) {
  (void)state;
  int out[BT + 8];
  memset(out, 0, sizeof out);
  barrier_args a = {out};
  assert_int_equal(dt_sim_launch(k_barrier, &a, 1, 1, BT), 0);
  for (int t = 0; t < BT; ++t) assert_int_equal(out[t], ((t + 1) % BT) * 3 + t * 7000);
  for (int t = 0; t < 8; ++t) assert_int_equal(out[BT + t], t < 5 ? 1 : 0);
}

static void test_rejected_configurations(void **state) {
  (void)state;
  int c[4];
  cover_args a = {c};
  assert_int_equal(dt_sim_launch(k_cover, &a, 1, 1, 2048), -1);
  assert_non_null(strstr(dt_sim_pool_error(), "invalid launch configuration"));
  assert_int_equal(dt_sim_launch(k_cover, &a, 1, 70000, 1), -1);
  assert_int_equal(dt_sim_launch(k_cover, &a, 0, 1, 1), -1);
}

typedef struct conc {
  int id;
  int failures;
} conc;
static void *launch_many(void *arg) {
  conc *c = arg;
  enum { GX = 9, BX = 32 };
  int count[GX * BX];
  for (int rep = 0; rep < 200; ++rep) {
    memset(count, 0, sizeof count);
    cover_args a = {count};
    if (dt_sim_launch(k_cover, &a, GX, 1, BX) != 0) ++c->failures;
    for (int i = 0; i < GX * BX; ++i) c->failures += count[i] != 1;
  }
  return NULL;
}

static void test_concurrent_launches(void **state) {
  (void)state;
  pthread_t th[4];
  conc cs[4];
  for (int i = 0; i < 4; ++i) {
    cs[i] = (conc){i, 0};
    assert_int_equal(pthread_create(&th[i], NULL, launch_many, &cs[i]), 0);
  }
  for (int i = 0; i < 4; ++i) {
    pthread_join(th[i], NULL);
    assert_int_equal(cs[i].failures, 0);
  }
}

/* ---- memory ---- */
static void test_allocator(void **state) {
  (void)state;
  char why[200];
  dt_sim_memory *m = dt_sim_memory_get(0, why, sizeof why);
  if (m == NULL) fail_msg("sim:0 memory: %s", why);
  const size_t base = dt_sim_memory_in_use(m);
  enum { N = 300 };
  void *p[N];
  bk_rng r = {21};
  for (int i = 0; i < N; ++i) {
    size_t bytes = (size_t)bk_int(&r, 0, 70000);
    p[i] = dt_sim_memory_alloc(m, bytes);
    assert_non_null(p[i]);
    assert_int_equal((uintptr_t)p[i] % 256, 0);
    assert_true(dt_sim_memory_owns(m, p[i], bytes));
    for (int j = 0; j < i; ++j) assert_ptr_not_equal(p[i], p[j]);
  }
  /* free in a scrambled order; everything coalesces back */
  for (int i = 0; i < N; ++i) {
    int j = (int)bk_int(&r, i, N - 1);
    void *t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  for (int i = 0; i < N; ++i) {
    assert_int_equal(dt_sim_memory_free(m, p[i]), 0);
    assert_false(dt_sim_memory_owns(m, p[i], 1));
  }
  assert_int_equal(dt_sim_memory_in_use(m), base);
  /* one allocation of almost the whole arena fits again: the free space is one extent */
  void *big = dt_sim_memory_alloc(m, (size_t)60 << 20);
  assert_non_null(big);
  assert_null(dt_sim_memory_alloc(m, (size_t)8 << 20)); /* 64 MiB arena: exhausted */
  assert_int_equal(dt_sim_memory_free(m, big), 0);
  /* bogus frees */
  int host;
  assert_int_equal(dt_sim_memory_free(m, &host), -1);
  void *q = dt_sim_memory_alloc(m, 100);
  assert_int_equal(dt_sim_memory_free(m, (char *)q + 8), -1);
  assert_int_equal(dt_sim_memory_free(m, q), 0);
  assert_int_equal(dt_sim_memory_free(m, q), -1); /* double free */
}

static void test_out_of_memory_through_the_runtime(void **state) {
  (void)state;
  const int64_t huge[1] = {(int64_t)100 << 20}; /* 400 MB of floats on a 64 MiB device */
  assert_null(dt_zeros(dt_sim(1), DT_FLOAT, 1, huge));
  assert_int_equal(dt_last_status(), DT_ERR_OUT_OF_MEMORY);
  const int64_t small[1] = {1000};
  dt_tensor *t = dt_zeros(dt_sim(1), DT_FLOAT, 1, small); /* and the device still works */
  assert_non_null(t);
  dt_free(t);
}

static void test_ordinals_have_separate_memory(void **state) {
  (void)state;
  const dt_backend_iface *sim = dt_sim_backend();
  void *p0 = sim->alloc(0, 4096), *p1 = sim->alloc(1, 4096);
  assert_non_null(p0);
  assert_non_null(p1);
  char why[200];
  dt_sim_memory *m0 = dt_sim_memory_get(0, why, sizeof why), *m1 = dt_sim_memory_get(1, why, sizeof why);
  assert_true(dt_sim_memory_owns(m0, p0, 4096));
  assert_false(dt_sim_memory_owns(m0, p1, 1));
  assert_true(dt_sim_memory_owns(m1, p1, 4096));
  assert_false(dt_sim_memory_owns(m1, p0, 1));
  /* the interface refuses pointers of the other ordinal (or of the host) */
  float host[4] = {1, 2, 3, 4};
  assert_int_equal(sim->copy_in(1, p1, host, sizeof host), 0);
  assert_int_not_equal(sim->copy_in(0, p1, host, sizeof host), 0);
  assert_non_null(strstr(sim->last_error(), "not memory of this device"));
  assert_int_not_equal(sim->copy_out(1, host, p0, sizeof host), 0);
  dt_op_desc op;
  memset(&op, 0, sizeof op);
  op.op = DT_OP_NEG;
  op.kind = op.out_kind = DT_FLOAT;
  op.n = 4;
  op.in[0] = p1;
  op.out = p0;
  assert_int_not_equal(sim->run(0, &op), 0);
  assert_non_null(strstr(sim->last_error(), "input"));
  op.in[0] = host;
  assert_int_not_equal(sim->run(0, &op), 0);
  /* the same operation with memory of its own device runs */
  op.in[0] = p1;
  op.out = p1;
  assert_int_equal(sim->run(1, &op), 0);
  float back[4];
  assert_int_equal(sim->copy_out(1, back, p1, sizeof back), 0);
  for (int i = 0; i < 4; ++i) assert_float_equal(back[i], -host[i], 0);
  sim->free(0, p0);
  sim->free(1, p1);
}

static void test_device_numbering(void **state) {
  (void)state;
  const dt_backend_iface *sim = dt_sim_backend();
  assert_int_equal(sim->device_count(), 2); /* DT_SIM_DEVICES unset */
  assert_null(sim->alloc(2, 16));
  assert_non_null(strstr(sim->last_error(), "sim:2 does not exist"));
  const char *v = dt_sim_kernel_variant(), *want = getenv("DT_SIM_ISA");
  assert_true(strcmp(v, "avx2") == 0 || strcmp(v, "generic") == 0);
  if (want != NULL && strcmp(want, "generic") == 0) assert_string_equal(v, "generic");
}

int main(void) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_block_once),
      cmocka_unit_test(test_every_slow_block_once),
      cmocka_unit_test(test_barrier_semantics),
      cmocka_unit_test(test_rejected_configurations),
      cmocka_unit_test(test_concurrent_launches),
      cmocka_unit_test(test_allocator),
      cmocka_unit_test(test_out_of_memory_through_the_runtime),
      cmocka_unit_test(test_ordinals_have_separate_memory),
      cmocka_unit_test(test_device_numbering),
  };
  return cmocka_run_group_tests_name("sim internals", tests, NULL, NULL);
}
