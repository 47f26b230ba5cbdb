/* analyzer/src/base/strbuf.h — a growable string for building messages, URIs and keys in
 * the report layer. An allocation failure sets `failed` and later appends do nothing, so
 * callers check once at the end. */
#ifndef TC_STRBUF_H
#define TC_STRBUF_H

#include <stddef.h>

typedef struct tc_strbuf {
  char *data; /* NUL-terminated once anything was appended; may be NULL while empty */
  size_t len, cap;
  int failed;
} tc_strbuf;

void tc_strbuf_init(tc_strbuf *b);
void tc_strbuf_free(tc_strbuf *b);
void tc_strbuf_add(tc_strbuf *b, const char *s, size_t n);
void tc_strbuf_puts(tc_strbuf *b, const char *s);
void tc_strbuf_putc(tc_strbuf *b, char c);
void tc_strbuf_printf(tc_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The contents ("" when empty); valid until the next append. */
const char *tc_strbuf_str(const tc_strbuf *b);
/* Hands the string to the caller (who frees it) and empties b; NULL if an append failed. */
char *tc_strbuf_take(tc_strbuf *b);

#endif /* TC_STRBUF_H */
