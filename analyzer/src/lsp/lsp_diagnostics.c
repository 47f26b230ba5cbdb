/* analyzer/src/lsp/lsp_diagnostics.c — building LSP Diagnostic objects from a tagcheck report
 * (see lsp_diagnostics.h). Source texts are looked up once per build in a small cache: open
 * documents' unsaved text first, the file on disk otherwise. */
#include "base/file.h"
#include "lsp/lsp_diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_text.h"
#include "report/fixit.h"
#include "report/source.h"
#include "report/json_util.h"
#include "report/sarif_limits.h"
#include "base/uri.h"

typedef struct text_entry {
  char *path;
  char *owned;        /* file contents read from disk (NULL when borrowed or unreadable) */
  tc_lsp_lines lines; /* over the document's text or owned */
  char *uri;
} text_entry;

typedef struct text_cache {
  const tc_lsp_docs *docs;
  text_entry **items; /* entries never move: pointers to them stay valid */
  size_t n, cap;
} text_cache;


char *tc_lsp_uri_for_path(const tc_lsp_docs *docs, const char *path) {
  const tc_lsp_doc *doc = tc_lsp_docs_find_path(docs, path);
  return doc ? strdup(doc->uri) : tc_file_uri(path);
}

/* The cache entry of path, loading it on first use; NULL out of memory. */
static text_entry *text_of(text_cache *c, const char *path) {
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->items[i]->path, path) == 0) return c->items[i];
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 8;
    text_entry **items = realloc(c->items, cap * sizeof *items);
    if (!items) return NULL;
    c->items = items;
    c->cap = cap;
  }
  text_entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  const tc_lsp_doc *doc = tc_lsp_docs_find_path(c->docs, path);
  const char *text = "";
  size_t len = 0;
  if (doc) {
    text = doc->text;
    len = doc->len;
  } else {
    e->owned = tc_file_read(path, 0, &len);
    if (e->owned) text = e->owned;
    else len = 0;
  }
  e->path = strdup(path);
  e->uri = tc_lsp_uri_for_path(c->docs, path);
  if (!e->path || !e->uri || tc_lsp_lines_init(&e->lines, text, len) != 0) {
    free(e->path);
    free(e->uri);
    free(e->owned);
    free(e);
    return NULL;
  }
  c->items[c->n++] = e;
  return e;
}

static void text_cache_free(text_cache *c) {
  for (size_t i = 0; i < c->n; i++) {
    free(c->items[i]->path);
    free(c->items[i]->owned);
    free(c->items[i]->uri);
    tc_lsp_lines_free(&c->items[i]->lines);
    free(c->items[i]);
  }
  free(c->items);
}

/* The array for uri in by_uri, created on first use. */
static cJSON *array_for(cJSON *by_uri, const char *uri) {
  cJSON *a = cJSON_GetObjectItemCaseSensitive(by_uri, uri);
  if (!a) {
    a = cJSON_CreateArray();
    cJSON_AddItemToObject(by_uri, uri, a);
  }
  return a;
}

static cJSON *position_json(tc_lsp_pos p) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "line", p.line);
  cJSON_AddNumberToObject(o, "character", p.character);
  return o;
}

/* The LSP range of loc in e's text: the analyzer's extent when it has one (end column
   exclusive), else the identifier at the start (the called function's name). */
static cJSON *range_json(const text_entry *e, const tc_loc *loc, int utf8) {
  unsigned end_line = loc->end_line, end_col = loc->end_col;
  if (end_line == 0 || end_line < loc->line || (end_line == loc->line && end_col <= loc->col)) {
    end_line = loc->line;
    end_col = tc_lsp_lines_token_end(&e->lines, loc->line, loc->col);
  }
  cJSON *r = cJSON_CreateObject();
  cJSON_AddItemToObject(r, "start", position_json(tc_lsp_lines_position(&e->lines, loc->line, loc->col, utf8)));
  cJSON_AddItemToObject(r, "end", position_json(tc_lsp_lines_position(&e->lines, end_line, end_col, utf8)));
  return r;
}

static int severity_of(tc_level l) {
  switch (l) {
    case TC_LEVEL_ERROR: return 1;
    case TC_LEVEL_WARNING: return 2;
    case TC_LEVEL_NOTE: return 3;
  }
  return 3;
}


/* The fix-it as the code action needs it (textDocument/codeAction, lsp_code_action.h):
   {"title", "changes": {uri: [TextEdit]}}, rendered on the unsaved texts; NULL without one. */
