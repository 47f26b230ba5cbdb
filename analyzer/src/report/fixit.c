/* analyzer/src/report/fixit.c — fix-its from the sources (report/fixit.h): rendering a
 * finding's edits, applying them in place (--fix) and writing clang-tidy's YAML
 * (--export-fixes). */
#include "report/fixit.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "base/file.h"
#include "base/strbuf.h"

void tc_fix_repls_free(tc_fix_repl *r, size_t n) {
  for (size_t i = 0; i < n; i++) free(r[i].text);
  free(r);
}

/* The text of range l (same file, start and end known), appended to b. */
static int add_range_text(tc_source_cache *sc, const tc_loc *l, tc_strbuf *b) {
  const char *data;
  size_t size, from, to;
  if (!l->file || !*l->file || tc_source_text(sc, l->file, &data, &size) != 0 ||
      tc_source_offset(sc, l->file, l->line, l->col, &from) != 0 ||
      tc_source_offset(sc, l->file, l->end_line, l->end_col, &to) != 0 || to < from)
    return -1;
  tc_strbuf_add(b, data + from, to - from);
  return 0;
}

/* The index K of a `{K}` at p that names one of x's sources (its length in *len), or -1. */
static long source_ref(const tc_fix_edit *x, const char *p, size_t *len) {
  if (*p != '{' || p[1] < '0' || p[1] > '9') return -1;
  char *end;
  unsigned long k = strtoul(p + 1, &end, 10);
  if (*end != '}' || k >= x->n_sources) return -1;
  *len = (size_t)(end - p) + 1;
  return (long)k;
}

static char *render_one(tc_source_cache *sc, const tc_fix_edit *x) {
  tc_strbuf b;
  tc_strbuf_init(&b);
  for (const char *p = x->with; *p;) {
    size_t len;
    long k = source_ref(x, p, &len);
    if (k >= 0) {
      if (add_range_text(sc, &x->sources[k], &b) != 0) {
        tc_strbuf_free(&b);
        return NULL;
      }
      p += len;
      continue;
    }
    tc_strbuf_putc(&b, *p++);
  }
  tc_strbuf_putc(&b, '\0'); /* an empty replacement is still a string */
  b.len--;
  return tc_strbuf_take(&b);
}

int tc_fix_render(tc_source_cache *sc, const tc_diag *d, tc_fix_repl **out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (!d->n_fix) return -1;
  tc_fix_repl *r = calloc(d->n_fix, sizeof *r);
  if (!r) return -1;
  for (size_t i = 0; i < d->n_fix; i++) {
    const tc_fix_edit *x = &d->fix[i];
    size_t from, to;
    r[i].file = x->range.file;
    r[i].range = &x->range;
    if (tc_source_offset(sc, x->range.file, x->range.line, x->range.col, &from) != 0 ||
        tc_source_offset(sc, x->range.file, x->range.end_line, x->range.end_col, &to) != 0 ||
        to < from || !(r[i].text = render_one(sc, x))) {
      tc_fix_repls_free(r, d->n_fix);
      return -1;
    }
    r[i].offset = from;
    r[i].length = to - from;
  }
  *out = r;
  *n = d->n_fix;
  return 0;
}

/* ---- --fix ---- */

typedef struct file_edits {
  const char *file;
  tc_fix_repl *edits; /* borrowed texts */
  size_t n, cap;
} file_edits;

static file_edits *edits_of(file_edits **files, size_t *n_files, const char *file) {
  for (size_t i = 0; i < *n_files; i++)
    if (strcmp((*files)[i].file, file) == 0) return &(*files)[i];
  file_edits *nf = realloc(*files, (*n_files + 1) * sizeof *nf);
  if (!nf) return NULL;
  *files = nf;
  file_edits *f = &nf[(*n_files)++];
  memset(f, 0, sizeof *f);
  f->file = file;
  return f;
}

