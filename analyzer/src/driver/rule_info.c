/* analyzer/src/driver/rule_info.c — --list-rules, --explain and rule id checks
 * (driver/rule_info.h); examples of dt's tag rules come from driver/rule_examples.def. */
#include "driver/rule_info.h"

#include <string.h>

typedef struct rule_example {
  const char *id, *wrong, *fixed;
} rule_example;

static const rule_example examples[] = {
#define RULE_EXAMPLE(id, wrong, fixed) {id, wrong, fixed},
#include "driver/rule_examples.def"
#undef RULE_EXAMPLE
};

static const tc_rule_meta *find(const tc_report *r, const char *id) {
  for (size_t i = 0; i < r->n_rules; i++)
    if (strcmp(r->rules[i].id, id) == 0) return &r->rules[i];
  return NULL;
}

void tc_list_rules(const tc_report *r, FILE *out) {
  size_t w = 0;
  for (size_t i = 0; i < r->n_rules; i++)
    if (strlen(r->rules[i].id) > w) w = strlen(r->rules[i].id);
  for (size_t i = 0; i < r->n_rules; i++)
    fprintf(out, "%-*s  %-7s  %s\n", (int)w, r->rules[i].id,
            tc_level_name(r->rules[i].default_level), r->rules[i].short_description);
}

static void indented(FILE *out, const char *text) {
  const char *p = text;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    fprintf(out, "    %.*s\n", (int)n, p);
    p += n + (nl != NULL);
  }
}

int tc_explain_rule(const tc_report *r, const char *id, FILE *out) {
  const tc_rule_meta *m = find(r, id);
  if (!m) return -1;
  fprintf(out, "%s (%s), default level %s\n\n%s\n", m->id, m->name,
          tc_level_name(m->default_level), m->short_description);
  const char *more = m->full_description; /* what the full description adds to the summary */
  size_t sl = strlen(m->short_description);
  if (strncmp(more, m->short_description, sl) == 0) more += sl;
  while (*more == ' ') more++;
  if (*more) fprintf(out, "\n%s\n", more);
  if (m->help[0] && !strstr(m->full_description, m->help)) fprintf(out, "\nFix: %s\n", m->help);
  const char *wrong = m->example, *fixed = m->example_fix; /* the rules file's own */
  for (size_t i = 0; !wrong && i < sizeof examples / sizeof examples[0]; i++) {
    if (strcmp(examples[i].id, id) != 0) continue;
    wrong = examples[i].wrong;
    fixed = examples[i].fixed;
  }
  if (wrong && fixed) {
    fprintf(out, "\nWrong:\n");
    indented(out, wrong);
    fprintf(out, "Fixed:\n");
    indented(out, fixed);
  }
  fprintf(out, "\nSuppress one finding: // NOLINT(%s) or // tagcheck: ignore[%s] on its line.\n",
          m->id, m->id);
  return 0;
}

static int check_list(char *const *ids, size_t n, const char *what, const tc_options *o,
                      const tc_report *r, char *err, size_t err_len) {
  for (size_t i = 0; i < n; i++) {
    if (find(r, ids[i])) continue;
    snprintf(err, err_len, "unknown rule '%s' in %s%s%s: no loaded rules file defines it (see "
             "tagcheck --list-rules)", ids[i], what, o->config_loaded ? " or " : "",
             o->config_loaded ? o->config_loaded : "");
    return -1;
  }
  return 0;
}

int tc_check_rule_ids(const tc_options *o, const tc_report *r, char *err, size_t err_len) {
  if (check_list(o->enable_rules, o->n_enable_rules, "--enable", o, r, err, err_len) != 0 ||
      check_list(o->disable_rules, o->n_disable_rules, "--disable", o, r, err, err_len) != 0)
    return -1;
  return check_list(o->severity_rules, o->n_severity, "the rule settings", o, r, err, err_len);
}

int tc_check_unavailable(const tc_options *o, const tc_rules *rules, char *err, size_t err_len) {
  for (size_t i = 0; i < o->n_unavailable; i++) {
    if (tc_rules_backend_by_name(rules, o->unavailable[i]) >= 0) continue;
    int w = snprintf(err, err_len, "unknown backend '%s' in --unavailable%s%s: the loaded rules' "
                     "backends are", o->unavailable[i], o->config_loaded ? " or " : "",
                     o->config_loaded ? o->config_loaded : "");
    for (size_t b = 0; b < rules->n_backends && w > 0 && (size_t)w < err_len; b++)
      w += snprintf(err + w, err_len - (size_t)w, "%s %s", b ? "," : "", rules->backends[b].name);
    return -1;
  }
  return 0;
}
