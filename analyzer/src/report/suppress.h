/* analyzer/src/report/suppress.h — suppression comments in a source file:
 *   y = dt_add(w, x); // tagcheck: ignore[backend-mismatch]
 *   // tagcheck: ignore[device-mismatch, kind-mismatch] moved later in the loop
 *   q = dt_where(m, a, b); // tagcheck: ignore[*] generated code
 * Block comments work the same way. The rule list is comma-separated, "*" names every rule,
 * and the text after "]" is the justification kept in SARIF. Markers count in comments only (comments.h: never inside a
 * string or character literal). Each covers exactly one line: a comment on a line with code
 * covers that line; a comment alone on its lines covers the line after it.
 * clang-tidy's forms work too, each covering exactly the lines it names:
 *   y = dt_add(w, x); // NOLINT(backend-mismatch)     this line (no list: every rule)
 *   // NOLINTNEXTLINE(device-mismatch)                  the next line
 *   // NOLINTBEGIN(kind-mismatch) … // NOLINTEND(kind-mismatch)   the lines from one to the other
 * The justification of a NOLINT is the text after it. */
#ifndef TC_SUPPRESS_H
#define TC_SUPPRESS_H

#include <stddef.h>

typedef struct tc_suppression {
  unsigned line;       /* the line whose findings it covers */
  char *rules;         /* the list between the brackets, as written */
  char *justification; /* possibly "" */
} tc_suppression;

typedef struct tc_suppressions {
  tc_suppression *items; /* by line */
  size_t n, cap;
} tc_suppressions;

/* Finds the suppression comments of len bytes of source text. Returns 0, or -1 when out of
   memory. */
int tc_suppressions_scan(const char *text, size_t len, tc_suppressions *out);
void tc_suppressions_free(tc_suppressions *s);

/* The suppression covering line that names rule_id (or "*"), or NULL. */
const tc_suppression *tc_suppressions_find(const tc_suppressions *s, unsigned line,
                                           const char *rule_id);

#endif /* TC_SUPPRESS_H */
