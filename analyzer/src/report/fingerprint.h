/* analyzer/src/report/fingerprint.h — partialFingerprints for SARIF and baselines: a hash of
 * the rule id, the file (relative to the root), the enclosing function, the operation, the
 * finding's source line with whitespace and comments removed, and the occurrence index among
 * findings with the same key. Line numbers are not part of it, so inserting unrelated lines
 * above a finding keeps its fingerprint. */
#ifndef TC_FINGERPRINT_H
#define TC_FINGERPRINT_H

#include "dt/fingerprint.h" /* the hash, shared with the runtime's DT_REPORT log */
#include "report/diag.h"
#include "report/output.h"
#include "report/source.h"

#define TC_FINGERPRINT_KEY DT_FINGERPRINT_KEY
#define TC_FINGERPRINT_HEX DT_FINGERPRINT_HEX /* characters, without the NUL */

typedef char tc_fingerprint[TC_FINGERPRINT_HEX + 1];

/* Fills out[i] for every r->diags[i]: its stored fingerprint when it has one, else computed,
   findings with the same key numbered by line and column (r should be sorted and
   de-duplicated, as tc_report_sort leaves it). root_dir as from tc_root_dir. Returns 0, or -1
   when out of memory. */
int tc_fingerprints(const tc_report *r, const char *root_dir, tc_source_cache *sc,
                    tc_fingerprint *out);

/* Stores each finding's fingerprint in it (tc_diag.fingerprint), numbering occurrences over
   the whole report, which it sorts first; findings that have one keep it. Called before the
   first filter (rule settings, baseline): the fingerprints written then are those of the
   unfiltered report, so a finding that stays never takes the number of one dropped. Returns 0,
   or -1 when out of memory. */
int tc_report_fix_fingerprints(tc_report *r, const tc_options *o);

/* The source line text with whitespace and comments removed (string literals kept). */
char *tc_fingerprint_normalize_line(const char *text, size_t len);

#endif /* TC_FINGERPRINT_H */
