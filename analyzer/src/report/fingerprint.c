/* analyzer/src/report/fingerprint.c — the line-independent fingerprints of fingerprint.h. The
 * hash itself is dt/fingerprint.h, shared with the runtime's DT_REPORT log. */
#include "report/fingerprint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/uri.h"
#include "base/path.h"

char *tc_fingerprint_normalize_line(const char *text, size_t len) {
  char *out = malloc(len + 1);
  if (out) dt_fingerprint_normalize(text, len, out);
  return out;
}

typedef struct keyed {
  uint64_t a, b;       /* hash of the key without the occurrence index */
  unsigned line, col;  /* occurrences are numbered by position in the file, so the index does
                          not depend on the order the report happens to be in */
  size_t index;        /* the diag */
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *x = pa, *y = pb;
  if (x->a != y->a) return x->a < y->a ? -1 : 1;
  if (x->b != y->b) return x->b < y->b ? -1 : 1;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static int diag_key(const tc_diag *d, const char *root_dir, tc_source_cache *sc, keyed *k) {
  char *rel = tc_path_below_root(root_dir, d->loc.file);
  const char *file = rel ? rel : d->loc.file;
  const char *text = "";
  size_t len = 0;
  if (tc_source_line(sc, d->loc.file, d->loc.line, &text, &len) != 0) text = "", len = 0;
  char *line = tc_fingerprint_normalize_line(text, len);
  if (!line) {
    free(rel);
    return -1;
  }
  dt_fingerprint_hash h = dt_fingerprint_key(d->rule_id, file, d->function, d->operation, line);
  k->a = h.a;
  k->b = h.b;
  free(line);
  free(rel);
  return 0;
}

int tc_fingerprints(const tc_report *r, const char *root_dir, tc_source_cache *sc,
                    tc_fingerprint *out) {
  if (r->n_diags == 0) return 0;
  keyed *keys = calloc(r->n_diags, sizeof *keys);
  if (!keys) return -1;
  for (size_t i = 0; i < r->n_diags; i++) {
    keys[i].index = i;
    keys[i].line = r->diags[i].loc.line;
    keys[i].col = r->diags[i].loc.col;
    if (diag_key(&r->diags[i], root_dir, sc, &keys[i]) != 0) {
      free(keys);
      return -1;
    }
  }
  qsort(keys, r->n_diags, sizeof *keys, cmp_keyed);
  unsigned long long occurrence = 0;
  for (size_t i = 0; i < r->n_diags; i++) {
    if (i > 0 && keys[i].a == keys[i - 1].a && keys[i].b == keys[i - 1].b) occurrence++;
    else occurrence = 0;
    dt_fingerprint_hash h = {keys[i].a, keys[i].b};
    dt_fingerprint_format(h, occurrence, out[keys[i].index]);
  }
  free(keys);
  for (size_t i = 0; i < r->n_diags; i++)
    if (r->diags[i].fingerprint)
      snprintf(out[i], sizeof out[i], "%s", r->diags[i].fingerprint);
  return 0;
}

int tc_report_fix_fingerprints(tc_report *r, const tc_options *o) {
  size_t missing = 0;
  for (size_t i = 0; i < r->n_diags; i++) missing += r->diags[i].fingerprint == NULL;
  if (missing == 0) return 0;
  tc_report_sort(r);
  int rc = -1;
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  char *root = tc_path_root_dir(o ? o->root : NULL);
  tc_fingerprint *fps = calloc(r->n_diags, sizeof *fps);
  if (fps && tc_fingerprints(r, root ? root : "/", &sc, fps) == 0) {
    rc = 0;
    for (size_t i = 0; i < r->n_diags && rc == 0; i++)
      if (!r->diags[i].fingerprint && !(r->diags[i].fingerprint = strdup(fps[i]))) rc = -1;
  }
  free(fps);
  free(root);
  tc_source_cache_free(&sc);
  return rc;
}
