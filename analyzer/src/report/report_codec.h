/* analyzer/src/report/report_codec.h — a report's findings (with their notes) and unit failures
 * as bytes: the analysis cache keeps a component's findings this way, and an isolated analysis
 * (driver/isolate.h) sends its findings to the parent process in the same form. Decoding
 * validates everything before it appends anything. */
#ifndef TC_REPORT_CODEC_H
#define TC_REPORT_CODEC_H

#include "report/diag.h"
#include "base/bytes.h"

/* Appends r's diags (and, with failures set, its unit failures) to b. */
void tc_report_encode(tc_bbuf *b, const tc_report *r, int failures);
/* Reads what tc_report_encode wrote (with the same `failures`) from rd and appends it to out.
   Returns 0, or -1 (nothing appended) when the bytes are not a valid encoding. */
int tc_report_decode(tc_rd *rd, tc_report *out, int failures);

#endif /* TC_REPORT_CODEC_H */
