/* analyzer/src/base/json_pos.h — positioned errors and typed getters over a cJSON document:
 * cJSON keeps no positions, so a key is found again in the text, and every error reads
 * "FILE:LINE:COL: what is wrong" (syntax errors at cJSON's offset, semantic ones at the key
 * they concern). The first error wins; later ones are dropped. */
#ifndef TC_BASE_JSON_POS_H
#define TC_BASE_JSON_POS_H

#include <cjson/cJSON.h>
#include <stddef.h>

typedef struct tc_json_src {
  const char *text; /* the document being read */
  const char *file; /* its name in errors */
  char *err;        /* where the first error goes */
  size_t err_len;
  int failed;
} tc_json_src;

/* The 1-based line and column of byte offset off of text. */
void tc_json_line_col(const char *text, size_t off, unsigned *line, unsigned *col);

/* Records the first error, at byte offset off of the text. */
void tc_json_fail(tc_json_src *s, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The offset of `"key"` followed by `:` at or after from; from when absent. */
size_t tc_json_find_key(const char *text, size_t from, const char *key);
/* The offset of the nested keys k1, k2, … (NULL-terminated), each searched after the last. */
size_t tc_json_locate(const tc_json_src *s, ...);
/* Rejects keys of obj not in allowed (NULL-terminated), and keys given twice: -1, else 0. */
int tc_json_only_keys(tc_json_src *s, const cJSON *obj, size_t where, const char *what,
                      const char *const *allowed);
/* Typed getters of obj's key: 1 read into *out, 0 absent, -1 wrong (the error recorded). */
int tc_json_int(tc_json_src *s, const cJSON *obj, const char *key, size_t where, int lo, int hi,
                int *out);
int tc_json_bool(tc_json_src *s, const cJSON *obj, const char *key, size_t where, int *out);
/* A non-empty string, or NULL (absent; an error when required or when not such a string). */
const char *tc_json_string(tc_json_src *s, const cJSON *obj, const char *key, size_t where,
                           int required, const char *what);

#endif /* TC_BASE_JSON_POS_H */
