/* analyzer/src/rules/fixes.c — "fixes" (docs/rules.md "Fixes"): which failures of which check
 * a fix-it repairs, and with what text. The engine plans them (engine/fixes.c). */
#include <stdlib.h>
#include <string.h>

#include "rules/loader.h"

/* "fixes": [{"check": KIND, "failures": [MSG, …], "replace": "got"|"call", "with": TEMPLATE,
   "when_got"/"when_expected": "plain"|"autodiff", "on_warnings": B}, …] (docs/rules.md). */
static int parse_autodiffness(loader *L, const cJSON *f, const char *key, size_t at, int *out) {
  const char *v = tc_json_string(&L->j, f, key, at, 0, "a fix");
  *out = -1;
  if (!v) return L->j.failed ? -1 : 0;
  if (strcmp(v, "plain") == 0 || strcmp(v, "autodiff") == 0) {
    *out = strcmp(v, "autodiff") == 0;
    return 0;
  }
  tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, key),
               "\"%s\" must be \"plain\" or \"autodiff\"", key);
  return -1;
}

static int parse_fix_template(loader *L, const char *with, size_t at) {
  for (const char *p = strchr(with, '{'); p; p = strchr(p + 1, '{'))
    if (strncmp(p, "{got}", 5) != 0 && strncmp(p, "{expected}", 10) != 0) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "with"),
                   "\"with\": unknown placeholder (only {got} and {expected})");
      return -1;
    }
  return 0;
}

int rules_parse_fixes(loader *L, const cJSON *arr) {
  static const char *const keys[] = {"check",       "failures",    "replace",
                                     "with",        "when_got",    "when_expected",
                                     "on_warnings", "description", NULL};
  size_t at = tc_json_locate(&L->j, "fixes", NULL);
  if (!cJSON_IsArray(arr)) {
    tc_json_fail(&L->j, at, "\"fixes\" must be an array of fix descriptions");
    return -1;
  }
  for (const cJSON *f = arr->child; f; f = f->next) {
    at = tc_json_find_key(L->j.text, at + 1, "check");
    if (!cJSON_IsObject(f) || tc_json_only_keys(&L->j, f, at, "a fix", keys)) {
      tc_json_fail(&L->j, at, "each fix must be an object");
      return -1;
    }
    tc_fix_def d = {.when_got = -1, .when_expected = -1};
    const char *check = tc_json_string(&L->j, f, "check", at, 1, "a fix");
    if (!check) return -1;
    d.check = rules_check_by_name(check);
    if (!d.check) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "check"), "unknown check \"%s\"", check);
      return -1;
    }
    const cJSON *fl = cJSON_GetObjectItemCaseSensitive(f, "failures");
    if (!cJSON_IsArray(fl) || !fl->child) {
      tc_json_fail(&L->j, fl ? tc_json_find_key(L->j.text, at, "failures") : at,
                   "a fix needs \"failures\": a non-empty array of message names");
      return -1;
    }
    for (const cJSON *m = fl->child; m; m = m->next) {
      int mi = cJSON_IsString(m) ? rules_message_by_key(m->valuestring) : -1;
      if (mi < 0) {
        tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "failures"),
                     "\"failures\": unknown failure %s%s%s", cJSON_IsString(m) ? "\"" : "",
                     cJSON_IsString(m) ? m->valuestring : "(not a string)",
                     cJSON_IsString(m) ? "\"" : "");
        return -1;
      }
      d.failures |= 1u << mi;
    }
    const char *rep = tc_json_string(&L->j, f, "replace", at, 0, "a fix");
    if (L->j.failed) return -1;
    if (rep && strcmp(rep, "got") != 0 && strcmp(rep, "call") != 0) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "replace"),
                   "\"replace\" must be \"got\" or \"call\"");
      return -1;
    }
    d.replace_call = rep && strcmp(rep, "call") == 0;
    const char *with = tc_json_string(&L->j, f, "with", at, 1, "a fix");
    if (!with || parse_fix_template(L, with, at) ||
        parse_autodiffness(L, f, "when_got", at, &d.when_got) ||
        parse_autodiffness(L, f, "when_expected", at, &d.when_expected) ||
        tc_json_bool(&L->j, f, "on_warnings", at, &d.on_warnings) < 0 ||
        (cJSON_GetObjectItemCaseSensitive(f, "description") &&
         !tc_json_string(&L->j, f, "description", at, 0, "a fix")))
      return -1;
    tc_fix_def *nf = realloc(L->r->fixes, (L->r->n_fixes + 1) * sizeof *nf);
    if (!nf) return -1;
    L->r->fixes = nf;
    d.with = rules_strdup(with);
    nf[L->r->n_fixes++] = d;
  }
  return 0;
}
