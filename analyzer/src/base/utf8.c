/* analyzer/src/base/utf8.c — UTF-8 validation and repair for the JSON/SARIF writers. */
#include "base/utf8.h"

#include "base/strbuf.h"

size_t tc_utf8_seq_len(const unsigned char *s, size_t n) {
  if (n == 0) return 0;
  unsigned c = s[0];
  if (c < 0x80) return 1;
  size_t len;
  unsigned min;
  unsigned cp;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2, min = 0x80, cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3, min = 0x800, cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

char *tc_utf8_sanitize(const char *s, size_t n) {
  tc_strbuf b;
  tc_strbuf_init(&b);
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    if (p[i] == 0) {
      i++;
      continue;
    }
    size_t len = tc_utf8_seq_len(p + i, n - i);
    if (len == 0) {
      tc_strbuf_add(&b, "\xEF\xBF\xBD", 3);
      i++;
      continue;
    }
    tc_strbuf_add(&b, s + i, len);
    i += len;
  }
  return tc_strbuf_take(&b);
}
