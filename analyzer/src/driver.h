/* analyzer/src/driver.h — what main.c and the editor mode ask of the analyzer: a whole run
 * (units from the compile database or FILE -- ARGS, parsed and lowered on -j threads or taken
 * from the cache, analyzed as one program, reported) returning the exit status; and a session
 * that analyzes one unit at a time, with unsaved buffers, in a long-lived process. */
#ifndef TC_DRIVER_H
#define TC_DRIVER_H

#include <stddef.h>

#include "frontend/compdb.h"
#include "frontend/parse.h"
#include "options.h"
#include "report/diag.h"

/* The whole command-line run (not --lsp, not merge). Prints its own messages; returns the exit
   status of SPEC §5: 0 no finding, 1 findings, 2 bad usage or unreadable configuration, 3 a
   unit could not be analyzed. o may be completed by the configuration file. */
int tc_driver_run(tc_options *o);

/* The rules files the options name, or the default one (the installed rules/dt.json when it
   exists, else the source tree's). Returns the number of paths written to paths (at most max). */
size_t tc_driver_rules_paths(const tc_options *o, const char **paths, size_t max);

/* ---- editor mode ---- */

typedef struct tc_session tc_session;

/* Loads the rules o names (or the default ones). o: the command line's options cli with the
   configuration of the session's folder merged in; a finding in another folder is judged by its
   own nearest configuration merged over cli (driver/config_scope.h). Both must outlive the
   session. NULL with "FILE:LINE:COL: what is wrong" in err when they cannot be loaded. */
tc_session *tc_session_new(const tc_options *cli, const tc_options *o, char *err, size_t err_len);
void tc_session_free(tc_session *s);

/* Analyzes cmd's program with the unsaved buffers given in place and appends its findings to
   out (suppressions and rule settings applied, sorted). When cmd is an entry of db (not NULL),
   that is the whole program holding it — the component of the database, as `tagcheck -p DIR
   FILE` analyzes it: every unit lowered (those reading an unsaved buffer with it, the others
   from the cache), every finding of the component reported, whatever file it is in; else cmd's
   unit alone. *files / *n_files get the units analyzed (malloc'd). A unit with clang errors is
   analyzed as far as its AST goes and also recorded as a failure in out. Returns 0, or -1 with
   the reason in err when cmd's unit has no AST at all. Leaves nothing behind between calls but
   the session's rules (and the cache on disk). */
int tc_session_analyze(tc_session *s, const tc_compdb *db, const tc_compile_cmd *cmd,
                       const tc_unsaved_file *unsaved, size_t n_unsaved, tc_report *out,
                       char ***files, size_t *n_files, char *err, size_t err_len);

/* Analyzes the whole programs of a file db does not list (a header) — the components holding
   the units that include it, as `tagcheck -p DIR HEADER` analyzes them — with the unsaved
   buffers in place, appending every finding of those components to out, like
   tc_session_analyze. Returns 0; 1 when no unit of db includes file (nothing done); -1 with
   the reason in err. */
int tc_session_analyze_includers(tc_session *s, const tc_compdb *db, const char *file,
                                 const tc_unsaved_file *unsaved, size_t n_unsaved,
                                 tc_report *out, char ***files, size_t *n_files, char *err,
                                 size_t err_len);

#endif /* TC_DRIVER_H */