static cJSON *fix_json(text_cache *c, tc_source_cache *sc, const tc_diag *d, int utf8) {
  tc_fix_repl *reps;
  size_t n;
  if (tc_fix_render(sc, d, &reps, &n) != 0) return NULL;
  cJSON *fix = cJSON_CreateObject();
  char title[512];
  snprintf(title, sizeof title, "Replace with '%.400s'%s", reps[0].text, n > 1 ? " (and more)" : "");
  tc_json_add_text(fix, "title", title);
  cJSON *changes = cJSON_AddObjectToObject(fix, "changes");
  for (size_t k = 0; k < n; k++) {
    const text_entry *fe = text_of(c, reps[k].file);
    if (!fe) {
      cJSON_Delete(fix);
      fix = NULL;
      break;
    }
    cJSON *edit = cJSON_CreateObject();
    cJSON_AddItemToObject(edit, "range", range_json(fe, reps[k].range, utf8));
    tc_json_add_text(edit, "newText", reps[k].text);
    cJSON_AddItemToArray(array_for(changes, fe->uri), edit);
  }
  tc_fix_repls_free(reps, n);
  return fix;
}

static cJSON *diagnostic_json(text_cache *c, const text_entry *e, const tc_diag *d, int utf8) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddItemToObject(o, "range", range_json(e, &d->loc, utf8));
  cJSON_AddNumberToObject(o, "severity", severity_of(d->level));
  tc_json_add_text(o, "code", d->rule_id);
  char *anchor = tc_uri_encode_path(d->rule_id ? d->rule_id : "");
  char href[512];
  snprintf(href, sizeof href, "%s#%s", TC_RULES_HELP_URI, anchor ? anchor : "");
  free(anchor);
  cJSON *cd = cJSON_AddObjectToObject(o, "codeDescription");
  tc_json_add_text(cd, "href", href);
  cJSON_AddStringToObject(o, "source", "tagcheck");
  tc_json_add_text(o, "message", d->message);
  if (d->n_notes > 0) {
    cJSON *rel = cJSON_AddArrayToObject(o, "relatedInformation");
    for (size_t i = 0; i < d->n_notes; i++) {
      const tc_note *n = &d->notes[i];
      if (!n->loc.file || !n->loc.file[0]) continue;
      const text_entry *ne = text_of(c, n->loc.file);
      if (!ne) continue;
      cJSON *ri = cJSON_CreateObject();
      cJSON *loc = cJSON_AddObjectToObject(ri, "location");
      cJSON_AddStringToObject(loc, "uri", ne->uri);
      cJSON_AddItemToObject(loc, "range", range_json(ne, &n->loc, utf8));
      tc_json_add_text(ri, "message", n->message);
      cJSON_AddItemToArray(rel, ri);
    }
  }
  return o;
}

cJSON *tc_lsp_diagnostics_build(const tc_report *r, const tc_lsp_docs *docs, const char *main_uri,
                                int utf8) {
  text_cache c = {.docs = docs};
  cJSON *by_uri = cJSON_CreateObject();
  if (!by_uri) return NULL;
  tc_source_cache sc; /* the fix-its' texts: open documents' unsaved text first */
  tc_source_cache_init(&sc);
  for (size_t i = 0; i < docs->n; i++) {
    const tc_lsp_doc *doc = docs->items[i];
    if (doc->path) (void)tc_source_put(&sc, doc->path, doc->text, doc->len);
    if (doc->real && (!doc->path || strcmp(doc->real, doc->path) != 0))
      (void)tc_source_put(&sc, doc->real, doc->text, doc->len);
  }
  if (main_uri) array_for(by_uri, main_uri);
  for (size_t i = 0; i < r->n_diags; i++) {
    const tc_diag *d = &r->diags[i];
    if (d->suppressed || !d->loc.file || !d->loc.file[0]) continue;
    const text_entry *e = text_of(&c, d->loc.file);
    if (!e) continue;
    cJSON *a = array_for(by_uri, e->uri);
    cJSON *diag = diagnostic_json(&c, e, d, utf8);
    cJSON *fix = d->n_fix ? fix_json(&c, &sc, d, utf8) : NULL;
    if (fix) cJSON_AddItemToObject(cJSON_AddObjectToObject(diag, "data"), "fix", fix);
    cJSON_AddItemToArray(a, diag);
  }
  text_cache_free(&c);
  tc_source_cache_free(&sc);
  return by_uri;
}
