/* analyzer/src/lsp/lsp_docs.h — the LSP server's document store: every document the client has
 * opened, with its latest unsaved text and version, its debounce deadline, and the diagnostics
 * its last analysis produced for each file of its translation unit (itself and headers). */
#ifndef TC_LSP_DOCS_H
#define TC_LSP_DOCS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "frontend/parse.h"

typedef struct tc_lsp_doc {
  char *uri;            /* exactly as the client sent it */
  char *path;           /* local path decoded from uri; NULL when uri is not a file:// URI */
  char *real;           /* realpath(path), or path when the file is not on disk */
  char *text;           /* latest content, NUL-terminated */
  size_t len;
  long long version;
  int dirty;            /* content (or its compile command) changed since the last analysis */
  long long due_ms;     /* when dirty: monotonic time at which to analyze */
  int fallback_told;    /* the "no compile command" message was shown for this document */
  char *last_error;     /* why the last analysis failed (shown once), or NULL */
  cJSON *published;     /* object: target URI -> array of diagnostics from this document's unit */
  char *program;        /* the first unit of the program its last analysis covered (a header's
                           program is that of its includers), or NULL */
} tc_lsp_doc;

typedef struct tc_lsp_docs {
  tc_lsp_doc **items;   /* pointers stay valid until the document is closed */
  size_t n, cap;
} tc_lsp_docs;

void tc_lsp_docs_init(tc_lsp_docs *d);
void tc_lsp_docs_free(tc_lsp_docs *d);

/* Opens (or reopens, replacing the text) uri. Returns the document, NULL out of memory. */
tc_lsp_doc *tc_lsp_docs_open(tc_lsp_docs *d, const char *uri, const char *text, size_t len,
                             long long version);
tc_lsp_doc *tc_lsp_docs_find(const tc_lsp_docs *d, const char *uri);
/* The open document whose path or real path is path, or NULL. */
tc_lsp_doc *tc_lsp_docs_find_path(const tc_lsp_docs *d, const char *path);
/* Removes uri; returns its published object (caller deletes) so its targets can be updated. */
cJSON *tc_lsp_docs_close(tc_lsp_docs *d, const char *uri);

/* The unsaved texts of every open document that is a file (borrowed from d, valid until it
   changes), malloc'd, their count in *n; NULL out of memory. */
tc_unsaved_file *tc_lsp_docs_unsaved(const tc_lsp_docs *d, size_t *n);

/* Replaces a document's text. Returns 0, or -1 out of memory (the old text is kept). */
int tc_lsp_doc_set_text(tc_lsp_doc *doc, const char *text, size_t len, long long version);

/* Applies one ranged change (LSP positions, in UTF-16 units or UTF-8 bytes) to the text. Returns
   0, or -1 when out of memory. Out-of-range positions clamp to the text. */
int tc_lsp_doc_apply_edit(tc_lsp_doc *doc, unsigned start_line, unsigned start_char,
                          unsigned end_line, unsigned end_char, const char *text, size_t len,
                          int utf8);

#endif /* TC_LSP_DOCS_H */
