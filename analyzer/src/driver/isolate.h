/* analyzer/src/driver/isolate.h — one component's whole-program analysis in a child process
 * (fork): a crash or a run past the unit timeout in the engine costs that component's units,
 * which are reported as not analyzed, never the run. The child sends its findings and the
 * engine's statistics back as bytes (report/report_codec.h). */
#ifndef TC_ISOLATE_H
#define TC_ISOLATE_H

#include "engine/engine.h"

/* Analyzes prog like tc_engine_analyze into part. Returns 0; 1 when the analysis crashed or ran
   past timeout_s (0: no limit) — *why gets a malloc'd reason, part stays empty; -1 when out of
   memory. Falls back to analyzing in this process when no child can be started. */
int tc_isolated_analyze(const tc_program *prog, const tc_rules *rules, tc_engine_opts *eo,
                        double timeout_s, tc_report *part, char **why);

#endif /* TC_ISOLATE_H */
