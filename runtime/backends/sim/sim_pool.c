/* runtime/backends/sim/sim_pool.c — sim's grid launcher: the blocks of one launch are claimed
 * by the calling thread and a pool of worker threads, a few at a time, and each block runs as
 * one call of the kernel (kdefs.h: its threads are loops inside that call).
 *
 * Claims go through one atomic word holding (generation << 32 | next block), so a worker that
 * wakes up late — after its launch was finished by others and a new one published — cannot
 * claim a block of a launch it did not snapshot: its compare-and-swap sees another generation.
 * Each claim takes total / (8 x threads) blocks, so the word is touched a few times per launch
 * rather than once per block (tiny blocks would otherwise spend their time bouncing it).
 * The launching thread returns once every block is done; it never waits for workers that have
 * not started. It also runs a launch alone for its first DT_SIM_SOLO_NS nanoseconds and wakes
 * the workers only if blocks remain then: waking a sleeping thread costs more than a small
 * launch takes (workers still awake from the last launch join at once). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim_pool.h"

#define DT_SIM_MAX_BLOCK_THREADS 1024 /* as on a GPU */
#define DT_SIM_MAX_GRID_Y 65535
#define DT_SIM_MAX_WORKERS 256
#define DT_SIM_SPINS 2000     /* polls of the done counter before sleeping */
#define DT_SIM_SOLO_NS 50000 /* how long the launcher works alone before waking the pool */

typedef struct dt_sim_job {
  dt_kfn fn;
  const void *args;
  int64_t gx, gy, bx;
  uint32_t total;
  uint32_t chunk; /* blocks per claim: few claims per thread, so the claim word stays cold */
  uint32_t gen;
} dt_sim_job;

typedef struct dt_sim_pool {
  pthread_mutex_t launch_lock; /* one launch at a time */
  pthread_mutex_t lock;        /* job, gen, cond variables */
  pthread_cond_t work_cv;      /* workers wait for a new generation */
  pthread_cond_t done_cv;      /* the launcher waits for the last block */
  dt_sim_job job;
  _Atomic uint64_t claim; /* gen << 32 | next block */
  _Atomic uint32_t done;  /* blocks finished in the current generation */
  int sleeping_launcher;
  int workers; /* started worker threads */
  int threads; /* workers + the calling thread */
} dt_sim_pool;

static dt_sim_pool g_pool = {
    .launch_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work_cv = PTHREAD_COND_INITIALIZER,
    .done_cv = PTHREAD_COND_INITIALIZER,
};
static pthread_once_t g_pool_once = PTHREAD_ONCE_INIT;
static _Thread_local char g_pool_error[160];

const char *dt_sim_pool_error(void) { return g_pool_error; }

/* Claims the next blocks of job (generation job->gen): returns the first and sets *count, or
   returns -1 when none is left. */
static int64_t claim_blocks(const dt_sim_job *job, uint32_t *count) {
  uint64_t v = atomic_load_explicit(&g_pool.claim, memory_order_acquire);
  for (;;) {
    const uint32_t next = (uint32_t)v;
    if ((uint32_t)(v >> 32) != job->gen || next >= job->total) return -1;
    const uint32_t n = job->total - next < job->chunk ? job->total - next : job->chunk;
    if (atomic_compare_exchange_weak_explicit(&g_pool.claim, &v, v + n, memory_order_acq_rel,
                                              memory_order_acquire)) {
      *count = n;
      return (int64_t)next;
    }
  }
}

static void run_block(const dt_sim_job *job, int64_t b) {
  dt_kctx ctx;
  ctx.grid_x = job->gx;
  ctx.grid_y = job->gy;
  ctx.block_x = job->bx;
  ctx.block_idx_x = b % job->gx;
  ctx.block_idx_y = b / job->gx;
  job->fn(&ctx, job->args);
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Marks n blocks of `job` done; wakes the launcher after the last one. */
static void blocks_done(const dt_sim_job *job, uint32_t n) {
  if (atomic_fetch_add_explicit(&g_pool.done, n, memory_order_acq_rel) + n == job->total) {
    pthread_mutex_lock(&g_pool.lock);
    if (g_pool.sleeping_launcher) pthread_cond_signal(&g_pool.done_cv);
    pthread_mutex_unlock(&g_pool.lock);
  }
}

/* Runs blocks of `job` until none is left (a worker's share). */
static void work_on(const dt_sim_job *job) {
  int64_t b;
  uint32_t n;
  while ((b = claim_blocks(job, &n)) >= 0) {
    for (uint32_t i = 0; i < n; ++i) run_block(job, b + i);
    blocks_done(job, n);
  }
}

static void *worker_main(void *unused) {
  (void)unused;
  uint32_t seen = 0;
  for (;;) {
    pthread_mutex_lock(&g_pool.lock);
    while (g_pool.job.gen == seen) pthread_cond_wait(&g_pool.work_cv, &g_pool.lock);
    dt_sim_job job = g_pool.job; /* a snapshot: fields of generation job.gen */
    seen = job.gen;
    pthread_mutex_unlock(&g_pool.lock);
    work_on(&job);
  }
  return NULL;
}

static int env_threads(void) {
  const char *s = getenv("DT_SIM_THREADS");
  if (s != NULL && *s != '\0') {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == '\0' && v >= 1) return v > DT_SIM_MAX_WORKERS ? DT_SIM_MAX_WORKERS : (int)v;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > DT_SIM_MAX_WORKERS ? DT_SIM_MAX_WORKERS : (int)n;
}

static void start_workers(void) {
  const int want = env_threads() - 1;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 8u << 20); /* kernels keep shared tiles on the stack */
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int started = 0;
  for (int i = 0; i < want; ++i) {
    pthread_t t;
    if (pthread_create(&t, &attr, worker_main, NULL) != 0) break;
    ++started;
  }
  pthread_attr_destroy(&attr);
  g_pool.workers = started;
  g_pool.threads = started + 1;
}

