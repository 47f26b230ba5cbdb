/* runtime/src/report_sarif.c — the runtime's SARIF writer: when DT_REPORT=path.sarif is set,
 * every run-time failure recorded by dt__fail is kept and a SARIF 2.1.0 log is written at exit
 * (and before abort), with the analyzer's rule ids and fingerprint scheme.
 * (Skeleton: records nothing yet; the writer lands next.) */
#include "internal.h"

void dt__report_record(const dt_site *site, dt_status status, const char *message) {
  (void)site;
  (void)status;
  (void)message;
}
