/* dt/fingerprint.h — the partialFingerprints scheme shared by tagcheck's SARIF reports and the
 * runtime's DT_REPORT log, so that CI can merge static and run-time findings into one report
 * and a baseline recognises a finding whichever half reported it.
 *
 * A fingerprint is a 128-bit FNV-1a hash (two 64-bit lanes with different offset bases) of
 *   rule id, file, enclosing function, operation, normalized source line
 * (each part followed by its NUL byte), extended with the decimal occurrence index of the
 * finding among the report's findings with the same key (0 for the first, in report order).
 * `file` is the path relative to %SRCROOT% when the file is below it, else the absolute path;
 * the normalized line is the finding's source line with whitespace and comments removed
 * (string and character literals kept). Line numbers are not part of it: inserting unrelated
 * lines above a finding keeps its fingerprint. Written as 32 lowercase hex digits under the
 * key DT_FINGERPRINT_KEY.
 *
 * Header-only (static inline): tagcheck (analyzer/src/report/fingerprint.c) and libdt
 * (runtime/src/report_sarif.c) both include it. */
#ifndef DT_FINGERPRINT_H
#define DT_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dt/bytes.h"

#define DT_FINGERPRINT_KEY "tagcheckFingerprint/v1"
#define DT_FINGERPRINT_HEX 32 /* characters, without the NUL */

#define DT_FINGERPRINT_BASIS_A DT_FNV_BASIS
#define DT_FINGERPRINT_BASIS_B UINT64_C(0x84222325cbf29ce4)

/* A key's hash before the occurrence index is added. */
typedef struct dt_fingerprint_hash {
  uint64_t a, b;
} dt_fingerprint_hash;

static inline void dt_fingerprint_add(dt_fingerprint_hash *h, const void *data, size_t n) {
  h->a = dt_fnv1a64(h->a, data, n);
  h->b = dt_fnv1a64(h->b, data, n);
}

/* Writes the line text (len bytes, no newline needed) with whitespace and comments removed
   into out, which must hold len + 1 bytes; returns the length written (NUL-terminated).
   A block comment left open at the end of the line removes the rest of it. */
static inline size_t dt_fingerprint_normalize(const char *text, size_t len, char *out) {
  size_t n = 0;
  char quote = 0;
  int in_block = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (in_block) {
      if (c == '*' && i + 1 < len && text[i + 1] == '/') {
        in_block = 0;
        i++;
      }
      continue;
    }
    if (quote) {
      out[n++] = c;
      if (c == '\\' && i + 1 < len) out[n++] = text[++i];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
      break;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
      in_block = 1;
      i++;
      continue;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f') {
      continue;
    }
    out[n++] = c;
  }
  out[n] = '\0';
  return n;
}

/* The key's hash; every argument is a NUL-terminated string ("" when unknown). */
static inline dt_fingerprint_hash dt_fingerprint_key(const char *rule_id, const char *file,
                                                     const char *function,
                                                     const char *operation,
                                                     const char *normalized_line) {
  dt_fingerprint_hash h = {DT_FINGERPRINT_BASIS_A, DT_FINGERPRINT_BASIS_B};
  const char *parts[5] = {rule_id, file, function, operation, normalized_line};
  for (size_t i = 0; i < 5; i++) {
    const char *s = parts[i] ? parts[i] : "";
    dt_fingerprint_add(&h, s, strlen(s) + 1); /* the NUL separates the parts */
  }
  return h;
}

/* Orders keys (then callers order equal keys by report position to number occurrences). */
static inline int dt_fingerprint_cmp(dt_fingerprint_hash x, dt_fingerprint_hash y) {
  if (x.a != y.a) return x.a < y.a ? -1 : 1;
  if (x.b != y.b) return x.b < y.b ? -1 : 1;
  return 0;
}

/* The fingerprint text of the occurrence-th finding (0-based) with this key. */
static inline void dt_fingerprint_format(dt_fingerprint_hash key, unsigned long long occurrence,
                                         char out[DT_FINGERPRINT_HEX + 1]) {
  char idx[32];
  int n = snprintf(idx, sizeof idx, "%llu", occurrence);
  dt_fingerprint_add(&key, idx, (size_t)n);
  snprintf(out, DT_FINGERPRINT_HEX + 1, "%016llx%016llx", (unsigned long long)key.a,
           (unsigned long long)key.b);
}

#endif /* DT_FINGERPRINT_H */
