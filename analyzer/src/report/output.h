/* analyzer/src/report/output.h — what the driver (main.c / driver.c) asks of the report layer:
 * suppressions, baselines, rule settings, writing a report in a format, merging shards (the
 * configuration file is the driver's: driver/config.h).
 * Implemented under analyzer/src/report/; the writers only format, they never analyze. */
#ifndef TC_OUTPUT_H
#define TC_OUTPUT_H

#include <stdio.h>

#include "options.h"
#include "report/diag.h"

/* Writes r to out in o->format (text: clang style with carets and notes; json; sarif 2.1.0).
   Returns 0, or -1 on a write error. */
int tc_write_report(const tc_report *r, const tc_options *o, FILE *out);

/* --export-fixes and --fix (report/fixit.c): writes the YAML file, then applies the fix-its
   in place, saying on stderr (unless -q) how many findings were fixed. Returns 0, or -1 with
   the reason printed ("tagcheck: FILE: …"). */
int tc_fix_outputs(const tc_report *r, const tc_options *o);

/* Marks diags whose line (or the line before) carries a suppression comment naming the rule,
   e.g. `// tagcheck: ignore[backend-mismatch]` (see docs/ci.md). Reads the source files. */
void tc_apply_suppressions(tc_report *r);

/* Drops diags whose fingerprint appears in the baseline SARIF file. Returns 0, or -1 with a
   message naming the file in err (exit status 2). */
int tc_apply_baseline(tc_report *r, const char *baseline_path, const tc_options *o, char *err,
                      size_t err_len);

/* Applies enabled/disabled rules and severity overrides from o to r, and drops findings in
   files under o->exclude. */
void tc_apply_rule_settings(tc_report *r, const tc_options *o);

/* The options that judge the findings of one file (driver/config_scope.h). */
typedef const tc_options *(*tc_options_for_file)(void *ctx, const char *file);

/* tc_apply_rule_settings with each finding and failed unit judged by for_file(ctx, its file)
   (o when for_file is NULL); the rules' metadata shows o's levels. */
void tc_apply_rule_settings_by_file(tc_report *r, const tc_options *o, tc_options_for_file for_file,
                                    void *ctx);

/* 1 when path (absolute or relative to the current directory) is under one of o->exclude's
   globs (the file itself or a directory above it matches): the driver skips such units. */
int tc_path_excluded(const tc_options *o, const char *path);

/* The exit status for r under o->fail_on: 0, 1 (findings), 3 (a unit failed; wins over 1). */
int tc_report_exit_status(const tc_report *r, const tc_options *o);

/* `tagcheck merge [-o OUT] IN.sarif...`: merges shard SARIF logs into one valid log.
   Returns the process exit status. */
int tc_merge_main(int argc, char **argv);

/* Writes one problem to stderr as compilers do, so editors' and CI's problem matchers read it:
   a message that starts with its place ("FILE:LINE:COL: what", "FILE: what" — the text before
   the first ": " holds no space) as "FILE:LINE:COL: LEVEL: what"; any other as
   "tool: LEVEL: message" (tool: "tagcheck", "tagcheck merge"). level: "error", "warning",
   "note". */
void tc_print_problem(const char *tool, const char *level, const char *msg);

#endif /* TC_OUTPUT_H */
