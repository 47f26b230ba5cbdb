/* runtime/backends/cpu/cpu_parallel.c — a fixed pool of worker threads (started at the first
 * loop large enough to share) that run the ranges of one loop at a time: the caller publishes a
 * job under the pool's lock, bumps the generation, and runs a range itself; workers take the
 * other ranges by index and the last one to finish wakes the caller. A caller that finds the pool
 * busy (another thread's loop) runs its loop alone instead of waiting. Results never depend on the
 * thread count: ranges are fixed slices and each writes only its own outputs. */
#include "cpu_parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define CPU_MAX_THREADS 64

typedef struct pool {
  pthread_mutex_t lock;    /* guards every field below */
  pthread_cond_t work;     /* generation changed */
  pthread_cond_t done;     /* pending reached 0 */
  pthread_mutex_t busy;    /* held by the caller whose loop the pool runs */
  unsigned long generation;
  cpu_range_fn fn;
  void *ctx;
  int64_t n, chunk;
  int ranges, next, pending;
  int workers;
} pool;

static pool g_pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                      PTHREAD_COND_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, 0, NULL, NULL, 0, 0,
                      0, 0, 0, 0};
static pthread_once_t g_start_once = PTHREAD_ONCE_INIT;
static pthread_once_t g_count_once = PTHREAD_ONCE_INIT;
static int g_threads = 1;

static int env_count(const char *name) {
  const char *v = getenv(name);
  if (v == NULL || v[0] == '\0') return 0;
  const long n = strtol(v, NULL, 10);
  return n > 0 ? (int)(n < CPU_MAX_THREADS ? n : CPU_MAX_THREADS) : 0;
}

static void count_threads(void) {
  int n = env_count("DT_NUM_THREADS");
  if (n == 0) n = env_count("OMP_NUM_THREADS");
  if (n == 0) n = env_count("OPENBLAS_NUM_THREADS");
  if (n == 0) {
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    n = cpus > 0 ? (int)(cpus < CPU_MAX_THREADS ? cpus : CPU_MAX_THREADS) : 1;
  }
  g_threads = n;
}

int cpu_thread_count(void) {
  pthread_once(&g_count_once, count_threads);
  return g_threads;
}

/* Runs range r of the current job (called with the lock NOT held). */
static void run_range(cpu_range_fn fn, void *ctx, int64_t n, int64_t chunk, int r) {
  const int64_t b = (int64_t)r * chunk;
  const int64_t e = b + chunk < n ? b + chunk : n;
  if (b < e) fn(ctx, b, e);
}

/* Takes and runs ranges of the current job until none is left (lock held on entry and exit). */
static void drain(pool *p) {
  while (p->next < p->ranges) {
    const int r = p->next++;
    cpu_range_fn fn = p->fn;
    void *ctx = p->ctx;
    const int64_t n = p->n, chunk = p->chunk;
    pthread_mutex_unlock(&p->lock);
    run_range(fn, ctx, n, chunk, r);
    pthread_mutex_lock(&p->lock);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
  }
}

static void *worker(void *arg) {
  pool *p = arg;
  pthread_mutex_lock(&p->lock);
  unsigned long seen = p->generation;
  for (;;) {
    while (p->generation == seen) pthread_cond_wait(&p->work, &p->lock);
    seen = p->generation;
    drain(p);
  }
  return NULL;
}

static void start_workers(void) {
  const int want = cpu_thread_count() - 1;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int started = 0;
  for (int i = 0; i < want; i++) {
    pthread_t t;
    if (pthread_create(&t, &attr, worker, &g_pool) == 0) started++;
  }
  pthread_attr_destroy(&attr);
  pthread_mutex_lock(&g_pool.lock);
  g_pool.workers = started;
  pthread_mutex_unlock(&g_pool.lock);
}

void cpu_parallel_for(int64_t n, int64_t grain, cpu_range_fn fn, void *ctx) {
  if (n <= 0) return;
  if (grain < 1) grain = 1;
  int64_t ranges = n / grain;
  const int threads = cpu_thread_count();
  if (ranges > threads) ranges = threads;
  if (ranges < 2 || pthread_mutex_trylock(&g_pool.busy) != 0) {
    fn(ctx, 0, n);
    return;
  }
  pthread_once(&g_start_once, start_workers);
  pool *p = &g_pool;
  pthread_mutex_lock(&p->lock);
  if (ranges > p->workers + 1) ranges = p->workers + 1;
  if (ranges < 2) {
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_unlock(&p->busy);
    fn(ctx, 0, n);
    return;
  }
  p->fn = fn;
  p->ctx = ctx;
  p->n = n;
  p->chunk = (n + ranges - 1) / ranges;
  p->ranges = (int)ranges;
  p->next = 0;
  p->pending = (int)ranges;
  p->generation++;
  pthread_cond_broadcast(&p->work);
  drain(p); /* the caller works too */
  while (p->pending > 0) pthread_cond_wait(&p->done, &p->lock);
  p->fn = NULL;
  p->ctx = NULL;
  pthread_mutex_unlock(&p->lock);
  pthread_mutex_unlock(&p->busy);
}
