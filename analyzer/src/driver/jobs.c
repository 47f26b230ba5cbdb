/* analyzer/src/driver/jobs.c — the thread pool that parses and lowers units: one unit worker
 * process (or one in-process parser) per thread, a shared counter hands out unit indices, each
 * result goes to its own slot (base/parallel.h). Threads get a 64 MiB stack (reserved, touched
 * only as deep code needs it). */
#include "driver/jobs.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/parallel.h"
#include "driver/cache.h"
#include "driver/worker.h"
#include "frontend/parse.h"

enum { TC_WORKER_STACK = 64 * 1024 * 1024 };

typedef struct pool {
  tc_job_unit *units;
  size_t n;
  atomic_size_t done, threads; /* threads: how many took a parser */
  const tc_jobs_opts *opts;
  tc_cache *cache;
  atomic_int oom;
} pool;

/* What parses for one thread: a worker process or an in-process parser. */
typedef struct unit_parser {
  tc_worker *worker;
  tc_parser *parser;
  int borrowed; /* worker is one of opts->workers (the editor session's), not ours to free */
} unit_parser;

void tc_job_unit_clear(tc_job_unit *u) {
  tc_program_free(u->prog);
  free(u->failure);
  for (size_t i = 0; i < u->n_deps; i++) free(u->deps[i]);
  free(u->deps);
  u->prog = NULL;
  u->failure = NULL;
  u->deps = NULL;
  u->n_deps = 0;
}

int tc_jobs_cores(void) {
  /* the CPUs this process may run on (taskset, cgroups' cpusets), as nproc counts them */
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static int is_unsaved(const tc_jobs_opts *o, const char *path) {
  for (size_t i = 0; i < o->n_unsaved; i++)
    if (strcmp(o->unsaved[i].path, path) == 0) return 1;
  return 0;
}

/* The unit reads an editor buffer: its cached IR (of the files on disk) does not apply. */
static int reads_unsaved(const tc_jobs_opts *o, const tc_job_unit *u) {
  if (is_unsaved(o, u->cmd->file)) return 1;
  for (size_t i = 0; i < u->n_deps; i++)
    if (is_unsaved(o, u->deps[i])) return 1;
  return 0;
}

static void run_unit(pool *pl, unit_parser *up, tc_job_unit *u) {
  if (!u->cmd) return; /* its failure is already set; the driver digests it */
  const tc_jobs_opts *o = pl->opts;
  int edited = is_unsaved(o, u->cmd->file);
  if (pl->cache && !edited) {
    u->prog = tc_cache_lookup(pl->cache, u->cmd, &u->failure, &u->digest, &u->deps, &u->n_deps);
    if (u->prog && !reads_unsaved(o, u)) {
      u->from_cache = 1;
      return;
    }
    edited = u->prog != NULL; /* it includes an edited header */
    tc_job_unit_clear(u);
    u->digest = 0;
  }
  const tc_unsaved_file *unsaved = edited ? o->unsaved : NULL;
  size_t n_unsaved = edited ? o->n_unsaved : 0;
  struct stat st; /* a source that is not there is said so without a parser */
  if (!edited && (stat(u->cmd->file, &st) != 0 || !S_ISREG(st.st_mode))) {
    char why[512];
    snprintf(why, sizeof why, "cannot read the source file: %s",
             stat(u->cmd->file, &st) != 0 ? strerror(errno) : "not a regular file");
    u->failure = strdup(why);
    if (!u->failure) atomic_store(&pl->oom, 1);
    return;
  }
  tc_parse_result r;
  int rc;
  int want_deps = pl->cache != NULL || pl->opts->want_deps;
  if (up->worker) {
    char err[512];
    rc = tc_worker_parse(up->worker, u->cmd, unsaved, n_unsaved, want_deps,
                         pl->opts->unit_timeout, &r, err, sizeof err);
    if (rc < 0 && !r.failure) { /* no worker could start: say why, for this unit */
      r.failure = strdup(err);
      rc = r.failure ? 1 : -1;
    }
  } else {
    rc = tc_parse_unit(up->parser, u->cmd, unsaved, n_unsaved, want_deps, &r);
  }
  if (rc < 0) {
    atomic_store(&pl->oom, 1);
    return;
  }
  if (pl->cache && r.prog && rc == 0 && !edited) {
    tc_unit_inputs in = {r.deps, r.n_deps, r.missing, r.n_missing};
    u->digest = tc_cache_store(pl->cache, u->cmd, r.prog, r.failure, &in);
  } else if (pl->cache && r.prog && rc == 0) { /* never the IR of unsaved text; its digest */
    u->digest = tc_cache_digest(r.prog, r.failure);
  }
  u->prog = r.prog;
  u->failure = r.failure;
  u->deps = r.deps;
  u->n_deps = r.n_deps;
  r.prog = NULL;
  r.failure = NULL;
  r.deps = NULL;
  r.n_deps = 0;
  tc_parse_result_free(&r);
}

/* A thread's parser: a unit worker the caller lends (opts->workers), its own unit worker
   process, or its own in-process parser. */
static void *open_parser(void *ctx) {
  pool *pl = ctx;
  unit_parser *up = calloc(1, sizeof *up);
  size_t me = atomic_fetch_add(&pl->threads, 1);
  if (up) up->borrowed = pl->opts->worker_exe && me < pl->opts->n_workers;
  if (up && up->borrowed) up->worker = pl->opts->workers[me];
  else if (up && pl->opts->worker_exe) up->worker = tc_worker_new(pl->opts->worker_exe);
  else if (up) up->parser = tc_parser_new();
  if (!up || (!up->worker && !up->parser)) {
    free(up);
    atomic_store(&pl->oom, 1);
    return NULL;
  }
  return up;
}

static void lower_unit(void *ctx, void *state, size_t i) {
  pool *pl = ctx;
  run_unit(pl, state, &pl->units[i]);
  size_t d = atomic_fetch_add(&pl->done, 1) + 1;
  if (pl->opts->progress) tc_progress_update(pl->opts->progress, "lowering units", d, pl->n);
}

static void close_parser(void *ctx, void *state) {
  (void)ctx;
  unit_parser *up = state;
  if (!up->borrowed) tc_worker_free(up->worker);
  tc_parser_free(up->parser);
  free(up);
}

int tc_jobs_run(tc_job_unit *units, size_t n, const tc_jobs_opts *opts) {
  pool pl;
  memset(&pl, 0, sizeof pl);
  pl.units = units;
  pl.n = n;
  atomic_init(&pl.done, 0);
  atomic_init(&pl.threads, 0);
  atomic_init(&pl.oom, 0);
  pl.opts = opts;
  pl.cache = opts->cache;
  if (n == 0) return 0;
  /* the calling thread only waits: the parsers run on large stacks */
  tc_parallel loop = {n, opts->jobs > 0 ? (unsigned)opts->jobs : (unsigned)tc_jobs_cores(), 0,
                      TC_WORKER_STACK, &pl, open_parser, lower_unit, close_parser};
  tc_parallel_for(&loop);
  return atomic_load(&pl.oom) ? -1 : 0;
}

int tc_run_on_big_stack(void (*fn)(void *), void *arg) {
  return tc_run_on_stack(TC_WORKER_STACK, fn, arg);
}
