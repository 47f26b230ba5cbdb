/* analyzer/src/report/report.c — building reports (diag.h): findings, notes, unit failures and
 * rule metadata, with deterministic sorting and de-duplication. Allocation failures never
 * crash: the item that could not be stored is dropped (tc_report_add then returns NULL). */
#include <stdlib.h>
#include <string.h>

#include "report/diag.h"
#include "report/report_internal.h"

void tc_report_init(tc_report *r) { memset(r, 0, sizeof *r); }

static void loc_free(tc_loc *l) {
  free(l->file);
  l->file = NULL;
}

static void fix_edit_free(tc_fix_edit *x) {
  loc_free(&x->range);
  for (size_t k = 0; k < x->n_sources; k++) loc_free(&x->sources[k]);
  free(x->sources);
  free(x->with);
  memset(x, 0, sizeof *x);
}

static void diag_free(tc_diag *d) {
  free(d->rule_id);
  loc_free(&d->loc);
  free(d->message);
  free(d->operation);
  free(d->function);
  for (size_t i = 0; i < d->n_notes; i++) {
    loc_free(&d->notes[i].loc);
    free(d->notes[i].message);
  }
  free(d->notes);
  for (size_t i = 0; i < d->n_fix; i++) fix_edit_free(&d->fix[i]);
  free(d->fix);
  free(d->suppression_text);
  free(d->fingerprint);
  memset(d, 0, sizeof *d);
}

static void rule_free(tc_rule_meta *m) {
  free(m->id);
  free(m->name);
  free(m->short_description);
  free(m->full_description);
  free(m->help);
  free(m->example);
  free(m->example_fix);
}

void tc_report_free(tc_report *r) {
  for (size_t i = 0; i < r->n_diags; i++) diag_free(&r->diags[i]);
  free(r->diags);
  for (size_t i = 0; i < r->n_failures; i++) {
    free(r->failures[i].file);
    free(r->failures[i].reason);
  }
  free(r->failures);
  for (size_t i = 0; i < r->n_rules; i++) rule_free(&r->rules[i]);
  free(r->rules);
  memset(r, 0, sizeof *r);
}

/* Grows *items (of *cap elements of size elem) so that one more fits after n. */
static int grow(void **items, size_t *cap, size_t n, size_t elem) {
  if (n < *cap) return 0;
  size_t ncap = *cap ? *cap * 2 : 16;
  if (ncap > (size_t)-1 / elem) return -1;
  void *p = realloc(*items, ncap * elem);
  if (!p) return -1;
  *items = p;
  *cap = ncap;
  return 0;
}

static int loc_copy(tc_loc *dst, const tc_loc *src) {
  memset(dst, 0, sizeof *dst);
  if (!src) {
    dst->file = tc_strdup_or_empty(NULL);
    return dst->file ? 0 : -1;
  }
  *dst = *src;
  dst->file = tc_strdup_or_empty(src->file);
  return dst->file ? 0 : -1;
}

tc_diag *tc_report_add(tc_report *r, const char *rule_id, tc_level level, const tc_loc *loc,
                       const char *operation, const char *function, const char *message) {
  if (grow((void **)&r->diags, &r->cap_diags, r->n_diags, sizeof *r->diags) != 0) return NULL;
  tc_diag *d = &r->diags[r->n_diags];
  memset(d, 0, sizeof *d);
  d->level = level;
  d->rule_id = tc_strdup_or_empty(rule_id);
  d->operation = tc_strdup_or_empty(operation);
  d->function = tc_strdup_or_empty(function);
  d->message = tc_strdup_or_empty(message);
  if (loc_copy(&d->loc, loc) != 0 || !d->rule_id || !d->operation || !d->function ||
      !d->message) {
    diag_free(d);
    return NULL;
  }
  r->n_diags++;
  return d;
}

void tc_diag_add_note(tc_diag *d, const tc_loc *loc, const char *message) {
  if (!d) return;
  tc_note *notes = realloc(d->notes, (d->n_notes + 1) * sizeof *notes);
  if (!notes) return;
  d->notes = notes;
  tc_note *n = &notes[d->n_notes];
  n->message = tc_strdup_or_empty(message);
  if (loc_copy(&n->loc, loc) != 0 || !n->message) {
    loc_free(&n->loc);
    free(n->message);
    return;
  }
  d->n_notes++;
}

