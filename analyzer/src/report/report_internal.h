/* analyzer/src/report/report_internal.h — helpers that the report layer's own files share
 * (implemented in report.c): rule lookup, in-place filtering of findings, level names. Not part
 * of the driver's contract (that is diag.h and output.h). */
#ifndef TC_REPORT_INTERNAL_H
#define TC_REPORT_INTERNAL_H

#include <stddef.h>

#include "report/diag.h"

/* A copy of s, or of "" when s is NULL; NULL only when out of memory. */
char *tc_strdup_or_empty(const char *s);

/* The rule with this id (and its index in r->rules), or NULL. */
const tc_rule_meta *tc_report_find_rule(const tc_report *r, const char *id, size_t *index);

/* tc_report_filter is in diag.h. */


#endif /* TC_REPORT_INTERNAL_H */
