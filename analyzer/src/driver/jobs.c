/* analyzer/src/driver/jobs.c — the thread pool that parses and lowers units: one unit worker
 * process (or one in-process parser) per thread, a shared counter hands out unit indices, each
 * result goes to its own slot. Threads get a 64 MiB stack (reserved, touched only as deep code
 * needs it). */
#include "driver/jobs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/cache.h"
#include "driver/worker.h"
#include "frontend/parse.h"

enum { TC_WORKER_STACK = 64 * 1024 * 1024 };

typedef struct pool {
  tc_job_unit *units;
  size_t n;
  atomic_size_t next;
  const tc_jobs_opts *opts;
  tc_cache *cache;
  atomic_int oom;
} pool;

/* What parses for one thread: a worker process or an in-process parser. */
typedef struct unit_parser {
  tc_worker *worker;
  tc_parser *parser;
} unit_parser;

int tc_jobs_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static void run_unit(pool *pl, unit_parser *up, tc_job_unit *u) {
  if (!u->cmd) return; /* its failure is already set; the driver digests it */
  if (pl->cache) {
    u->prog = tc_cache_lookup(pl->cache, u->cmd, &u->failure, &u->digest);
    if (u->prog) {
      u->from_cache = 1;
      return;
    }
  }
  tc_parse_result r;
  int rc;
  if (up->worker) {
    char err[512];
    rc = tc_worker_parse(up->worker, u->cmd, NULL, 0, pl->cache != NULL,
                         pl->opts->unit_timeout, &r, err, sizeof err);
    if (rc < 0 && !r.failure) { /* no worker could start: say why, for this unit */
      r.failure = strdup(err);
      rc = r.failure ? 1 : -1;
    }
  } else {
    rc = tc_parse_unit(up->parser, u->cmd, NULL, 0, pl->cache != NULL, &r);
  }
  if (rc < 0) {
    atomic_store(&pl->oom, 1);
    return;
  }
  if (pl->cache && r.prog && rc == 0) {
    tc_unit_inputs in = {r.deps, r.n_deps, r.missing, r.n_missing};
    u->digest = tc_cache_store(pl->cache, u->cmd, r.prog, r.failure, &in);
  }
  u->prog = r.prog;
  u->failure = r.failure;
  r.prog = NULL;
  r.failure = NULL;
  tc_parse_result_free(&r);
}

static void *worker(void *arg) {
  pool *pl = arg;
  unit_parser up = {NULL, NULL};
  if (pl->opts->worker_exe) up.worker = tc_worker_new(pl->opts->worker_exe);
  else up.parser = tc_parser_new();
  if (!up.worker && !up.parser) {
    atomic_store(&pl->oom, 1);
    return NULL;
  }
  for (;;) {
    size_t i = atomic_fetch_add(&pl->next, 1);
    if (i >= pl->n) break;
    run_unit(pl, &up, &pl->units[i]);
  }
  tc_worker_free(up.worker);
  tc_parser_free(up.parser);
  return NULL;
}

static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return -1;
  pthread_attr_setstacksize(&attr, TC_WORKER_STACK);
  int rc = pthread_create(t, &attr, fn, arg);
  pthread_attr_destroy(&attr);
  return rc == 0 ? 0 : -1;
}

int tc_jobs_run(tc_job_unit *units, size_t n, const tc_jobs_opts *opts) {
  pool pl;
  memset(&pl, 0, sizeof pl);
  pl.units = units;
  pl.n = n;
  atomic_init(&pl.next, 0);
  atomic_init(&pl.oom, 0);
  pl.opts = opts;
  pl.cache = opts->cache;
  if (n == 0) return 0;
  size_t nt = opts->jobs > 0 ? (size_t)opts->jobs : (size_t)tc_jobs_cores();
  if (nt > n) nt = n;
  pthread_t *threads = calloc(nt, sizeof *threads);
  if (!threads) return -1;
  size_t started = 0;
  for (size_t i = 0; i < nt; i++) {
    if (start_thread(&threads[i], worker, &pl) != 0) break;
    started++;
  }
  if (started == 0) { /* no thread: do the work here */
    worker(&pl);
  }
  for (size_t i = 0; i < started; i++) pthread_join(threads[i], NULL);
  free(threads);
  return atomic_load(&pl.oom) ? -1 : 0;
}

typedef struct big_call {
  void (*fn)(void *);
  void *arg;
} big_call;

static void *big_trampoline(void *p) {
  big_call *c = p;
  c->fn(c->arg);
  return NULL;
}

int tc_run_on_big_stack(void (*fn)(void *), void *arg) {
  big_call c = {fn, arg};
  pthread_t t;
  if (start_thread(&t, big_trampoline, &c) != 0) {
    fn(arg);
    return -1;
  }
  pthread_join(t, NULL);
  return 0;
}
