/* analyzer/src/base/json_pos.c — positioned errors and typed getters over a cJSON document
 * (base/json_pos.h). */
#include "base/json_pos.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tc_json_line_col(const char *text, size_t off, unsigned *line, unsigned *col) {
  unsigned l = 1, c = 1;
  for (size_t i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l;
  *col = c;
}

void tc_json_fail(tc_json_src *s, size_t off, const char *fmt, ...) {
  if (s->failed) return;
  s->failed = 1;
  unsigned line, col;
  tc_json_line_col(s->text, off, &line, &col);
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (s->err && s->err_len) snprintf(s->err, s->err_len, "%s:%u:%u: %s", s->file, line, col, msg);
}

/* Finds `"key"` followed by `:` at or after from; returns its offset or from if absent. */
size_t tc_json_find_key(const char *text, size_t from, const char *key) {
  size_t klen = strlen(key);
  const char *p = text + from;
  while ((p = strchr(p, '"')) != NULL) {
    if (strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '"') {
      const char *q = p + 2 + klen;
      while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n') q++;
      if (*q == ':') return (size_t)(p - text);
    }
    p++;
  }
  return from;
}

/* The position of the nested keys k1, k2, … (NULL-terminated), each searched after the last. */
size_t tc_json_locate(const tc_json_src *s, ...) {
  va_list ap;
  va_start(ap, s);
  size_t off = 0;
  const char *k;
  while ((k = va_arg(ap, const char *)) != NULL) off = tc_json_find_key(s->text, off, k);
  va_end(ap);
  return off;
}

/* Rejects keys of obj that are not listed (typos must not pass silently). */
int tc_json_only_keys(tc_json_src *s, const cJSON *obj, size_t where, const char *what,
                      const char *const *allowed) {
  for (const cJSON *c = obj->child; c; c = c->next) {
    int ok = 0;
    for (size_t i = 0; allowed[i]; i++)
      if (strcmp(c->string, allowed[i]) == 0) ok = 1;
    if (!ok) {
      tc_json_fail(s, tc_json_find_key(s->text, where, c->string), "unknown key \"%s\" in %s",
                   c->string, what);
      return -1;
    }
    for (const cJSON *d = c->next; d; d = d->next)
      if (strcmp(c->string, d->string) == 0) {
        tc_json_fail(
            s,
            tc_json_find_key(s->text, tc_json_find_key(s->text, where, c->string) + 1, c->string),
            "duplicate key \"%s\" in %s", c->string, what);
        return -1;
      }
  }
  return 0;
}

int tc_json_int(tc_json_src *s, const cJSON *obj, const char *key, size_t where, int lo, int hi,
                int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 0;
  /* the range first: converting a double past INT_MAX to int is undefined */
  if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi) ||
      v->valuedouble != (double)(int)v->valuedouble) {
    tc_json_fail(s, tc_json_find_key(s->text, where, key), "\"%s\" must be an integer in [%d, %d]",
                 key, lo, hi);
    return -1;
  }
  *out = v->valueint;
  return 1;
}

int tc_json_bool(tc_json_src *s, const cJSON *obj, const char *key, size_t where, int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 0;
  if (!cJSON_IsBool(v)) {
    tc_json_fail(s, tc_json_find_key(s->text, where, key), "\"%s\" must be true or false", key);
    return -1;
  }
  *out = cJSON_IsTrue(v) ? 1 : 0;
  return 1;
}

const char *tc_json_string(tc_json_src *s, const cJSON *obj, const char *key, size_t where,
                           int required, const char *what) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) {
    if (required) tc_json_fail(s, where, "%s needs a string \"%s\"", what, key);
    return NULL;
  }
  if (!cJSON_IsString(v) || !v->valuestring[0]) {
    tc_json_fail(s, tc_json_find_key(s->text, where, key), "\"%s\" must be a non-empty string",
                 key);
    return NULL;
  }
  return v->valuestring;
}
