/* analyzer/src/lsp/lsp_text.h — positions in a document's text: clang's 1-based line and byte
 * column to LSP's 0-based line and character, counted in UTF-16 code units (LSP's default) or in
 * bytes (when the client accepted positionEncoding "utf-8"). Lines end at "\n", "\r\n" or "\r". */
#ifndef TC_LSP_TEXT_H
#define TC_LSP_TEXT_H

#include <stddef.h>

typedef struct tc_lsp_lines {
  const char *text; /* borrowed */
  size_t len;
  size_t *starts;   /* byte offset of each line's first byte */
  size_t *ends;     /* byte offset of each line's terminator (or of the end of text) */
  size_t n;         /* number of lines (at least 1) */
} tc_lsp_lines;

typedef struct tc_lsp_pos {
  unsigned line;      /* 0-based */
  unsigned character; /* 0-based, in the negotiated unit */
} tc_lsp_pos;

/* Indexes the lines of text (which must outlive the index). Returns 0, or -1 out of memory. */
int tc_lsp_lines_init(tc_lsp_lines *l, const char *text, size_t len);
void tc_lsp_lines_free(tc_lsp_lines *l);

/* The LSP position of 1-based line / byte column (0 for unknown: start of the line). Lines past
   the end clamp to the end of the text, columns past the end of a line to its end. */
tc_lsp_pos tc_lsp_lines_position(const tc_lsp_lines *l, unsigned line, unsigned col, int utf8);

/* The byte offset in the text of an LSP position (the reverse of tc_lsp_lines_position): lines
   past the end clamp to the end of the text, characters past a line's end to that end, and a
   character inside a surrogate pair to the end of that character. */
size_t tc_lsp_lines_offset(const tc_lsp_lines *l, tc_lsp_pos pos, int utf8);

/* The 1-based byte column just past the identifier (or the single character) starting at
   line / col: the end of a range whose end the analyzer did not give. */
unsigned tc_lsp_lines_token_end(const tc_lsp_lines *l, unsigned line, unsigned col);

/* UTF-16 code units needed for the UTF-8 bytes s[0 .. n): 2 for each 4-byte sequence, 1 for
   any other character; invalid bytes count as one unit each. */
size_t tc_lsp_utf16_units(const char *s, size_t n);

#endif /* TC_LSP_TEXT_H */
