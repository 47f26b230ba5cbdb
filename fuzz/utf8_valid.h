/* fuzz/utf8_valid.h — a strict UTF-8 check (no overlong forms, surrogates or code points past
 * U+10FFFF) for the tests' own use: the fuzz harnesses and tests/hostile check that SARIF and
 * JSON outputs are UTF-8 with it, independently of the analyzer's own UTF-8 code. */
#ifndef UTF8_VALID_H
#define UTF8_VALID_H

#include <stddef.h>

/* 1 when s[0..n) is valid UTF-8, else 0. */
int utf8_valid(const char *s, size_t n);

#endif /* UTF8_VALID_H */
