/* analyzer/src/report/given_paths.h — files shown as the command line names them, like clang:
 * `tagcheck ./sub/a.c` reports `./sub/a.c:3:5:`, not the absolute path the analysis works
 * with. Files the command line does not name (headers, compile database entries) are shown
 * as the analysis knows them. */
#ifndef TC_GIVEN_PATHS_H
#define TC_GIVEN_PATHS_H

#include <stddef.h>

#include "options.h"

typedef struct tc_given_paths {
  char **absolute;           /* per file of the command line: its normalized absolute path */
  const char *const *given;  /* borrowed from the options */
  size_t n;
} tc_given_paths;

/* Returns 0, or -1 out of memory (g is then empty: every file shown as it is). */
int tc_given_paths_init(tc_given_paths *g, const tc_options *o);
void tc_given_paths_free(tc_given_paths *g);
/* How to show file: its spelling on the command line when it names it, else file itself. */
const char *tc_given_path(const tc_given_paths *g, const char *file);

/* A unit's failure reason as shown: when it starts with the unit's own file (clang's first
   error, "FILE:3:5: error: …") and the command line names that file, with its spelling there
   instead. malloc'd (NULL out of memory). */
char *tc_given_reason(const tc_given_paths *g, const char *file, const char *reason);

#endif /* TC_GIVEN_PATHS_H */
