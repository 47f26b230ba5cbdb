/* analyzer/src/base/bytes.c — byte buffers, readers, hashing and atomic file replacement
 * (base/bytes.h). */
#include "base/bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tc_bb_put(tc_bbuf *b, const void *data, size_t n) {
  if (b->bad || n == 0) return;
  if (n > SIZE_MAX / 4 - b->len) {
    b->bad = 1;
    return;
  }
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    unsigned char *np = realloc(b->p, cap);
    if (!np) {
      b->bad = 1;
      return;
    }
    b->p = np;
    b->cap = cap;
  }
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

void tc_bb_u64(tc_bbuf *b, uint64_t v) {
  unsigned char x[8];
  for (int i = 0; i < 8; i++) x[i] = (unsigned char)(v >> (8 * i));
  tc_bb_put(b, x, 8);
}

void tc_bb_str(tc_bbuf *b, const char *s) {
  size_t n = s ? strlen(s) : 0;
  tc_bb_u64(b, n);
  tc_bb_put(b, s ? s : "", n);
}

void tc_bb_free(tc_bbuf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

uint64_t tc_rd_u64(tc_rd *r) {
  if (r->bad || r->len - r->pos < 8) {
    r->bad = 1;
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[r->pos + i] << (8 * i);
  r->pos += 8;
  return v;
}

const char *tc_rd_bytes(tc_rd *r, uint64_t n) {
  if (r->bad || n > r->len - r->pos) {
    r->bad = 1;
    return NULL;
  }
  const char *s = (const char *)r->p + r->pos;
  r->pos += (size_t)n;
  return s;
}

char *tc_rd_strdup(tc_rd *r) {
  uint64_t n = tc_rd_u64(r);
  const char *s = tc_rd_bytes(r, n);
  if (!s) return NULL;
  char *c = malloc((size_t)n + 1);
  if (!c) {
    r->bad = 1;
    return NULL;
  }
  memcpy(c, s, (size_t)n);
  c[n] = '\0';
  return c;
}

uint64_t tc_fnv64(uint64_t h, const void *data, size_t n) { return dt_fnv1a64(h, data, n); }

uint64_t tc_fnv64_str(const char *s) { return tc_fnv64(TC_FNV_INIT, s, strlen(s)); }

