/* tests/corpus/annotations.h — the C reader of the corpus annotations (docs/corpus.md,
 * "Annotations"): `// expect-error: RULE[, RULE…]`, `// expect-warning: …`, `@+N` / `@-N`, in a
 * comment. The C drivers (tests/engine's cases, tests/lsp's fixtures) read them here, the Python
 * drivers (tests/corpus, tests/ggml, scripts/demo_summary.py) through tests/corpus/corpus.py:
 * the same syntax, one reader per language. */
#ifndef TC_TEST_ANNOTATIONS_H
#define TC_TEST_ANNOTATIONS_H

#include <stddef.h>

typedef struct tc_annotation {
  unsigned line;     /* the line the finding is expected on (1-based, @±N applied) */
  unsigned src_line; /* the line the annotation is written on */
  size_t col;        /* byte offset of "expect-" in its line */
  int is_error;      /* expect-error (else expect-warning) */
  char rule[64];
} tc_annotation;

/* Reads every annotation of the file at path, one entry per rule, appended to *out (grown with
   realloc; *n entries). Returns 0, or -1 when the file cannot be read or memory runs out. */
int tc_annotations_read(const char *path, tc_annotation **out, size_t *n);

#endif /* TC_TEST_ANNOTATIONS_H */
