/* analyzer/src/engine/observe.h — what the analysis saw at chosen source positions: the tag of
 * the tensor expression at FILE:LINE:COL (backend, device ordinal, autodiff wrapper, kind, and
 * where the rules track buffers, where it is allocated), joined over every path and calling
 * context that reached it. The language server's hover asks (lsp/lsp_hover.c); a run that asks
 * nothing (tc_engine_opts.observe NULL) pays one pointer test per instruction.
 *
 * Which expression a position names, among the instructions whose source the position is in:
 * a call's argument whose range holds it (its value before the call), else the instruction's
 * result (after it: the call's, or the assignment's); the name of a local variable in its
 * declaration names the value of the nearest write after it (its initializer), a parameter's
 * name in the signature its value at the function's entry. The smallest such range wins; only
 * tensor handles count. */
#ifndef TC_OBSERVE_H
#define TC_OBSERVE_H

#include <stddef.h>

#define TC_OBSERVE_TAGS_MAX 8

typedef struct tc_observe tc_observe;

tc_observe *tc_observe_new(void);
void tc_observe_free(tc_observe *o);
/* Asks for the tag at file (absolute, as the compile command names it; its real path matches
   too), 1-based line and byte column. Returns the question's index, or -1 out of memory. */
int tc_observe_add(tc_observe *o, const char *file, unsigned line, unsigned col);
size_t tc_observe_count(const tc_observe *o);

/* One tag in words (the rules' spellings). */
typedef struct tc_observed_tag {
  char device[64];    /* "cuda:0", "autodiff<cpu>", "cuda:?" (ordinal unknown), "unknown" */
  char backend[32];   /* "cuda", "unknown" */
  char ordinal[16];   /* "0", "unknown"; "" for a backend with a single device */
  char autodiff[8];   /* "yes", "no", "unknown" */
  char kind[32];      /* "float", "unknown" */
  char placement[128];/* rules that track buffers (ggml): "unallocated: …", "in a gpu buffer";
                         "" otherwise */
} tc_observed_tag;

typedef struct tc_observed {
  int found;           /* an analyzed path reached a tensor expression there */
  char spelling[128];  /* how the source names it ("" for a call's result without a name) */
  unsigned line, col, end_line, end_col; /* its range (end exclusive; 0: unknown) */
  unsigned n_paths;    /* analysis states that reached it, over every calling context */
  unsigned n_unknown;  /* of which its tag was not known at all */
  unsigned n_contexts; /* calling contexts it was reached in (at least 1 when found) */
  tc_observed_tag joined; /* the field-wise join over them: a field that differs is unknown */
  size_t n_tags;       /* the distinct known tags seen (several: the tag depends on the path) */
  int more_tags;       /* more than TC_OBSERVE_TAGS_MAX */
  tc_observed_tag tags[TC_OBSERVE_TAGS_MAX];
} tc_observed;

/* The answer to question i, as the last analysis given o left it. Returns 0, -1 for no such
   question. */
int tc_observe_get(const tc_observe *o, size_t i, tc_observed *out);

#endif /* TC_OBSERVE_H */
