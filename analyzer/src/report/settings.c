/* analyzer/src/report/settings.c — rule settings applied to a finished report: disabled and
 * enabled rules, severity overrides ("off" drops), and excluded paths (findings and failed
 * units under them; tc_path_excluded lets the driver skip such units altogether). */
#include <stdlib.h>
#include <string.h>

#include "report/fingerprint.h"
#include "base/glob.h"
#include "report/output.h"
#include "report/report_internal.h"
#include "base/uri.h"
#include "base/path.h"

static int listed(char *const *list, size_t n, const char *id) {
  for (size_t i = 0; i < n; i++)
    if (list[i] && strcmp(list[i], id) == 0) return 1;
  return 0;
}

int tc_path_excluded(const tc_options *o, const char *path) {
  if (!o || o->n_exclude == 0 || !path || !*path) return 0;
  char *norm = tc_normalize_path(path);
  if (!norm) return 0;
  int hit = 0;
  /* The file itself, then each directory above it. */
  size_t len = strlen(norm);
  for (size_t end = len; end > 0 && !hit; end--) {
    if (end != len && norm[end] != '/') continue;
    char saved = norm[end];
    norm[end] = '\0';
    for (size_t i = 0; i < o->n_exclude && !hit; i++)
      hit = o->exclude[i] && tc_glob_match(o->exclude[i], norm);
    norm[end] = saved;
  }
  free(norm);
  return hit;
}

/* The severity override for id: 0 none, 1 *level set, -1 "off". */
static int override_for(const tc_options *o, const char *id, tc_level *level) {
  int found = 0;
  for (size_t i = 0; i < o->n_severity; i++) {
    if (!o->severity_rules[i] || strcmp(o->severity_rules[i], id) != 0) continue;
    if (o->severity_levels[i] && strcmp(o->severity_levels[i], "off") == 0) found = -1;
    else if (tc_level_parse(o->severity_levels[i], level) == 0) found = 1;
  }
  return found;
}

typedef struct settings_ctx {
  const tc_options *o;
  tc_options_for_file for_file;
  void *for_file_ctx;
  char *last_file; /* the findings are sorted by file: remember the last verdict (a copy:
                      filtered diags are freed as the filter goes) */
  int last_excluded;
} settings_ctx;

static const tc_options *options_for(const settings_ctx *c, const char *file) {
  const tc_options *o = c->for_file ? c->for_file(c->for_file_ctx, file) : NULL;
  return o ? o : c->o;
}

static int keep_diag(const tc_diag *d, size_t index, void *p) {
  (void)index;
  settings_ctx *c = p;
  const tc_options *o = options_for(c, d->loc.file);
  int enabled = listed(o->enable_rules, o->n_enable_rules, d->rule_id);
  if (!enabled && listed(o->disable_rules, o->n_disable_rules, d->rule_id)) return 0;
  tc_level level;
  if (!enabled && override_for(o, d->rule_id, &level) < 0) return 0;
  if (!c->last_file || strcmp(c->last_file, d->loc.file) != 0) {
    free(c->last_file);
    c->last_file = strdup(d->loc.file);
    c->last_excluded = tc_path_excluded(o, d->loc.file);
  }
  return !c->last_excluded;
}

void tc_apply_rule_settings(tc_report *r, const tc_options *o) {
  tc_apply_rule_settings_by_file(r, o, NULL, NULL);
}

void tc_apply_rule_settings_by_file(tc_report *r, const tc_options *o, tc_options_for_file for_file,
                                    void *ctx) {
  if (!o) return;
  /* Before anything is dropped: a disabled rule or an excluded file must not renumber the
     fingerprints of the findings that stay (out of memory: the writers compute them). */
  (void)tc_report_fix_fingerprints(r, o);
  settings_ctx c = {o, for_file, ctx, NULL, 0};
  tc_report_filter(r, keep_diag, &c);
  free(c.last_file);
  /* A unit under an excluded path is not part of the analysis: nor is its failure. */
  size_t out = 0;
  for (size_t i = 0; i < r->n_failures; i++) {
    if (tc_path_excluded(options_for(&c, r->failures[i].file), r->failures[i].file)) {
      free(r->failures[i].file);
      free(r->failures[i].reason);
      continue;
    }
    r->failures[out++] = r->failures[i];
  }
  r->n_failures = out;
  for (size_t i = 0; i < r->n_diags; i++) {
    tc_level level;
    if (override_for(options_for(&c, r->diags[i].loc.file), r->diags[i].rule_id, &level) > 0)
      r->diags[i].level = level;
  }
  /* The rule metadata shows the configured level too. */
  for (size_t i = 0; i < r->n_rules; i++) {
    tc_level level;
    if (override_for(o, r->rules[i].id, &level) > 0) r->rules[i].default_level = level;
  }
}