/* After fork() the child has none of the workers: it runs every block itself. */
static void atfork_child(void) {
  pthread_mutex_init(&g_pool.launch_lock, NULL);
  pthread_mutex_init(&g_pool.lock, NULL);
  pthread_cond_init(&g_pool.work_cv, NULL);
  pthread_cond_init(&g_pool.done_cv, NULL);
  g_pool.workers = 0;
  g_pool.threads = 1;
  g_pool.sleeping_launcher = 0;
}

static void pool_init(void) {
  start_workers();
  pthread_atfork(NULL, NULL, atfork_child);
}

int dt_sim_pool_threads(void) {
  pthread_once(&g_pool_once, pool_init);
  return g_pool.threads;
}

int dt_sim_launch(dt_kfn fn, const void *args, int64_t gx, int64_t gy, int64_t bx) {
  g_pool_error[0] = '\0';
  if (gx < 1 || gy < 1 || bx < 1 || bx > DT_SIM_MAX_BLOCK_THREADS || gy > DT_SIM_MAX_GRID_Y ||
      gx > INT32_MAX || gx * gy > (int64_t)UINT32_MAX / 2) {
    snprintf(g_pool_error, sizeof g_pool_error,
             "invalid launch configuration: grid %lldx%lld, block %lld", (long long)gx,
             (long long)gy, (long long)bx);
    return -1;
  }
  pthread_once(&g_pool_once, pool_init);
  dt_sim_job job = {fn, args, gx, gy, bx, (uint32_t)(gx * gy), 1, 0};
  if (job.total == 1 || g_pool.workers == 0) { /* nothing to share */
    for (int64_t b = 0; b < (int64_t)job.total; ++b) run_block(&job, b);
    return 0;
  }

  pthread_mutex_lock(&g_pool.launch_lock);
  pthread_mutex_lock(&g_pool.lock);
  job.chunk = job.total / (uint32_t)(8 * g_pool.threads);
  if (job.chunk == 0) job.chunk = 1;
  job.gen = g_pool.job.gen + 1;
  if (job.gen == 0) job.gen = 1; /* workers start having seen generation 0 */
  atomic_store_explicit(&g_pool.done, 0, memory_order_relaxed);
  atomic_store_explicit(&g_pool.claim, (uint64_t)job.gen << 32, memory_order_release);
  g_pool.job = job; /* published; sleeping workers are woken below, if worth it */
  pthread_mutex_unlock(&g_pool.lock);

  const int64_t start = now_ns();
  int woken = 0;
  int64_t b;
  uint32_t n;
  while ((b = claim_blocks(&job, &n)) >= 0) {
    for (uint32_t i = 0; i < n; ++i) run_block(&job, b + i);
    blocks_done(&job, n);
    if (!woken && b + n < (int64_t)job.total && now_ns() - start > DT_SIM_SOLO_NS) {
      pthread_mutex_lock(&g_pool.lock);
      pthread_cond_broadcast(&g_pool.work_cv);
      pthread_mutex_unlock(&g_pool.lock);
      woken = 1;
    }
  }
  for (int spin = 0; spin < DT_SIM_SPINS; ++spin)
    if (atomic_load_explicit(&g_pool.done, memory_order_acquire) == job.total) break;
  if (atomic_load_explicit(&g_pool.done, memory_order_acquire) != job.total) {
    pthread_mutex_lock(&g_pool.lock);
    g_pool.sleeping_launcher = 1;
    while (atomic_load_explicit(&g_pool.done, memory_order_acquire) != job.total)
      pthread_cond_wait(&g_pool.done_cv, &g_pool.lock);
    g_pool.sleeping_launcher = 0;
    pthread_mutex_unlock(&g_pool.lock);
  }
  pthread_mutex_unlock(&g_pool.launch_lock);
  return 0;
}
