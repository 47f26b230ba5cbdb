/* analyzer/src/report/comments.h — where the comments of a C or C++ source file are, and which
 * lines hold code: a small lexer that knows // and block comments, string and character
 * literals (with escapes and prefixes), C++ raw strings, digit separators and line splices, so
 * that comment text is never looked for inside a literal. It needs no libclang: the report
 * layer reads sources itself (suppression comments, in the CLI and for the LSP's unsaved text). */
#ifndef TC_COMMENTS_H
#define TC_COMMENTS_H

#include <stddef.h>

typedef struct tc_comment {
  size_t start, end;              /* offsets of its first byte ('/') and one past its last */
  size_t body_start, body_end;    /* its text, without the opening and closing marks */
  unsigned first_line, last_line; /* 1-based */
} tc_comment;

typedef struct tc_comment_map {
  tc_comment *comments; /* in file order */
  size_t n, cap;
  unsigned char *code_lines; /* code_lines[l - 1]: line l has something besides comments and
                                blanks (a token, a literal or part of one) */
  size_t n_lines;
} tc_comment_map;

/* Scans len bytes of text (lines end at '\n'). Returns 0, or -1 when out of memory. */
int tc_comments_scan(const char *text, size_t len, tc_comment_map *out);
void tc_comments_free(tc_comment_map *m);

/* Whether line (1-based) holds code; 0 past the end. */
int tc_comments_line_has_code(const tc_comment_map *m, unsigned line);

#endif /* TC_COMMENTS_H */
