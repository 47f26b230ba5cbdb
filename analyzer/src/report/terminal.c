/* analyzer/src/report/terminal.c — escaping for the text report (terminal.h). */
#include "report/terminal.h"

#include <string.h>

#include "base/utf8.h"

/* Code points that move the cursor, ring, erase, switch character sets or reorder text. */
static int unsafe_code_point(unsigned long cp) {
  if (cp == '\t') return 0;
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return 1; /* C0, DEL, C1 */
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069); /* bidirectional marks, embeddings, isolates */
}

static unsigned long decode(const unsigned char *s, size_t len) {
  if (len == 1) return s[0];
  unsigned long cp = s[0] & (0xFFu >> (len + 1));
  for (size_t i = 1; i < len; i++) cp = (cp << 6) | (s[i] & 0x3F);
  return cp;
}

size_t tc_term_char(const char *s, size_t n, char esc[TC_TERM_ESC_MAX]) {
  const unsigned char *u = (const unsigned char *)s;
  size_t len = tc_utf8_seq_len(u, n);
  esc[0] = '\0';
  if (len == 0) {
    snprintf(esc, TC_TERM_ESC_MAX, "<%02X>", u[0]);
    return 1;
  }
  unsigned long cp = decode(u, len);
  if (unsafe_code_point(cp)) snprintf(esc, TC_TERM_ESC_MAX, "<U+%04lX>", cp);
  return len;
}

void tc_term_write(FILE *out, const char *s, size_t n) {
  size_t i = 0, clean = 0; /* bytes [clean, i) are written as they are, in one go */
  while (i < n) {
    char esc[TC_TERM_ESC_MAX];
    size_t len = tc_term_char(s + i, n - i, esc);
    if (esc[0]) {
      fwrite(s + clean, 1, i - clean, out);
      fputs(esc, out);
      clean = i + len;
    }
    i += len;
  }
  fwrite(s + clean, 1, n - clean, out);
}

void tc_term_puts(FILE *out, const char *s) {
  if (s) tc_term_write(out, s, strlen(s));
}
