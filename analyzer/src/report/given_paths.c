/* analyzer/src/report/given_paths.c — files shown as the command line names them
 * (report/given_paths.h). */
#include "report/given_paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/path.h"
#include "base/uri.h"

int tc_given_paths_init(tc_given_paths *g, const tc_options *o) {
  memset(g, 0, sizeof *g);
  if (!o->n_files) return 0;
  g->absolute = calloc(o->n_files, sizeof *g->absolute);
  if (!g->absolute) return -1;
  g->given = (const char *const *)o->files;
  g->n = o->n_files;
  for (size_t i = 0; i < g->n; i++)
    if (!(g->absolute[i] = tc_normalize_path(o->files[i]))) {
      tc_given_paths_free(g);
      return -1;
    }
  return 0;
}

void tc_given_paths_free(tc_given_paths *g) {
  for (size_t i = 0; g->absolute && i < g->n; i++) free(g->absolute[i]);
  free(g->absolute);
  memset(g, 0, sizeof *g);
}

const char *tc_given_path(const tc_given_paths *g, const char *file) {
  if (!file || !g->n) return file;
  for (size_t i = 0; i < g->n; i++)
    if (strcmp(g->absolute[i], file) == 0) return g->given[i];
  return file;
}

char *tc_given_reason(const tc_given_paths *g, const char *file, const char *reason) {
  const char *shown = tc_given_path(g, file);
  size_t n = file ? strlen(file) : 0;
  char *out = NULL;
  if (shown != file && strncmp(reason, file, n) == 0 && reason[n] == ':') {
    if (asprintf(&out, "%s%s", shown, reason + n) < 0) out = NULL;
  } else {
    out = strdup(reason);
  }
  return out;
}
