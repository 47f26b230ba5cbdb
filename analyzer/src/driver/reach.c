/* analyzer/src/driver/reach.c — does a program name a described function (driver/reach.h)?
 * Every symbol the engine looks a described function up by — a call's callee name
 * (api_lookup) or a function designator's USR (api_of_usr: the text after "@F@") — is a string
 * of the program's table, so scanning the table over-approximates what the analysis can reach:
 * a program none of whose strings names one has no function the engine deems relevant
 * (engine.c seeds relevance only from those: a library function the rules model — malloc,
 * memcpy — makes nothing relevant), so it analyzes no root and records no finding. */
#include "driver/reach.h"

#include <string.h>

int tc_program_names_api(const tc_program *p, const tc_rules *rules) {
  uint32_t n = tc_program_n_strings(p);
  for (uint32_t s = 1; s < n; s++) {
    const char *str = tc_str(p, s), *at = strstr(str, "@F@");
    const tc_api_fn *by_name = tc_rules_find(rules, str);
    const tc_api_fn *by_usr = at ? tc_rules_find(rules, at + 3) : NULL;
    if ((by_name && by_name->api) || (by_usr && by_usr->api)) return 1;
  }
  return 0;
}
