/* analyzer/src/report/json.c — the simple JSON report (--format json), documented in
 * docs/ci.md: {"tool", "findings": [{rule, level, file, line, col, endLine, endCol, message,
 * operation, function, fingerprint, suppressed, justification, notes: [{file, line, col,
 * message}], fixes: [{file, line, col, endLine, endCol, offset, length, replacement}]}],
 * "failures": [{file, reason}], "summary": {…}}. Suppressed findings are listed
 * only with --show-suppressed, as in text output. */
#include <stdlib.h>
#include <string.h>

#include "report/fingerprint.h"
#include "report/fixit.h"
#include "report/json_util.h"
#include "report/sarif_limits.h"
#include "report/source.h"
#include "base/uri.h"
#include "report/writers.h"
#include "base/path.h"

static void add_position(cJSON *obj, const tc_loc *loc) {
  tc_json_add_text(obj, "file", loc->file);
  cJSON_AddNumberToObject(obj, "line", loc->line);
  cJSON_AddNumberToObject(obj, "col", loc->col);
}

/* The fix-it's edits (none when it cannot be rendered from the sources). */
static void add_fixes(cJSON *f, tc_source_cache *sc, const tc_diag *d) {
  tc_fix_repl *reps;
  size_t n;
  if (tc_fix_render(sc, d, &reps, &n) != 0) return;
  cJSON *fixes = cJSON_AddArrayToObject(f, "fixes");
  for (size_t k = 0; fixes && k < n; k++) {
    cJSON *x = cJSON_CreateObject();
    if (!x) break;
    add_position(x, reps[k].range);
    cJSON_AddNumberToObject(x, "endLine", reps[k].range->end_line);
    cJSON_AddNumberToObject(x, "endCol", reps[k].range->end_col);
    cJSON_AddNumberToObject(x, "offset", (double)reps[k].offset);
    cJSON_AddNumberToObject(x, "length", (double)reps[k].length);
    tc_json_add_text(x, "replacement", reps[k].text);
    cJSON_AddItemToArray(fixes, x);
  }
  tc_fix_repls_free(reps, n);
}

static cJSON *finding(tc_source_cache *sc, const tc_diag *d, const char *fingerprint) {
  cJSON *f = cJSON_CreateObject();
  if (!f) return NULL;
  tc_json_add_text(f, "rule", d->rule_id);
  cJSON_AddStringToObject(f, "level", tc_level_name(d->level));
  add_position(f, &d->loc);
  if (d->loc.end_line) {
    cJSON_AddNumberToObject(f, "endLine", d->loc.end_line);
    cJSON_AddNumberToObject(f, "endCol", d->loc.end_col);
  }
  tc_json_add_text(f, "message", d->message);
  tc_json_add_text(f, "operation", d->operation);
  tc_json_add_text(f, "function", d->function);
  cJSON_AddStringToObject(f, "fingerprint", fingerprint);
  cJSON_AddBoolToObject(f, "suppressed", d->suppressed != 0);
  if (d->suppressed) tc_json_add_text(f, "justification", d->suppression_text);
  cJSON *notes = cJSON_AddArrayToObject(f, "notes");
  for (size_t i = 0; notes && i < d->n_notes; i++) {
    cJSON *n = cJSON_CreateObject();
    if (!n) break;
    add_position(n, &d->notes[i].loc);
    tc_json_add_text(n, "message", d->notes[i].message);
    cJSON_AddItemToArray(notes, n);
  }
  add_fixes(f, sc, d);
  return f;
}

int tc_write_json(const tc_report *r, const tc_options *o, FILE *out) {
  int rc = -1;
  tc_source_cache sc;
  tc_source_cache_init(&sc);
  char *root = tc_path_root_dir(o ? o->root : NULL);
  tc_fingerprint *fps = calloc(r->n_diags ? r->n_diags : 1, sizeof *fps);
  cJSON *doc = cJSON_CreateObject();
  if (!fps || !doc || tc_fingerprints(r, root ? root : "/", &sc, fps) != 0) goto done;

  cJSON_AddNumberToObject(doc, "version", 1);
  cJSON *tool = cJSON_AddObjectToObject(doc, "tool");
  if (tool) {
    cJSON_AddStringToObject(tool, "name", "tagcheck");
    cJSON_AddStringToObject(tool, "version", TC_VERSION);
  }
  size_t errors = 0, warnings = 0, notes = 0, suppressed = 0;
  cJSON *findings = cJSON_AddArrayToObject(doc, "findings");
  for (size_t i = 0; findings && i < r->n_diags; i++) {
    const tc_diag *d = &r->diags[i];
    if (d->suppressed) suppressed++;
    else if (d->level == TC_LEVEL_ERROR) errors++;
    else if (d->level == TC_LEVEL_WARNING) warnings++;
    else notes++;
    if (d->suppressed && !o->show_suppressed) continue;
    cJSON_AddItemToArray(findings, finding(&sc, d, fps[i]));
  }
  cJSON *failures = cJSON_AddArrayToObject(doc, "failures");
  for (size_t i = 0; failures && i < r->n_failures; i++) {
    cJSON *f = cJSON_CreateObject();
    if (!f) break;
    tc_json_add_text(f, "file", r->failures[i].file);
    tc_json_add_text(f, "reason", r->failures[i].reason);
    cJSON_AddItemToArray(failures, f);
  }
  cJSON *summary = cJSON_AddObjectToObject(doc, "summary");
  if (summary) {
    cJSON_AddNumberToObject(summary, "units", (double)r->n_units);
    cJSON_AddNumberToObject(summary, "findings", (double)(errors + warnings + notes));
    cJSON_AddNumberToObject(summary, "errors", (double)errors);
    cJSON_AddNumberToObject(summary, "warnings", (double)warnings);
    cJSON_AddNumberToObject(summary, "notes", (double)notes);
    cJSON_AddNumberToObject(summary, "suppressed", (double)suppressed);
    cJSON_AddNumberToObject(summary, "failures", (double)r->n_failures);
  }
  rc = tc_json_write(doc, out);
done:
  cJSON_Delete(doc);
  free(fps);
  free(root);
  tc_source_cache_free(&sc);
  return rc;
}
