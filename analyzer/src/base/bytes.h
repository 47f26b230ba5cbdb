/* analyzer/src/base/bytes.h — the floor under every binary format of the analyzer (the cache's
 * entries, the unit workers' messages, encoded reports): a growable byte buffer with
 * little-endian integers and length-prefixed strings, a bounds-checked reader over one, FNV-1a
 * hashing (which detects every single-byte change of what it hashes). Whole files: base/file.h. */
#ifndef TC_BYTES_H
#define TC_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include <dt/bytes.h>

typedef struct tc_bbuf {
  unsigned char *p;
  size_t len, cap;
  int bad; /* an allocation failed: the contents are incomplete */
} tc_bbuf;

void tc_bb_put(tc_bbuf *b, const void *data, size_t n);
void tc_bb_u64(tc_bbuf *b, uint64_t v);
void tc_bb_str(tc_bbuf *b, const char *s); /* NULL is written as "" */
void tc_bb_free(tc_bbuf *b);

typedef struct tc_rd {
  const unsigned char *p;
  size_t len, pos;
  int bad; /* read past the end, or a length that does not fit */
} tc_rd;

uint64_t tc_rd_u64(tc_rd *r);
/* A pointer to the next n bytes (not NUL-terminated), or NULL. */
const char *tc_rd_bytes(tc_rd *r, uint64_t n);
/* A malloc'd NUL-terminated copy of the next string, or NULL (r->bad set). */
char *tc_rd_strdup(tc_rd *r);

#define TC_FNV_INIT DT_FNV_BASIS
uint64_t tc_fnv64(uint64_t h, const void *data, size_t n);
/* FNV-1a of a NUL-terminated string's bytes (the NUL excluded), from TC_FNV_INIT: the key hash
   of the analyzer's string tables. */
uint64_t tc_fnv64_str(const char *s);

#endif /* TC_BYTES_H */