int tc_diag_add_fix(tc_diag *d, const tc_loc *range, const char *with, const tc_loc *sources,
                    size_t n_sources) {
  if (!d) return -1;
  tc_fix_edit *fx = realloc(d->fix, (d->n_fix + 1) * sizeof *fx);
  if (!fx) return -1;
  d->fix = fx;
  tc_fix_edit *x = &fx[d->n_fix];
  memset(x, 0, sizeof *x);
  x->with = tc_strdup_or_empty(with);
  x->sources = n_sources ? calloc(n_sources, sizeof *x->sources) : NULL;
  int bad = !x->with || (n_sources && !x->sources) || loc_copy(&x->range, range);
  for (size_t k = 0; k < n_sources && !bad; k++, x->n_sources++)
    bad = loc_copy(&x->sources[k], &sources[k]) != 0;
  if (bad) {
    fix_edit_free(x);
    return -1;
  }
  d->n_fix++;
  return 0;
}

void tc_report_add_failure(tc_report *r, const char *file, const char *reason) {
  if (grow((void **)&r->failures, &r->cap_failures, r->n_failures, sizeof *r->failures) != 0)
    return;
  tc_unit_failure *f = &r->failures[r->n_failures];
  f->file = tc_strdup_or_empty(file);
  f->reason = tc_strdup_or_empty(reason);
  if (!f->file || !f->reason) {
    free(f->file);
    free(f->reason);
    return;
  }
  r->n_failures++;
}

const tc_rule_meta *tc_report_find_rule(const tc_report *r, const char *id, size_t *index) {
  for (size_t i = 0; i < r->n_rules; i++) {
    if (strcmp(r->rules[i].id, id) == 0) {
      if (index) *index = i;
      return &r->rules[i];
    }
  }
  return NULL;
}

void tc_report_add_rule(tc_report *r, const tc_rule_meta *meta) {
  if (!meta || !meta->id || !*meta->id || tc_report_find_rule(r, meta->id, NULL)) return;
  if (grow((void **)&r->rules, &r->cap_rules, r->n_rules, sizeof *r->rules) != 0) return;
  tc_rule_meta *m = &r->rules[r->n_rules];
  m->id = tc_strdup_or_empty(meta->id);
  m->name = tc_strdup_or_empty(meta->name);
  m->short_description = tc_strdup_or_empty(meta->short_description);
  m->full_description = tc_strdup_or_empty(meta->full_description);
  m->help = tc_strdup_or_empty(meta->help);
  m->default_level = meta->default_level;
  m->example = meta->example && *meta->example ? strdup(meta->example) : NULL;
  m->example_fix = meta->example_fix && *meta->example_fix ? strdup(meta->example_fix) : NULL;
  if (!m->id || !m->name || !m->short_description || !m->full_description || !m->help) {
    rule_free(m);
    return;
  }
  r->n_rules++;
}

void tc_report_add_builtin_rules(tc_report *r) {
  /* The tag rules of SPEC §4 are errors by default; the run-time-only rules (shape, …) are
     listed too so that a report can describe anything the runtime might say. */
#define DT_RULE(status, id, name, short_description, help)                                   \
  {                                                                                          \
    tc_rule_meta m = {(char *)(id), (char *)(name), (char *)(short_description),             \
                      (char *)(short_description " " help), (char *)(help), TC_LEVEL_ERROR, NULL, NULL}; \
    tc_report_add_rule(r, &m);                                                               \
  }
#include "dt/rules.def"
#undef DT_RULE
}

void tc_report_take(tc_report *dst, tc_report *src) {
  if (dst == src) return;
  for (size_t i = 0; i < src->n_diags; i++) {
    if (grow((void **)&dst->diags, &dst->cap_diags, dst->n_diags, sizeof *dst->diags) != 0) {
      diag_free(&src->diags[i]);
      continue;
    }
    dst->diags[dst->n_diags++] = src->diags[i];
  }
  src->n_diags = 0;
  for (size_t i = 0; i < src->n_failures; i++) {
    if (grow((void **)&dst->failures, &dst->cap_failures, dst->n_failures,
             sizeof *dst->failures) != 0) {
      free(src->failures[i].file);
      free(src->failures[i].reason);
      continue;
    }
    dst->failures[dst->n_failures++] = src->failures[i];
  }
  src->n_failures = 0;
  for (size_t i = 0; i < src->n_rules; i++) tc_report_add_rule(dst, &src->rules[i]);
  for (size_t i = 0; i < src->n_rules; i++) rule_free(&src->rules[i]);
  src->n_rules = 0;
  dst->n_units += src->n_units;
  src->n_units = 0;
}