/* 0: fits among fe's edits; 1: the very same edit is there already; -1: overlaps one. */
static int placement(const file_edits *fe, const tc_fix_repl *x) {
  for (size_t i = 0; i < fe->n; i++) {
    const tc_fix_repl *y = &fe->edits[i];
    if (y->offset == x->offset && y->length == x->length && strcmp(y->text, x->text) == 0)
      return 1;
    size_t xe = x->offset + x->length, ye = y->offset + y->length;
    int overlap = x->length || y->length ? x->offset < ye && y->offset < xe
                                         : x->offset == y->offset;
    if (overlap || (x->offset == y->offset)) return -1;
  }
  return 0;
}

static int cmp_offset(const void *a, const void *b) {
  const tc_fix_repl *x = a, *y = b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Replaces fe's file by its text with fe's edits made (base/file.h: atomically, keeping the
   file's mode and owner). A symbolic link is followed: its target is fixed, the link stays. */
static int rewrite_file(tc_source_cache *sc, file_edits *fe, char *err, size_t err_len) {
  const char *data;
  size_t size;
  if (tc_source_text(sc, fe->file, &data, &size) != 0) {
    snprintf(err, err_len, "%s: cannot read the file to fix it", fe->file);
    return -1;
  }
  qsort(fe->edits, fe->n, sizeof *fe->edits, cmp_offset);
  tc_strbuf b;
  tc_strbuf_init(&b);
  size_t at = 0;
  for (size_t i = 0; i < fe->n; i++) {
    tc_strbuf_add(&b, data + at, fe->edits[i].offset - at);
    tc_strbuf_puts(&b, fe->edits[i].text);
    at = fe->edits[i].offset + fe->edits[i].length;
  }
  tc_strbuf_add(&b, data + at, size - at);
  if (b.failed) {
    tc_strbuf_free(&b);
    snprintf(err, err_len, "%s: out of memory fixing the file", fe->file);
    return -1;
  }
  char *target = realpath(fe->file, NULL);
  int rc = tc_write_file_atomically(target ? target : fe->file, tc_strbuf_str(&b), b.len);
  if (rc != 0)
    snprintf(err, err_len, "%s: cannot write the fixed file: %s", fe->file, strerror(errno));
  free(target);
  tc_strbuf_free(&b);
  return rc;
}

int tc_fix_apply(const tc_report *r, size_t *applied, size_t *skipped, char *err,
                 size_t err_len) {
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  file_edits *files = NULL;
  size_t n_files = 0;
  tc_fix_repl **owned = calloc(r->n_diags ? r->n_diags : 1, sizeof *owned);
  size_t *n_owned = calloc(r->n_diags ? r->n_diags : 1, sizeof *n_owned);
  int rc = owned && n_owned ? 0 : -1;
  *applied = *skipped = 0;
  for (size_t i = 0; i < r->n_diags && rc == 0; i++) {
    const tc_diag *d = &r->diags[i];
    if (d->suppressed || !d->n_fix) continue;
    if (tc_fix_render(&sc, d, &owned[i], &n_owned[i]) != 0) {
      (*skipped)++;
      continue;
    }
    int fits = 1;
    for (size_t k = 0; k < n_owned[i] && fits; k++) {
      file_edits *fe = edits_of(&files, &n_files, owned[i][k].file);
      if (!fe || placement(fe, &owned[i][k]) < 0) fits = 0;
    }
    if (!fits) {
      (*skipped)++;
      continue;
    }
    for (size_t k = 0; k < n_owned[i]; k++) {
      file_edits *fe = edits_of(&files, &n_files, owned[i][k].file);
      if (!fe || placement(fe, &owned[i][k]) == 1) continue;
      if (fe->n == fe->cap) {
        size_t cap = fe->cap ? fe->cap * 2 : 8;
        tc_fix_repl *ne = realloc(fe->edits, cap * sizeof *ne);
        if (!ne) {
          rc = -1;
          break;
        }
        fe->edits = ne;
        fe->cap = cap;
      }
      fe->edits[fe->n++] = owned[i][k];
    }
    (*applied)++;
  }
  for (size_t f = 0; f < n_files && rc == 0; f++)
    if (files[f].n && rewrite_file(&sc, &files[f], err, err_len) != 0) rc = -1;
  for (size_t f = 0; f < n_files; f++) free(files[f].edits);
  free(files);
  for (size_t i = 0; owned && n_owned && i < r->n_diags; i++) tc_fix_repls_free(owned[i], n_owned[i]);
  free(owned);
  free(n_owned);
  tc_source_cache_free(&sc);
  return rc;
}

/* ---- --export-fixes ---- */

/* A YAML double-quoted scalar. */
static void yaml_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", out);
    else if (*p == '\t')
      fputs("\\t", out);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(out, "\\x%02x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

static const char *yaml_level(tc_level l) {
  return l == TC_LEVEL_ERROR ? "Error" : l == TC_LEVEL_WARNING ? "Warning" : "Remark";
}

int tc_fix_export_yaml(const tc_report *r, const char *main_source, FILE *out) {
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  fputs("---\nMainSourceFile:  ", out);
  yaml_string(out, main_source ? main_source : "");
  fputs("\nDiagnostics:\n", out);
  size_t written = 0;
  for (size_t i = 0; i < r->n_diags; i++) {
    const tc_diag *d = &r->diags[i];
    tc_fix_repl *reps;
    size_t n;
    if (d->suppressed || tc_fix_render(&sc, d, &reps, &n) != 0) continue;
    size_t at = 0;
    (void)tc_source_offset(&sc, d->loc.file, d->loc.line, d->loc.col, &at);
    fputs("  - DiagnosticName:  ", out);
    yaml_string(out, d->rule_id);
    fputs("\n    DiagnosticMessage:\n      Message:         ", out);
    yaml_string(out, d->message);
    fputs("\n      FilePath:        ", out);
    yaml_string(out, d->loc.file);
    fprintf(out, "\n      FileOffset:      %zu\n      Replacements:\n", at);
    for (size_t k = 0; k < n; k++) {
      fputs("        - FilePath:        ", out);
      yaml_string(out, reps[k].file);
      fprintf(out, "\n          Offset:          %zu\n          Length:          %zu\n",
              reps[k].offset, reps[k].length);
      fputs("          ReplacementText: ", out);
      yaml_string(out, reps[k].text);
      fputc('\n', out);
    }
    fprintf(out, "    Level:           %s\n", yaml_level(d->level));
    tc_fix_repls_free(reps, n);
    written++;
  }
  if (!written) fputs("  []\n", out);
  fputs("...\n", out);
  tc_source_cache_free(&sc);
  return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int tc_fix_outputs(const tc_report *r, const tc_options *o) {
  if (o->export_fixes) {
    const char *main_source = o->n_files ? o->files[0] : "";
    char *yaml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&yaml, &len);
    int bad = !f || tc_fix_export_yaml(r, main_source, f) != 0;
    if (f && fclose(f) != 0) bad = 1;
    if (bad) errno = ENOMEM;
    if (bad || tc_write_file_atomically(o->export_fixes, yaml, len) != 0) {
      fprintf(stderr, "%s: error: cannot write the fixes: %s\n", o->export_fixes,
              strerror(errno));
      free(yaml);
      return -1;
    }
    free(yaml);
  }
  if (o->fix) {
    size_t applied = 0, skipped = 0;
    char err[1024] = "";
    if (tc_fix_apply(r, &applied, &skipped, err, sizeof err) != 0) {
      tc_print_problem("tagcheck", "error", err[0] ? err : "out of memory applying the fixes");
      return -1;
    }
    if (!o->quiet)
      fprintf(stderr, "tagcheck: applied the fixes of %zu finding%s%s", applied,
              applied == 1 ? "" : "s", skipped ? "" : "\n");
    if (!o->quiet && skipped)
      fprintf(stderr, " (%zu left out: overlapping or unreadable)\n", skipped);
  }
  return 0;
}
