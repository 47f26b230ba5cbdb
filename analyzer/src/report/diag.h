/* analyzer/src/report/diag.h — the diagnostics model shared by the engine (which creates
 * findings and never prints) and the report writers (text, json, sarif, lsp), which only
 * format. Every string here is heap-owned by the structure that holds it; tc_report_free
 * releases everything. No globals. */
#ifndef TC_DIAG_H
#define TC_DIAG_H

#include <stddef.h>

typedef enum tc_level { TC_LEVEL_NOTE = 0, TC_LEVEL_WARNING = 1, TC_LEVEL_ERROR = 2 } tc_level;

/* A source range; lines and columns are 1-based (columns in bytes, as clang counts them).
   end_line/end_col may be 0 when unknown. file is an absolute, normalized path. */
typedef struct tc_loc {
  char *file;
  unsigned line, col;
  unsigned end_line, end_col;
} tc_loc;

/* One step of a tag's history: "tag cuda:0 comes from dt_cuda(0) here", "x assigned here",
   "in call to init_model from train.c:40". Notes are in flow order: origin first. */
typedef struct tc_note {
  tc_loc loc;
  char *message;
} tc_note;

/* One edit of a fix-it, as the rules give it (docs/rules.md "fixes"): the range `range` of the
   source is replaced by `with`, a template in which `{K}` stands for the source text of
   sources[K] (the engine has resolved the rules' placeholders, {got}, {argN}, …, into those
   ranges; every `{` of `with` starts one). The report layer reads those texts and renders the
   replacement (report/fixit.h), so the engine never needs the sources. */
#define TC_FIX_MAX_SOURCES 16 /* source ranges one edit may read */
typedef struct tc_fix_edit {
  tc_loc range;
  char *with;
  tc_loc *sources;
  size_t n_sources;
} tc_fix_edit;

typedef struct tc_diag {
  char *rule_id; /* "backend-mismatch", … (dt/rules.def), or a rule id of a loaded rules file */
  tc_level level;
  tc_loc loc;       /* the API call whose run-time check would fail */
  char *message;    /* names the operation, both tags and where each came from */
  char *operation;  /* the API function called, e.g. "dt_add" */
  char *function;   /* the enclosing function (for fingerprints), "" at file scope */
  tc_note *notes;
  size_t n_notes;
  int suppressed;   /* a suppression comment names this rule on this line or the one before */
  char *suppression_text; /* the comment, when suppressed */
  tc_fix_edit *fix;  /* the fix-it: edits that together make the run-time check pass */
  size_t n_fix;
  char *fingerprint; /* fixed on the whole report before any finding is filtered out
                        (tc_report_fix_fingerprints), so that dropping one (a baseline, an
                        exclude) never renumbers the others; NULL until then */
} tc_diag;

/* A translation unit that could not be analyzed (exit status 3). */
typedef struct tc_unit_failure {
  char *file;
  char *reason;
} tc_unit_failure;

/* Rule metadata for reports: built from dt/rules.def and any rule file that declares more. */
typedef struct tc_rule_meta {
  char *id;
  char *name;
  char *short_description;
  char *full_description;
  char *help;
  tc_level default_level;
  char *example;     /* code that breaks the rule, for --explain; NULL or "" for none */
  char *example_fix; /* the same code fixed */
} tc_rule_meta;

typedef struct tc_report {
  tc_diag *diags;
  size_t n_diags, cap_diags;
  tc_unit_failure *failures;
  size_t n_failures, cap_failures;
  tc_rule_meta *rules;
  size_t n_rules, cap_rules;
  size_t n_units; /* translation units attempted */
  /* --baseline: the findings left are the new ones (SARIF baselineState "new"); how many
     known ones it hid (the summary says so) */
  int baseline_applied;
  size_t n_baseline_known;
} tc_report;

/* ---- building reports (report/report.c) ---- */
void tc_report_init(tc_report *r);
void tc_report_free(tc_report *r);
/* Appends a finding; takes copies of every string. Returns the stored diag (to add notes). */
tc_diag *tc_report_add(tc_report *r, const char *rule_id, tc_level level, const tc_loc *loc,
                       const char *operation, const char *function, const char *message);
void tc_diag_add_note(tc_diag *d, const tc_loc *loc, const char *message);
/* Appends one edit to d's fix-it (copies range, with and the n sources). Returns 0, -1 on
   OOM. */
int tc_diag_add_fix(tc_diag *d, const tc_loc *range, const char *with, const tc_loc *sources,
                    size_t n_sources);
void tc_report_add_failure(tc_report *r, const char *file, const char *reason);
void tc_report_add_rule(tc_report *r, const tc_rule_meta *meta); /* copies; ignores duplicates */
/* Adds the rules of dt/rules.def (the tag rules and the run-time-only ones). */
void tc_report_add_builtin_rules(tc_report *r);
/* Moves every diag and failure of src to the end of dst (src is left empty). */
void tc_report_take(tc_report *dst, tc_report *src);
/* Sorts diags by file, line, column, rule id and drops exact duplicates: deterministic output
   whatever the order units were analyzed in. */
void tc_report_sort(tc_report *r);
const char *tc_level_name(tc_level l); /* "note", "warning", "error" */
/* Keeps the diags for which keep() returns non-zero (index: the diag's position before
   filtering), frees the others, preserves order. */
void tc_report_filter(tc_report *r, int (*keep)(const tc_diag *d, size_t index, void *ctx),
                      void *ctx);

/* "error" / "warning" / "note" -> level; -1 for anything else. */
int tc_level_parse(const char *name, tc_level *out);

#endif /* TC_DIAG_H */
