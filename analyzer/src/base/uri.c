/* analyzer/src/base/uri.c — percent-encoded paths and file:// URIs (uri.h). */
#include "base/uri.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"

char *tc_uri_encode_path(const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  tc_strbuf b;
  tc_strbuf_init(&b);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned c = *p;
    int keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      tc_strbuf_putc(&b, (char)c);
    } else {
      char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
      tc_strbuf_add(&b, esc, 3);
    }
  }
  return tc_strbuf_take(&b);
}

char *tc_file_uri(const char *abs_path) {
  char *enc = tc_uri_encode_path(abs_path);
  if (!enc) return NULL;
  tc_strbuf b;
  tc_strbuf_init(&b);
  tc_strbuf_puts(&b, "file://");
  if (enc[0] != '/') tc_strbuf_putc(&b, '/');
  tc_strbuf_puts(&b, enc);
  free(enc);
  return tc_strbuf_take(&b);
}
