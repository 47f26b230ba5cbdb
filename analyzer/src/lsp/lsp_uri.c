/* analyzer/src/lsp/lsp_uri.c — file:// URI to local path, percent-decoding (see lsp_uri.h). */
#include "lsp/lsp_uri.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char *tc_lsp_uri_to_path(const char *uri) {
  if (!uri || strncasecmp(uri, "file://", 7) != 0) return NULL;
  const char *p = uri + 7;
  /* An authority of "localhost" means this machine; any other host is not ours to read. */
  if (strncasecmp(p, "localhost/", 10) == 0) p += 9;
  if (*p != '/') return NULL;
  size_t n = strcspn(p, "?#");
  char *out = malloc(n + 1);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '%') {
      int hi = i + 2 < n ? hex_value(p[i + 1]) : -1;
      int lo = hi >= 0 ? hex_value(p[i + 2]) : -1;
      if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
        free(out);
        return NULL;
      }
      out[o++] = (char)(hi * 16 + lo);
      i += 2;
    } else {
      out[o++] = p[i];
    }
  }
  out[o] = '\0';
  return out;
}
