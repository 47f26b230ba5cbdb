/* analyzer/src/base/strbuf.c — the growable string of strbuf.h. */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tc_strbuf_init(tc_strbuf *b) { memset(b, 0, sizeof *b); }

void tc_strbuf_free(tc_strbuf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

static int reserve(tc_strbuf *b, size_t extra) {
  if (b->failed) return -1;
  if (extra > (size_t)-1 / 2 - b->len) goto fail;
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) goto fail;
  b->data = p;
  b->cap = cap;
  return 0;
fail:
  b->failed = 1;
  return -1;
}

void tc_strbuf_add(tc_strbuf *b, const char *s, size_t n) {
  if (reserve(b, n) != 0) return;
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void tc_strbuf_puts(tc_strbuf *b, const char *s) { tc_strbuf_add(b, s ? s : "", s ? strlen(s) : 0); }

void tc_strbuf_putc(tc_strbuf *b, char c) { tc_strbuf_add(b, &c, 1); }

void tc_strbuf_printf(tc_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || reserve(b, (size_t)n) != 0) {
    b->failed = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

const char *tc_strbuf_str(const tc_strbuf *b) { return b->data && !b->failed ? b->data : ""; }

char *tc_strbuf_take(tc_strbuf *b) {
  char *s = NULL;
  if (!b->failed) s = b->data ? b->data : strdup("");
  else free(b->data);
  memset(b, 0, sizeof *b);
  return s;
}
