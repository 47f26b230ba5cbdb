/* analyzer/src/base/utf8.h — making arbitrary bytes (file names, source text, messages)
 * safe for JSON and SARIF, which must be valid UTF-8. */
#ifndef TC_UTF8_H
#define TC_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence starting at s (at most n bytes available), or 0 when the
   byte at s does not start one (overlong forms, surrogates and values past U+10FFFF are
   invalid). */
size_t tc_utf8_seq_len(const unsigned char *s, size_t n);

/* A copy of the n bytes at s in which each invalid byte is replaced by U+FFFD and NUL bytes
   are dropped; NULL only when out of memory. */
char *tc_utf8_sanitize(const char *s, size_t n);

#endif /* TC_UTF8_H */
