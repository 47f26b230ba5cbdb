/* analyzer/src/report/json_util.c — the cJSON helpers of json_util.h. */
#include "report/json_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/utf8.h"

cJSON *tc_json_text(const char *s) {
  if (!s) s = "";
  char *clean = tc_utf8_sanitize(s, strlen(s));
  if (!clean) return NULL;
  cJSON *item = cJSON_CreateString(clean);
  free(clean);
  return item;
}

cJSON *tc_json_add_text(cJSON *obj, const char *key, const char *s) {
  cJSON *item = tc_json_text(s);
  if (!item) return NULL;
  if (!cJSON_AddItemToObject(obj, key, item)) {
    cJSON_Delete(item);
    return NULL;
  }
  return item;
}

cJSON *tc_json_add_message(cJSON *obj, const char *key, const char *s) {
  cJSON *m = cJSON_AddObjectToObject(obj, key);
  if (m) tc_json_add_text(m, "text", s);
  return m;
}

int tc_json_write(const cJSON *item, FILE *out) {
  char *s = cJSON_Print(item);
  if (!s) return -1;
  int rc = fputs(s, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
  cJSON_free(s);
  if (fflush(out) != 0 || ferror(out)) rc = -1;
  return rc;
}


static char *slurp(const char *path, size_t *len, int *err_no) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    *err_no = errno;
    return NULL;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    *err_no = EISDIR;
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n + 1 >= cap) {
      char *p = realloc(buf, cap * 2);
      if (!p) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = p;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - 1 - n, f);
    n += got;
    if (got == 0) break;
  }
  if (buf && ferror(f)) {
    *err_no = errno ? errno : EIO;
    free(buf);
    buf = NULL;
  } else if (!buf) {
    *err_no = ENOMEM;
  }
  fclose(f);
  if (buf) {
    buf[n] = '\0';
    *len = n;
  }
  return buf;
}

cJSON *tc_json_read_file(const char *path, char **text_out, char *err, size_t err_len) {
  if (text_out) *text_out = NULL;
  size_t len = 0;
  int err_no = 0;
  char *text = slurp(path, &len, &err_no);
  if (!text) {
    snprintf(err, err_len, "%s: cannot read: %s", path, strerror(err_no));
    return NULL;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (!root) {
    unsigned line = 1, col = 1;
    size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    tc_json_line_col(text, off, &line, &col);
    if (len == 0 || strspn(text, " \t\r\n") == len)
      snprintf(err, err_len, "%s: empty file, expected a JSON document", path);
    else
      snprintf(err, err_len, "%s:%u:%u: JSON syntax error", path, line, col);
    free(text);
    return NULL;
  }
  /* Anything but whitespace after the document is an error too. */
  if (end && (size_t)(end - text) < len && strspn(end, " \t\r\n") != strlen(end)) {
    unsigned line, col;
    tc_json_line_col(text, (size_t)(end - text) + strspn(end, " \t\r\n"), &line, &col);
    snprintf(err, err_len, "%s:%u:%u: unexpected text after the JSON document", path, line, col);
    cJSON_Delete(root);
    free(text);
    return NULL;
  }
  if (text_out) *text_out = text;
  else free(text);
  return root;
}
