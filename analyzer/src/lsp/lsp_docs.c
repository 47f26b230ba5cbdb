/* analyzer/src/lsp/lsp_docs.c — the document store of the LSP server (see lsp_docs.h). */
#include "lsp/lsp_docs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_text.h"
#include "lsp/lsp_uri.h"

void tc_lsp_docs_init(tc_lsp_docs *d) { memset(d, 0, sizeof *d); }

static void doc_free(tc_lsp_doc *doc) {
  if (!doc) return;
  free(doc->uri);
  free(doc->path);
  free(doc->real);
  free(doc->text);
  free(doc->last_error);
  free(doc->program);
  cJSON_Delete(doc->published);
  free(doc);
}

void tc_lsp_docs_free(tc_lsp_docs *d) {
  for (size_t i = 0; i < d->n; i++) doc_free(d->items[i]);
  free(d->items);
  memset(d, 0, sizeof *d);
}

tc_lsp_doc *tc_lsp_docs_find(const tc_lsp_docs *d, const char *uri) {
  for (size_t i = 0; i < d->n; i++)
    if (strcmp(d->items[i]->uri, uri) == 0) return d->items[i];
  return NULL;
}

tc_lsp_doc *tc_lsp_docs_find_path(const tc_lsp_docs *d, const char *path) {
  for (size_t i = 0; i < d->n; i++) {
    const tc_lsp_doc *doc = d->items[i];
    if ((doc->real && strcmp(doc->real, path) == 0) || (doc->path && strcmp(doc->path, path) == 0))
      return d->items[i];
  }
  return NULL;
}

static char *copy_text(const char *text, size_t len) {
  char *t = malloc(len + 1);
  if (!t) return NULL;
  memcpy(t, text, len);
  t[len] = '\0';
  return t;
}

int tc_lsp_doc_set_text(tc_lsp_doc *doc, const char *text, size_t len, long long version) {
  char *t = copy_text(text, len);
  if (!t) return -1;
  free(doc->text);
  doc->text = t;
  doc->len = len;
  doc->version = version;
  return 0;
}

tc_lsp_doc *tc_lsp_docs_open(tc_lsp_docs *d, const char *uri, const char *text, size_t len,
                             long long version) {
  tc_lsp_doc *doc = tc_lsp_docs_find(d, uri);
  if (doc) return tc_lsp_doc_set_text(doc, text, len, version) == 0 ? doc : NULL;
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 8;
    tc_lsp_doc **items = realloc(d->items, cap * sizeof *items);
    if (!items) return NULL;
    d->items = items;
    d->cap = cap;
  }
  doc = calloc(1, sizeof *doc);
  if (!doc) return NULL;
  doc->uri = strdup(uri);
  doc->path = tc_lsp_uri_to_path(uri);
  if (doc->path) {
    char resolved[PATH_MAX];
    doc->real = strdup(realpath(doc->path, resolved) ? resolved : doc->path);
  }
  doc->published = cJSON_CreateObject();
  if (!doc->uri || (doc->path && !doc->real) || !doc->published ||
      tc_lsp_doc_set_text(doc, text, len, version) != 0) {
    doc_free(doc);
    return NULL;
  }
  d->items[d->n++] = doc;
  return doc;
}

cJSON *tc_lsp_docs_close(tc_lsp_docs *d, const char *uri) {
  for (size_t i = 0; i < d->n; i++) {
    tc_lsp_doc *doc = d->items[i];
    if (strcmp(doc->uri, uri) != 0) continue;
    cJSON *published = doc->published;
    doc->published = NULL;
    doc_free(doc);
    d->items[i] = d->items[--d->n];
    return published;
  }
  return NULL;
}

int tc_lsp_doc_apply_edit(tc_lsp_doc *doc, unsigned start_line, unsigned start_char,
                          unsigned end_line, unsigned end_char, const char *text, size_t len,
                          int utf8) {
  tc_lsp_lines lines;
  if (tc_lsp_lines_init(&lines, doc->text, doc->len) != 0) return -1;
  size_t a = tc_lsp_lines_offset(&lines, (tc_lsp_pos){start_line, start_char}, utf8);
  size_t b = tc_lsp_lines_offset(&lines, (tc_lsp_pos){end_line, end_char}, utf8);
  tc_lsp_lines_free(&lines);
  if (b < a) b = a;
  size_t n = doc->len - (b - a) + len;
  char *t = malloc(n + 1);
  if (!t) return -1;
  memcpy(t, doc->text, a);
  memcpy(t + a, text, len);
  memcpy(t + a + len, doc->text + b, doc->len - b);
  t[n] = '\0';
  free(doc->text);
  doc->text = t;
  doc->len = n;
  return 0;
}

tc_unsaved_file *tc_lsp_docs_unsaved(const tc_lsp_docs *d, size_t *n) {
  *n = 0;
  tc_unsaved_file *u = calloc(d->n ? d->n : 1, sizeof *u);
  for (size_t i = 0; u && i < d->n; i++) {
    const tc_lsp_doc *o = d->items[i];
    if (o->path) u[(*n)++] = (tc_unsaved_file){o->path, o->text, o->len};
  }
  return u;
}
