/* runtime/src/report_source.c — source files for the run-time SARIF report (report_source.h):
 * read once and cached, their lines, the column of a call on a line; the enclosing function of
 * a position is found by the scanner in report_scan.c. */
#include "report_source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dt__src_init(dt_src_cache *c) { memset(c, 0, sizeof *c); }

void dt__src_free(dt_src_cache *c) {
  for (size_t i = 0; i < c->n; i++) {
    free(c->files[i].path);
    free(c->files[i].text);
    free(c->files[i].lines);
  }
  free(c->files);
  memset(c, 0, sizeof *c);
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n + 1 >= cap) {
      char *bigger = realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

static void index_lines(dt_src_file *f) {
  size_t count = 1;
  for (size_t i = 0; i < f->len; i++)
    if (f->text[i] == '\n') count++;
  f->lines = malloc(count * sizeof *f->lines);
  if (!f->lines) return;
  f->lines[0] = 0;
  f->n_lines = 1;
  for (size_t i = 0; i < f->len; i++)
    if (f->text[i] == '\n') f->lines[f->n_lines++] = i + 1;
}

static dt_src_file *lookup(dt_src_cache *c, const char *path) {
  if (!path) return NULL;
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->files[i].path, path) == 0) return &c->files[i];
  if (c->n == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 8;
    dt_src_file *bigger = realloc(c->files, cap * sizeof *bigger);
    if (!bigger) return NULL;
    c->files = bigger;
    c->cap = cap;
  }
  dt_src_file *f = &c->files[c->n];
  memset(f, 0, sizeof *f);
  f->path = strdup(path);
  if (!f->path) return NULL;
  c->n++;
  f->text = read_all(path, &f->len);
  if (f->text) index_lines(f);
  return f;
}

const char *dt__src_line(dt_src_cache *c, const char *path, int line, size_t *len) {
  dt_src_file *f = lookup(c, path);
  if (!f || !f->text || !f->lines || line < 1 || (size_t)line > f->n_lines) return NULL;
  size_t start = f->lines[line - 1];
  size_t end = start;
  while (end < f->len && f->text[end] != '\n') end++;
  if (end > start && f->text[end - 1] == '\r') end--;
  *len = end - start;
  return f->text + start;
}

void dt__src_function(dt_src_cache *c, const char *path, int line, int col, char *buf, size_t n) {
  if (n) buf[0] = '\0';
  dt_src_file *f = lookup(c, path);
  if (f && f->text) dt__src_function_in(f->text, f->len, line, col, buf, n);
}

static int is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

int dt__src_call_column(const char *line, size_t len, const char *name) {
  size_t name_len = strlen(name), found = 0, at = 0;
  for (size_t i = 0; i < len;) {
    char c = line[i];
    if (c == '/' && i + 1 < len && line[i + 1] == '/') break;
    if (c == '/' && i + 1 < len && line[i + 1] == '*') {
      i += 2;
      while (i + 1 < len && !(line[i] == '*' && line[i + 1] == '/')) i++;
      i += 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      i++;
      while (i < len && line[i] != c) i += line[i] == '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (is_ident_start(c)) {
      size_t start = i;
      while (i < len && is_ident_char(line[i])) i++;
      if (i - start == name_len && memcmp(line + start, name, name_len) == 0) {
        size_t k = i;
        while (k < len && (line[k] == ' ' || line[k] == '\t')) k++;
        if (k < len && line[k] == '(') {
          found++;
          at = start;
        }
      }
      continue;
    }
    i++;
  }
  if (found != 1) return 0;
  int col = 1;
  for (size_t i = 0; i < at; i++)
    if (((unsigned char)line[i] & 0xC0) != 0x80) col++;
  return col;
}
