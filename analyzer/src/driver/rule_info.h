/* analyzer/src/driver/rule_info.h — what the loaded rules can report, for users: `--list-rules`
 * (one line a rule: id, default level, summary), `--explain RULE` (its description, help, an
 * example and its fix), and the check that every rule id a command line or configuration file
 * names is one of them, and every backend --unavailable names is one the rules declare. The text is the rules' own metadata, the same as SARIF's. */
#ifndef TC_RULE_INFO_H
#define TC_RULE_INFO_H

#include <stdio.h>

#include "options.h"
#include "report/diag.h"
#include "rules/rules.h"

/* Prints one line per rule of r (which holds the rules' metadata). */
void tc_list_rules(const tc_report *r, FILE *out);
/* Prints the rule's explanation. Returns 0, or -1 when r has no rule id. */
int tc_explain_rule(const tc_report *r, const char *id, FILE *out);
/* Every id of --enable, --disable and the configuration's rule settings is a rule of r.
   Returns 0, or -1 with "unknown rule 'X' …" in err. */
int tc_check_rule_ids(const tc_options *o, const tc_report *r, char *err, size_t err_len);
/* Every backend of --unavailable and the configuration's "unavailable" is one the loaded rules
   declare (dt's cpu, sim, cuda; ggml's own). Returns 0, or -1 with "unknown backend 'X' …" and
   the accepted names in err. */
int tc_check_unavailable(const tc_options *o, const tc_rules *rules, char *err, size_t err_len);

#endif /* TC_RULE_INFO_H */
