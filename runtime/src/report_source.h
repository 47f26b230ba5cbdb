/* runtime/src/report_source.h — what the run-time SARIF report (report_sarif.c) needs from the
 * program's own sources: the text of a line (for the snippet and the fingerprint) and the
 * name of the function whose body holds that line (the fingerprint's "function" part, which
 * tagcheck takes from the AST). Best effort: a file that cannot be read gives no text and no
 * function; nothing here ever fails the program. */
#ifndef DT_REPORT_SOURCE_H
#define DT_REPORT_SOURCE_H

#include <stddef.h>

typedef struct dt_src_file {
  char *path;     /* as asked for */
  char *text;     /* whole file, NUL-terminated; NULL when unreadable */
  size_t len;
  size_t *lines;  /* byte offset of each line's start */
  size_t n_lines;
} dt_src_file;

typedef struct dt_src_cache {
  dt_src_file *files;
  size_t n, cap;
} dt_src_cache;

void dt__src_init(dt_src_cache *c);
void dt__src_free(dt_src_cache *c);

/* The text of line `line` (1-based) without its newline, or NULL; *len gets its length. */
const char *dt__src_line(dt_src_cache *c, const char *path, int line, size_t *len);

/* Writes the name of the function whose body holds the position (line, col) into buf
   (NUL-terminated, truncated to n), as tagcheck names it: unqualified, `~Name`, `operator+`,
   `operator()` for a lambda's body; "" when the position is outside every function or the file
   is unreadable. col 0: the line's first token. */
void dt__src_function(dt_src_cache *c, const char *path, int line, int col, char *buf, size_t n);

/* The column (1-based, in Unicode code points, as tagcheck's SARIF counts them) of the call
   of `name` on a source line: where `name` appears as an identifier followed by '(' outside
   comments and literals. 0 when it appears there not exactly once (a call made by a macro
   whose name differs, or two calls of the same function on one line). */
int dt__src_call_column(const char *line, size_t len, const char *name);

/* The C and C++ scanner behind dt__src_function (report_scan.c), on a text in memory. */
void dt__src_function_in(const char *text, size_t len, int line, int col, char *buf, size_t n);

#endif /* DT_REPORT_SOURCE_H */
