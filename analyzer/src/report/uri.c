/* analyzer/src/report/uri.c — root directory, path normalization and URI encoding (uri.h). */
#include "report/uri.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/strbuf.h"

char *tc_normalize_path(const char *path) {
  if (!path) return NULL;
  tc_strbuf in;
  tc_strbuf_init(&in);
  if (path[0] != '/') {
    char *cwd = getcwd(NULL, 0);
    if (!cwd) return NULL;
    tc_strbuf_puts(&in, cwd);
    tc_strbuf_putc(&in, '/');
    free(cwd);
  }
  tc_strbuf_puts(&in, path);
  char *full = tc_strbuf_take(&in);
  if (!full) return NULL;

  /* Rebuild segment by segment: skip "" and ".", pop on "..". */
  size_t n = strlen(full);
  char *out = malloc(n + 2);
  if (!out) {
    free(full);
    return NULL;
  }
  size_t len = 0;
  char *p = full;
  while (*p) {
    while (*p == '/') p++;
    char *seg = p;
    while (*p && *p != '/') p++;
    size_t seglen = (size_t)(p - seg);
    if (seglen == 0 || (seglen == 1 && seg[0] == '.')) continue;
    if (seglen == 2 && seg[0] == '.' && seg[1] == '.') {
      while (len > 0 && out[len - 1] != '/') len--;
      if (len > 0) len--; /* the slash before the popped segment */
      continue;
    }
    out[len++] = '/';
    memcpy(out + len, seg, seglen);
    len += seglen;
  }
  if (len == 0) out[len++] = '/';
  out[len] = '\0';
  free(full);
  return out;
}

char *tc_root_dir(const tc_options *o) {
  const char *root = o && o->root && *o->root ? o->root : ".";
  char *norm = NULL;
  char *real = realpath(root, NULL);
  norm = tc_normalize_path(real ? real : root);
  free(real);
  if (!norm) return NULL;
  size_t n = strlen(norm);
  if (n > 0 && norm[n - 1] == '/') return norm;
  char *with_slash = realloc(norm, n + 2);
  if (!with_slash) {
    free(norm);
    return NULL;
  }
  with_slash[n] = '/';
  with_slash[n + 1] = '\0';
  return with_slash;
}

static char *below(const char *root_dir, const char *path) {
  size_t n = strlen(root_dir);
  if (strncmp(path, root_dir, n) != 0 || path[n] == '\0') return NULL;
  return strdup(path + n);
}

char *tc_path_below_root(const char *root_dir, const char *path) {
  if (!root_dir || !path) return NULL;
  char *norm = tc_normalize_path(path);
  if (!norm) return NULL;
  char *rel = below(root_dir, norm);
  if (!rel) {
    char *real = realpath(norm, NULL);
    if (real) rel = below(root_dir, real);
    free(real);
  }
  free(norm);
  return rel;
}

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
