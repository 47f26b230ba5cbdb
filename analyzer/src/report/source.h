/* analyzer/src/report/source.h — read-only access to the lines of source files, loaded once
 * per file and cached for one report (carets in text output, suppression comments,
 * fingerprints, SARIF snippets). Unreadable files simply have no lines. */
#ifndef TC_SOURCE_H
#define TC_SOURCE_H

#include <stddef.h>

typedef struct tc_source_file {
  char *path;
  char *data;          /* the whole file, NUL-terminated; NULL when it could not be read */
  size_t size;
  size_t *line_starts; /* offset of each line's first byte */
  size_t n_lines;
} tc_source_file;

typedef struct tc_source_cache {
  tc_source_file *files;
  size_t n_files, cap_files;
  size_t last; /* index of the last file looked up (reports are sorted by file) */
} tc_source_cache;

void tc_source_cache_init(tc_source_cache *c);
void tc_source_cache_free(tc_source_cache *c);

/* Points *text at line `line` (1-based) of path, without its line ending, and sets *len.
   Returns 0, or -1 when the file cannot be read or has no such line. */
int tc_source_line(tc_source_cache *c, const char *path, unsigned line, const char **text,
                   size_t *len);

/* Points *data at the whole of path (NUL-terminated) and sets *size. Returns 0, or -1 when the
   file cannot be read. */
int tc_source_text(tc_source_cache *c, const char *path, const char **data, size_t *size);

/* The byte offset of (line, col) (1-based; col may be one past the line's end) in path.
   Returns 0, or -1 when the file cannot be read or has no such position. */
int tc_source_offset(tc_source_cache *c, const char *path, unsigned line, unsigned col,
                     size_t *offset);

/* Makes `data` (size bytes, copied) the text of path for this cache, in place of the file on
   disk (an editor's unsaved buffer). Returns 0, -1 out of memory. */
int tc_source_put(tc_source_cache *c, const char *path, const char *data, size_t size);

#endif /* TC_SOURCE_H */
