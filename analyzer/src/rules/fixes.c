/* analyzer/src/rules/fixes.c — "fixes" (docs/rules.md "Fixes"): which failures of which check
 * a fix-it repairs, and with what text. The engine plans them (engine/fixes.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/loader.h"

/* "fixes": [{"check": KIND, "failures": [MSG, …], "replace": "got"|"call", "with": TEMPLATE,
   "when_got"/"when_expected": "plain"|"autodiff", "on_warnings": B, "functions": [NAME, …],
   "arg": N, "result_unused": B}, …] (docs/rules.md). */
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

tc_fix_placeholder_kind tc_fix_placeholder(const char *p, size_t *len, int *arg) {
  static const struct {
    const char *text;
    tc_fix_placeholder_kind kind;
  } named[] = {{"{got}", TC_FIX_GOT},
               {"{expected}", TC_FIX_EXPECTED},
               {"{got_handle}", TC_FIX_GOT_HANDLE}};
  *arg = -1;
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (strncmp(p, named[i].text, strlen(named[i].text)) == 0) {
      *len = strlen(named[i].text);
      return named[i].kind;
    }
  if (strncmp(p, "{arg", 4) != 0 || p[4] < '0' || p[4] > '9') return TC_FIX_NOT_PLACEHOLDER;
  int n = 0;
  size_t k = 4;
  for (; p[k] >= '0' && p[k] <= '9' && k < 7; k++) n = n * 10 + (p[k] - '0'); /* 3 digits */
  if (p[k] != '}' || (k > 5 && p[4] == '0')) return TC_FIX_NOT_PLACEHOLDER;
  *len = k + 1;
  *arg = n;
  return TC_FIX_ARG;
}

int tc_fix_applies_to(const tc_fix_def *f, const char *fn_name) {
  if (!f->functions) return 1;
  for (size_t i = 0; fn_name && i < f->n_functions; i++)
    if (strcmp(f->functions[i], fn_name) == 0) return 1;
  return 0;
}

static int parse_fix_template(loader *L, const char *with, size_t at) {
  for (const char *p = strchr(with, '{'); p; p = strchr(p + 1, '{')) {
    size_t len;
    int arg;
    if (tc_fix_placeholder(p, &len, &arg) == TC_FIX_NOT_PLACEHOLDER) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "with"),
                   "\"with\": unknown placeholder (only {got}, {expected}, {got_handle} and "
                   "{argN}, N an argument's position from 0)");
      return -1;
    }
  }
  return 0;
}

/* "functions": [NAME, …], the calls the fix is limited to. */
static int parse_fix_functions(loader *L, const cJSON *f, size_t at, tc_fix_def *d) {
  const cJSON *fl = cJSON_GetObjectItemCaseSensitive(f, "functions");
  if (!fl) return 0;
  size_t n = 0;
  int names_only = cJSON_IsArray(fl) && fl->child;
  for (const cJSON *m = cJSON_IsArray(fl) ? fl->child : NULL; m; m = m->next, n++)
    names_only &= cJSON_IsString(m) && m->valuestring[0];
  if (!names_only) {
    tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "functions"),
                 "\"functions\" must be a non-empty array of function names");
    return -1;
  }
  if (!(d->functions = calloc(n, sizeof *d->functions))) return -1;
  for (const cJSON *m = fl->child; m; m = m->next)
    if (!(d->functions[d->n_functions++] = rules_strdup(m->valuestring))) return -1;
  return 0;
}

static void free_fix(tc_fix_def *d) {
  for (size_t i = 0; i < d->n_functions; i++) free(d->functions[i]);
  free(d->functions);
  free(d->with);
}

void rules_free_fixes(tc_rules *r) {
  for (size_t i = 0; i < r->n_fixes; i++) free_fix(&r->fixes[i]);
  free(r->fixes);
}

int rules_finish_fixes(const tc_rules *r, const char *file, char *err, size_t err_len) {
  for (size_t i = 0; i < r->n_fixes; i++)
    for (size_t k = 0; k < r->fixes[i].n_functions; k++) {
      const char *name = r->fixes[i].functions[k];
      const tc_api_fn *fn = tc_rules_find(r, name);
      int checked = 0;
      for (size_t c = 0; fn && c < fn->n_checks; c++)
        checked |= fn->checks[c].kind == r->fixes[i].check;
      if (!checked) {
        snprintf(err, err_len, "%s: a fix names function \"%s\", which %s", file, name,
                 fn ? "has no check of the fix's kind" : "no loaded rules file describes");
        return -1;
      }
    }
  return 0;
}

int rules_parse_fixes(loader *L, const cJSON *arr) {
  static const char *const keys[] = {"check",       "failures",      "replace",   "with",
                                     "when_got",    "when_expected", "functions", "arg",
                                     "on_warnings", "result_unused", "description", NULL};
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
    tc_fix_def d = {.when_got = -1, .when_expected = -1, .got_arg = -1};
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
        tc_json_bool(&L->j, f, "result_unused", at, &d.result_unused) < 0 ||
        tc_json_int(&L->j, f, "arg", at, 0, TC_RULES_MAX_ARGS - 1, &d.got_arg) < 0 ||
        (cJSON_GetObjectItemCaseSensitive(f, "description") &&
         !tc_json_string(&L->j, f, "description", at, 0, "a fix")))
      return -1;
    tc_fix_def *nf = realloc(L->r->fixes, (L->r->n_fixes + 1) * sizeof *nf);
    if (!nf) return -1;
    L->r->fixes = nf;
    d.with = rules_strdup(with);
    nf[L->r->n_fixes++] = d; /* owned by the rules from here, even if what follows fails */
    if (!d.with || parse_fix_functions(L, f, at, &nf[L->r->n_fixes - 1])) return -1;
  }
  return 0;
}
