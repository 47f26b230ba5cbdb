/* analyzer/src/lsp/lsp_text.c — line index and byte-column to LSP position conversion (UTF-16
 * code units or UTF-8 bytes), see lsp_text.h. */
#include "lsp/lsp_text.h"

#include <stdlib.h>

int tc_lsp_lines_init(tc_lsp_lines *l, const char *text, size_t len) {
  l->text = text;
  l->len = len;
  l->n = 0;
  size_t count = 1;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) count++;
  l->starts = malloc(count * sizeof *l->starts);
  l->ends = malloc(count * sizeof *l->ends);
  if (!l->starts || !l->ends) {
    tc_lsp_lines_free(l);
    return -1;
  }
  size_t start = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') {
      l->starts[l->n] = start;
      l->ends[l->n++] = i;
      start = i + 2;
      i++;
    } else if (text[i] == '\n' || text[i] == '\r') {
      l->starts[l->n] = start;
      l->ends[l->n++] = i;
      start = i + 1;
    }
  }
  l->starts[l->n] = start;
  l->ends[l->n++] = len;
  return 0;
}

void tc_lsp_lines_free(tc_lsp_lines *l) {
  free(l->starts);
  free(l->ends);
  l->starts = l->ends = NULL;
  l->n = 0;
}

/* Bytes of the UTF-8 character at p[0] (at most n available); 1 for a stray byte, which
   clients see as one replacement character. Sets *units to its UTF-16 length. */
static size_t char_len(const unsigned char *p, size_t n, size_t *units) {
  unsigned char c = p[0];
  size_t seq = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  int valid = seq > 0 && seq <= n;
  for (size_t k = 1; valid && k < seq; k++)
    if ((p[k] & 0xC0) != 0x80) valid = 0;
  if (!valid) seq = 1;
  *units = valid && seq == 4 ? 2 : 1;
  return seq;
}

size_t tc_lsp_utf16_units(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t units = 0, i = 0;
  while (i < n) {
    size_t u;
    i += char_len(p + i, n - i, &u);
    units += u;
  }
  return units;
}

size_t tc_lsp_lines_offset(const tc_lsp_lines *l, tc_lsp_pos pos, int utf8) {
  if (pos.line >= l->n) return l->len;
  size_t start = l->starts[pos.line], end = l->ends[pos.line];
  if (utf8) return pos.character < end - start ? start + pos.character : end;
  const unsigned char *p = (const unsigned char *)l->text;
  size_t i = start, units = 0;
  while (i < end && units < pos.character) {
    size_t u;
    i += char_len(p + i, end - i, &u);
    units += u;
  }
  return i;
}

tc_lsp_pos tc_lsp_lines_position(const tc_lsp_lines *l, unsigned line, unsigned col, int utf8) {
  tc_lsp_pos pos = {0, 0};
  if (line == 0 || l->n == 0) return pos;
  size_t li = line - 1;
  size_t byte_col;
  if (li >= l->n) {
    li = l->n - 1;
    byte_col = l->ends[li] - l->starts[li];
  } else {
    size_t width = l->ends[li] - l->starts[li];
    byte_col = col > 0 ? col - 1 : 0;
    if (byte_col > width) byte_col = width;
  }
  pos.line = (unsigned)li;
  pos.character =
      (unsigned)(utf8 ? byte_col : tc_lsp_utf16_units(l->text + l->starts[li], byte_col));
  return pos;
}

static int is_ident(unsigned char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c >= 0x80;
}

unsigned tc_lsp_lines_token_end(const tc_lsp_lines *l, unsigned line, unsigned col) {
  if (line == 0 || line > l->n) return col;
  size_t li = line - 1;
  size_t at = l->starts[li] + (col > 0 ? col - 1 : 0);
  size_t end = l->ends[li];
  if (at >= end) return col;
  size_t e = at;
  while (e < end && is_ident((unsigned char)l->text[e])) e++;
  if (e == at) e++;
  return (unsigned)(e - l->starts[li] + 1);
}
