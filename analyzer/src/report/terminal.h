/* analyzer/src/report/terminal.h — text output made safe for a terminal (SPEC §7: control
 * characters from sources are escaped): source lines, paths, messages and justifications may
 * hold escape sequences, carriage returns, bidirectional overrides or bytes that are not UTF-8,
 * which would rewrite or hide what the terminal shows. Such characters are written the way
 * clang writes them: a control character as <U+001B>, an invalid byte as <FF>. Tabs and valid
 * printable UTF-8 pass unchanged. */
#ifndef TC_TERMINAL_H
#define TC_TERMINAL_H

#include <stddef.h>
#include <stdio.h>

#define TC_TERM_ESC_MAX 12 /* "<U+XXXXXX>" and its NUL */

/* Length in bytes (>= 1) of the character at s (n >= 1 bytes available). When it must be
   escaped, esc receives its escaped form; otherwise esc is set to "". */
size_t tc_term_char(const char *s, size_t n, char esc[TC_TERM_ESC_MAX]);

/* Writes n bytes at s (or the string s) with every unsafe character escaped. */
void tc_term_write(FILE *out, const char *s, size_t n);
void tc_term_puts(FILE *out, const char *s);

#endif /* TC_TERMINAL_H */
