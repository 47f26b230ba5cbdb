/* analyzer/src/report/source.c — the per-report source line cache of source.h. */
#include "report/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"

/* Source files larger than this are not shown (no carets, no snippets); suppression comments
   and fingerprints then see empty lines. */
#define TC_SOURCE_MAX_BYTES ((size_t)256 << 20)

void tc_source_cache_init(tc_source_cache *c) { memset(c, 0, sizeof *c); }

void tc_source_cache_free(tc_source_cache *c) {
  for (size_t i = 0; i < c->n_files; i++) {
    free(c->files[i].path);
    free(c->files[i].data);
    free(c->files[i].line_starts);
  }
  free(c->files);
  memset(c, 0, sizeof *c);
}


static void index_lines(tc_source_file *sf) {
  size_t n = 1;
  for (size_t i = 0; i < sf->size; i++)
    if (sf->data[i] == '\n') n++;
  sf->line_starts = malloc(n * sizeof *sf->line_starts);
  if (!sf->line_starts) return;
  sf->line_starts[0] = 0;
  size_t k = 1;
  for (size_t i = 0; i < sf->size; i++)
    if (sf->data[i] == '\n') sf->line_starts[k++] = i + 1;
  /* A final newline does not start another line. */
  if (k > 1 && sf->line_starts[k - 1] == sf->size) k--;
  sf->n_lines = sf->size ? k : 0;
}

static tc_source_file *lookup(tc_source_cache *c, const char *path) {
  if (c->last < c->n_files && strcmp(c->files[c->last].path, path) == 0)
    return &c->files[c->last];
  for (size_t i = 0; i < c->n_files; i++) {
    if (strcmp(c->files[i].path, path) == 0) {
      c->last = i;
      return &c->files[i];
    }
  }
  if (c->n_files == c->cap_files) {
    size_t cap = c->cap_files ? c->cap_files * 2 : 8;
    tc_source_file *p = realloc(c->files, cap * sizeof *p);
    if (!p) return NULL;
    c->files = p;
    c->cap_files = cap;
  }
  tc_source_file *sf = &c->files[c->n_files];
  memset(sf, 0, sizeof *sf);
  sf->path = strdup(path);
  if (!sf->path) return NULL;
  sf->data = tc_file_read(path, TC_SOURCE_MAX_BYTES, &sf->size);
  if (sf->data) index_lines(sf);
  c->last = c->n_files++;
  return sf;
}

int tc_source_line(tc_source_cache *c, const char *path, unsigned line, const char **text,
                   size_t *len) {
  if (!path || !*path || line == 0) return -1;
  tc_source_file *sf = lookup(c, path);
  if (!sf || !sf->data || !sf->line_starts || line > sf->n_lines) return -1;
  size_t start = sf->line_starts[line - 1];
  size_t end = line < sf->n_lines ? sf->line_starts[line] - 1 : sf->size;
  if (end > start && sf->data[end - 1] == '\n') end--;
  if (end > start && sf->data[end - 1] == '\r') end--;
  *text = sf->data + start;
  *len = end - start;
  return 0;
}

int tc_source_text(tc_source_cache *c, const char *path, const char **data, size_t *size) {
  if (!path || !*path) return -1;
  tc_source_file *sf = lookup(c, path);
  if (!sf || !sf->data) return -1;
  *data = sf->data;
  *size = sf->size;
  return 0;
}

int tc_source_offset(tc_source_cache *c, const char *path, unsigned line, unsigned col,
                     size_t *offset) {
  const char *text, *data;
  size_t len, size;
  if (col == 0 || tc_source_line(c, path, line, &text, &len) != 0 ||
      tc_source_text(c, path, &data, &size) != 0 || col - 1 > len)
    return -1;
  *offset = (size_t)(text - data) + (col - 1);
  return 0;
}

int tc_source_put(tc_source_cache *c, const char *path, const char *data, size_t size) {
  if (!path || !*path) return -1;
  tc_source_file *sf = lookup(c, path);
  if (!sf) return -1;
  char *copy = malloc(size + 1);
  if (!copy) return -1;
  memcpy(copy, data, size);
  copy[size] = '\0';
  free(sf->data);
  free(sf->line_starts);
  sf->line_starts = NULL;
  sf->n_lines = 0;
  sf->data = copy;
  sf->size = size;
  index_lines(sf);
  return 0;
}
