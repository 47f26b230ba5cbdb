/* analyzer/src/report/suppress.h — recognizing suppression comments in a source line:
 *   // tagcheck: ignore[backend-mismatch]
 *   // tagcheck: ignore[device-mismatch, kind-mismatch] moved later in the loop
 *   // tagcheck: ignore[*] generated code
 * Block comments work the same way. The rule list is comma-separated, "*" names every rule,
 * and the text after "]" is the justification kept in SARIF. */
#ifndef TC_SUPPRESS_H
#define TC_SUPPRESS_H

#include <stddef.h>

/* Returns 1 when the line (len bytes) carries a suppression comment naming rule_id (or "*"),
   and then sets *justification to a new string (possibly ""); 0 otherwise (-1: out of
   memory). */
int tc_suppression_match(const char *line, size_t len, const char *rule_id, char **justification);

#endif /* TC_SUPPRESS_H */
