/* tests/engine/harness.h — end-to-end helpers for the engine's tests: lower C files through the
 * real front end (libclang), analyze them with the real rules, and compare the findings with
 * `// expect-error: RULE` / `// expect-warning: RULE` annotations (docs/corpus.md's format). */
#ifndef TC_TEST_ENGINE_HARNESS_H
#define TC_TEST_ENGINE_HARNESS_H

#include <stddef.h>

#include "report/diag.h"

typedef struct eh_opts {
  const char *const *unavailable; /* --unavailable backends */
  size_t n_unavailable;
  unsigned max_states;
  int dump_ir; /* print the lowered IR to stdout first */
  int no_analysis; /* parse and lower only (to time the engine against the front end) */
  double parse_s, analyze_s; /* out: seconds spent in each */
  const char *const *extra_args; /* more compiler arguments (-I, -D) */
  size_t n_extra_args;
  int keep_going; /* analyze units that had compile errors too */
} eh_opts;

/* Parses and lowers every file (one program, linked together), then analyzes it. Findings
   are appended to out (initialized by the caller). Returns 0, or -1 with a reason in err. */
int eh_analyze_files(const char *const *files, size_t n, eh_opts *o, tc_report *out,
                     char *err, size_t err_len);

/* Writes `text` to a fresh temporary file named `name` in a fresh directory; returns its
   malloc'd absolute path (the caller removes it with eh_remove). */
char *eh_write_temp(const char *name, const char *text);
void eh_remove(char *path);

/* Compares out with the annotations of the files. Returns the number of mismatches and
   describes them in msg. */
int eh_compare(const char *const *files, size_t n, const tc_report *out, char *msg,
               size_t msg_len);

#endif
