/* analyzer/src/report/write.c — tc_write_report (picks the writer for --format) and
 * tc_report_exit_status (SPEC §5 with --fail-on). */
#include "report/output.h"
#include "report/writers.h"

int tc_write_report(const tc_report *r, const tc_options *o, FILE *out) {
  switch (o->format) {
  case TC_FORMAT_TEXT: return tc_write_text(r, o, out);
  case TC_FORMAT_JSON: return tc_write_json(r, o, out);
  case TC_FORMAT_SARIF: return tc_write_sarif(r, o, out);
  }
  return -1;
}

int tc_report_exit_status(const tc_report *r, const tc_options *o) {
  if (r->n_failures > 0) return 3;
  tc_level threshold = TC_LEVEL_WARNING;
  switch (o->fail_on) {
  case TC_FAIL_ON_NEVER: return 0;
  case TC_FAIL_ON_ERROR: threshold = TC_LEVEL_ERROR; break;
  case TC_FAIL_ON_WARNING: threshold = TC_LEVEL_WARNING; break;
  }
  for (size_t i = 0; i < r->n_diags; i++)
    if (!r->diags[i].suppressed && r->diags[i].level >= threshold) return 1;
  return 0;
}