static int cmp_uint(unsigned a, unsigned b) { return a < b ? -1 : a > b; }

static int cmp_loc(const tc_loc *a, const tc_loc *b) {
  int c = strcmp(a->file, b->file);
  if (!c) c = cmp_uint(a->line, b->line);
  if (!c) c = cmp_uint(a->col, b->col);
  return c;
}

/* The identity of a finding: same place, same rule, same message. */
static int cmp_identity(const tc_diag *a, const tc_diag *b) {
  int c = cmp_loc(&a->loc, &b->loc);
  if (!c) c = strcmp(a->rule_id, b->rule_id);
  if (!c) c = strcmp(a->message, b->message);
  return c;
}

/* A total order, so that the result never depends on the order findings arrived in: among
   duplicates the most severe comes first and is the one kept. */
static int cmp_diag(const void *pa, const void *pb) {
  const tc_diag *a = pa, *b = pb;
  int c = cmp_identity(a, b);
  if (!c) c = cmp_uint(b->level, a->level);
  if (!c) c = cmp_uint(a->loc.end_line, b->loc.end_line);
  if (!c) c = cmp_uint(a->loc.end_col, b->loc.end_col);
  if (!c) c = strcmp(a->operation, b->operation);
  if (!c) c = strcmp(a->function, b->function);
  if (!c) c = cmp_uint((unsigned)a->suppressed, (unsigned)b->suppressed);
  if (!c) c = a->n_notes < b->n_notes ? -1 : a->n_notes > b->n_notes;
  for (size_t i = 0; !c && i < a->n_notes; i++) {
    c = cmp_loc(&a->notes[i].loc, &b->notes[i].loc);
    if (!c) c = strcmp(a->notes[i].message, b->notes[i].message);
  }
  return c;
}

static int cmp_failure(const void *pa, const void *pb) {
  const tc_unit_failure *a = pa, *b = pb;
  int c = strcmp(a->file, b->file);
  return c ? c : strcmp(a->reason, b->reason);
}

void tc_report_sort(tc_report *r) {
  if (r->n_diags > 1) qsort(r->diags, r->n_diags, sizeof *r->diags, cmp_diag);
  size_t out = 0;
  for (size_t i = 0; i < r->n_diags; i++) {
    if (out > 0 && cmp_identity(&r->diags[out - 1], &r->diags[i]) == 0) {
      diag_free(&r->diags[i]);
      continue;
    }
    if (out != i) r->diags[out] = r->diags[i];
    out++;
  }
  r->n_diags = out;

  if (r->n_failures > 1) qsort(r->failures, r->n_failures, sizeof *r->failures, cmp_failure);
  out = 0;
  for (size_t i = 0; i < r->n_failures; i++) {
    if (out > 0 && cmp_failure(&r->failures[out - 1], &r->failures[i]) == 0) {
      free(r->failures[i].file);
      free(r->failures[i].reason);
      continue;
    }
    if (out != i) r->failures[out] = r->failures[i];
    out++;
  }
  r->n_failures = out;
}

const char *tc_level_name(tc_level l) {
  switch (l) {
  case TC_LEVEL_NOTE: return "note";
  case TC_LEVEL_WARNING: return "warning";
  case TC_LEVEL_ERROR: return "error";
  }
  return "error";
}

void tc_report_filter(tc_report *r, int (*keep)(const tc_diag *d, size_t index, void *ctx),
                      void *ctx) {
  size_t out = 0;
  for (size_t i = 0; i < r->n_diags; i++) {
    if (!keep(&r->diags[i], i, ctx)) {
      diag_free(&r->diags[i]);
      continue;
    }
    if (out != i) r->diags[out] = r->diags[i];
    out++;
  }
  r->n_diags = out;
}

int tc_level_parse(const char *name, tc_level *out) {
  static const struct { const char *name; tc_level level; } names[] = {
      {"error", TC_LEVEL_ERROR}, {"warning", TC_LEVEL_WARNING}, {"note", TC_LEVEL_NOTE}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (name && strcmp(name, names[i].name) == 0) {
      *out = names[i].level;
      return 0;
    }
  }
  return -1;
}

char *tc_strdup_or_empty(const char *s) { return strdup(s ? s : ""); }
