/* analyzer/src/driver/jobs.h — lowering many units on N threads: each thread owns either a unit
 * worker process (driver/worker.h: a crash, stack overflow or hang of libclang costs one unit)
 * or, when no worker executable is given (tests, library use), a parser of its own (its own
 * CXIndex) on a large stack; it takes the next unit and leaves a one-unit program (from the
 * cache or a fresh parse) and the unit's failure, if any, in that unit's slot. Results are per
 * slot, so what the caller merges in slot order is the same whatever N. */
#ifndef TC_JOBS_H
#define TC_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/compdb.h"
#include "driver/progress.h"
#include "frontend/parse.h"
#include "ir/ir.h"

typedef struct tc_cache tc_cache;
typedef struct tc_worker tc_worker;

typedef struct tc_job_unit {
  const tc_compile_cmd *cmd; /* NULL: nothing to parse (failure already set) */
  tc_program *prog;          /* result: one unit, or NULL */
  char *failure;             /* result: why the unit could not be (fully) analyzed */
  int from_cache;            /* result: the IR came from the cache */
  uint64_t digest;           /* result, with a cache: the unit's IR digest (0: none) */
  char **deps;               /* result, with a cache or want_deps: the files the unit read */
  size_t n_deps;
} tc_job_unit;

typedef struct tc_jobs_opts {
  int jobs;               /* threads; 0: one per core */
  tc_cache *cache;        /* NULL: no cache */
  const char *worker_exe; /* the tagcheck binary for unit workers; NULL: parse in-process */
  tc_worker *const *workers; /* with worker_exe: long-lived workers (an editor session's), one
                                per thread up to n_workers (the threads after start their own),
                                so no process is started per run */
  size_t n_workers;
  double unit_timeout;    /* seconds a unit's parse may take in a worker (0: no limit) */
  int want_deps;          /* list every unit's files (deps) even without a cache */
  const tc_unsaved_file *unsaved; /* editor buffers: a unit whose file or one of whose files
                                     is among them is parsed with them, and not cached */
  size_t n_unsaved;
  tc_progress *progress;  /* the terminal's progress line, or NULL */
} tc_jobs_opts;

/* Frees a unit's results (program, failure, files) and clears them. */
void tc_job_unit_clear(tc_job_unit *u);

/* Lowers every unit. Returns 0, or -1 when out of memory or no thread could be started. */
int tc_jobs_run(tc_job_unit *units, size_t n, const tc_jobs_opts *opts);
/* The number of cores available. */
int tc_jobs_cores(void);
/* Runs fn(arg) on a new thread with a stack large enough for deeply nested code and waits for
   it; the editor mode uses it to analyze on a long-lived process's behalf. Returns 0, or -1
   when the thread could not be started (fn then runs on the caller's thread). */
int tc_run_on_big_stack(void (*fn)(void *), void *arg);

#endif /* TC_JOBS_H */
