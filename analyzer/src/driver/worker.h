/* analyzer/src/driver/worker.h — unit workers: child processes (the tagcheck binary started
 * again with --unit-worker) that parse and lower units for the driver and the language server,
 * so that libclang crashing, overflowing its stack or looping on one unit costs only that unit.
 * A request is a compile command (with unsaved editor buffers); the reply is the unit's IR,
 * failure, the files it read and the headers it did not find. The parent waits at most the
 * unit timeout, then kills the worker; a dead worker is replaced at the next request. */
#ifndef TC_WORKER_H
#define TC_WORKER_H

#include <stddef.h>

#include "frontend/parse.h"

typedef struct tc_worker tc_worker;

/* A handle for workers started from exe (an absolute path of the tagcheck binary). The process
   itself starts at the first request. NULL when out of memory. */
tc_worker *tc_worker_new(const char *exe);
/* Stops the process (if any) and frees the handle. */
void tc_worker_free(tc_worker *w);

/* Parses cmd in the worker, like tc_parse_unit. Returns 0 with out filled; 1 when the worker
   crashed, was killed or ran past timeout_s (> 0; 0: no limit): out->failure then says why,
   out->prog is NULL and the worker is replaced at the next request; -1 when out of memory or
   no worker could be started (err says why). */
int tc_worker_parse(tc_worker *w, const tc_compile_cmd *cmd, const tc_unsaved_file *unsaved,
                    size_t n_unsaved, int want_deps, double timeout_s, tc_parse_result *out,
                    char *err, size_t err_len);

/* The worker's side: serves requests on standard input until it closes. Returns the process's
   exit status. */
int tc_worker_main(void);

/* Says why a child process ended ("crashed (signal 11, Segmentation fault)"), for a failure
   reason: what is the subject ("the parser"), status as waitpid gave it. */
void tc_describe_exit(char *buf, size_t len, const char *what, int status);

#endif /* TC_WORKER_H */
