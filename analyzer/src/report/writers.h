/* analyzer/src/report/writers.h — the per-format report writers that tc_write_report
 * (write.c) dispatches to. Each only formats; none analyzes or filters (suppressed findings
 * are the exception the formats treat differently: see docs/ci.md). */
#ifndef TC_WRITERS_H
#define TC_WRITERS_H

#include <stdio.h>

#include "options.h"
#include "report/diag.h"

/* clang style: "file:line:col: level: message [rule-id]", the source line, a caret (and
   tildes over the range), then each note the same way. Failures follow the findings. Nothing
   goes to stderr: the summary line is the driver's. */
int tc_write_text(const tc_report *r, const tc_options *o, FILE *out);
/* The documented JSON structure of docs/ci.md. */
int tc_write_json(const tc_report *r, const tc_options *o, FILE *out);
/* SARIF 2.1.0 (sarif.c). */
int tc_write_sarif(const tc_report *r, const tc_options *o, FILE *out);

#endif /* TC_WRITERS_H */
