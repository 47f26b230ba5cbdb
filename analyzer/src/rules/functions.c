/* analyzer/src/rules/functions.c — "functions" and "library_functions" (a description per
 * function: its checks, result and effects, read by checks.c, results.c, effects.c), the index
 * of functions by name, "function_families", and the call-site twins of API functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/loader.h"
#include "base/bytes.h"

static size_t hash_str(const char *s) { return (size_t)tc_fnv64_str(s); }

/* ---- the index of functions by name (open addressing: index+1, 0 empty), kept up to date
   while loading so that adding, overriding and looking up are constant time ---- */

static size_t fn_slot(const tc_rules *r, const char *name) {
  size_t h = hash_str(name) & (r->fn_index_cap - 1);
  while (r->fn_index[h] && strcmp(r->fns[r->fn_index[h] - 1].name, name) != 0)
    h = (h + 1) & (r->fn_index_cap - 1);
  return h;
}

static int build_index(tc_rules *r) {
  size_t cap = 16;
  while (cap < r->n_fns * 2 + 2) cap *= 2;
  size_t *idx = calloc(cap, sizeof *idx);
  if (!idx) return -1;
  free(r->fn_index);
  r->fn_index = idx;
  r->fn_index_cap = cap;
  for (size_t i = 0; i < r->n_fns; i++) r->fn_index[fn_slot(r, r->fns[i].name)] = i + 1;
  return 0;
}

static tc_api_fn *find_fn(tc_rules *r, const char *name) {
  if (!r->fn_index) return NULL;
  size_t slot = r->fn_index[fn_slot(r, name)];
  return slot ? &r->fns[slot - 1] : NULL;
}

static tc_api_fn *new_fn(tc_rules *r, const char *name) {
  tc_api_fn *old = find_fn(r, name);
  if (old) { /* a later file overrides */
    rules_free_checks(old->checks, old->n_checks);
    old->checks = NULL;
    old->n_checks = 0;
    return old;
  }
  if (r->n_fns == r->cap_fns) {
    size_t cap = r->cap_fns ? r->cap_fns * 2 : 64;
    tc_api_fn *nf = realloc(r->fns, cap * sizeof *nf);
    if (!nf) return NULL;
    r->fns = nf;
    r->cap_fns = cap;
  }
  tc_api_fn *f = &r->fns[r->n_fns];
  memset(f, 0, sizeof *f);
  f->name = rules_strdup(name);
  if (!f->name) return NULL;
  r->n_fns++;
  if (r->n_fns * 2 + 2 > r->fn_index_cap) {
    if (build_index(r) != 0) return NULL; /* (puts the new function in too) */
  } else {
    r->fn_index[fn_slot(r, name)] = r->n_fns;
  }
  return f;
}

/* What a description that "extends" the one below it (a library model of a file loaded
   before: rules/libc.json) takes from it: the result and the effects it does not give. */
static int inherit(const tc_api_fn *below, int result, tc_result_spec *res, int effects,
                   tc_effect **out, size_t *n_out) {
  if (result) {
    *res = below->result;
    res->placement_field = NULL;
    if (below->result.placement_field &&
        !(res->placement_field = rules_strdup(below->result.placement_field)))
      return -1;
  }
  if (effects && below->n_effects) {
    *out = malloc(below->n_effects * sizeof **out);
    if (!*out) return -1;
    memcpy(*out, below->effects, below->n_effects * sizeof **out);
    *n_out = below->n_effects;
  }
  return 0;
}

/* fo is the description of one function; at is where its key is in the text. */
static int parse_fn(loader *L, const cJSON *fo, size_t at, int api) {
  static const char *const k[] = {"params", "checks", "result", "effects", "extends",
                                  "description", NULL};
  if (!cJSON_IsObject(fo)) {
    tc_json_fail(&L->j, at, "function \"%s\" must be described by an object", fo->string);
    return -1;
  }
  if (tc_json_only_keys(&L->j, fo, at, "a function description", k)) return -1;
  int extends = 0;
  if (tc_json_bool(&L->j, fo, "extends", at, &extends) < 0) return -1;
  const tc_api_fn *below = extends ? find_fn(L->r, fo->string) : NULL;
  if (extends && (!below || below->n_checks)) {
    tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "extends"),
                 below ? "\"extends\": \"%s\" below has checks of its own (extend a model "
                         "without checks)"
                       : "\"extends\": no description of \"%s\" is loaded before this one",
                 fo->string);
    return -1;
  }
  int n_params = below ? below->n_params : -1;
  if (tc_json_int(&L->j, fo, "params", at, 0, 64, &n_params) < 0) return -1;
  tc_check *checks = NULL;
  size_t n_checks = 0;
  const cJSON *cl = cJSON_GetObjectItemCaseSensitive(fo, "checks");
  if (cl) {
    size_t cat = tc_json_find_key(L->j.text, at, "checks");
    if (!cJSON_IsArray(cl)) {
      tc_json_fail(&L->j, cat, "\"checks\" must be a list of checks");
      return -1;
    }
    n_checks = (size_t)cJSON_GetArraySize(cl);
    checks = calloc(n_checks ? n_checks : 1, sizeof *checks);
    if (!checks) return -1;
    size_t i = 0, pos = cat;
    for (const cJSON *c = cl->child; c; c = c->next, i++) {
      pos = tc_json_find_key(L->j.text, pos + 1, "check");
      if (rules_parse_check(L, c, pos, n_params, &checks[i])) {
        rules_free_checks(checks, i + 1);
        return -1;
      }
    }
  }
  tc_result_spec res;
  tc_rules_result_defaults(&res);
  const cJSON *ro = cJSON_GetObjectItemCaseSensitive(fo, "result");
  if (ro && rules_parse_result(L, ro, tc_json_find_key(L->j.text, at, "result"), n_params, &res)) {
    free(res.placement_field);
    rules_free_checks(checks, n_checks);
    return -1;
  }
  tc_effect *effects = NULL;
  size_t n_effects = 0;
  const cJSON *el = cJSON_GetObjectItemCaseSensitive(fo, "effects");
  if (el) {
    size_t eat = tc_json_find_key(L->j.text, at, "effects");
    if (!cJSON_IsArray(el)) {
      tc_json_fail(&L->j, eat, "\"effects\" must be a list of effects");
      free(res.placement_field);
      rules_free_checks(checks, n_checks);
      return -1;
    }
    n_effects = (size_t)cJSON_GetArraySize(el);
    effects = calloc(n_effects ? n_effects : 1, sizeof *effects);
    size_t i = 0;
    for (const cJSON *x = el->child; effects && x; x = x->next, i++)
      if (rules_parse_effect(L, x, eat, n_params, &effects[i])) {
        free(effects);
        free(res.placement_field);
        rules_free_checks(checks, n_checks);
        return -1;
      }
    if (!effects) {
      free(res.placement_field);
      rules_free_checks(checks, n_checks);
      return -1;
    }
  }
  if (below && inherit(below, !ro, &res, !el, &effects, &n_effects)) {
    free(effects);
    free(res.placement_field);
    rules_free_checks(checks, n_checks);
    return -1;
  }
  tc_api_fn *f = new_fn(L->r, fo->string);
  if (!f) {
    free(effects);
    free(res.placement_field);
    rules_free_checks(checks, n_checks);
    return -1;
  }
  free(f->effects);
  free(f->result.placement_field);
  f->effects = effects;
  f->n_effects = n_effects;
  f->checks = checks;
  f->n_checks = n_checks;
  f->result = res;
  f->n_params = n_params;
  f->api = api;
  f->leading_args = 0;
  return 0;
}

typedef struct named_child {
  const cJSON *item;
  size_t order;
} named_child;

static int cmp_named_child(const void *pa, const void *pb) {
  const named_child *a = pa, *b = pb;
  int c = strcmp(a->item->string, b->item->string);
  return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The first function (in file order) described twice in obj, or NULL; sorting the names keeps
   this n log n for rules files of thousands of functions. -1 when out of memory. */
static int find_repeated(const cJSON *obj, const cJSON **repeated) {
  *repeated = NULL;
  size_t n = 0;
  for (const cJSON *f = obj->child; f; f = f->next) n++;
  if (n < 2) return 0;
  named_child *v = malloc(n * sizeof *v);
  if (!v) return -1;
  n = 0;
  for (const cJSON *f = obj->child; f; f = f->next, n++) v[n] = (named_child){f, n};
  qsort(v, n, sizeof *v, cmp_named_child);
  size_t first = SIZE_MAX;
  for (size_t i = 1; i < n; i++)
    if (strcmp(v[i - 1].item->string, v[i].item->string) == 0 && v[i - 1].order < first) {
      first = v[i - 1].order;
      *repeated = v[i - 1].item;
    }
  free(v);
  return 0;
}

int rules_parse_functions(loader *L, const cJSON *obj, const char *section, int api) {
  size_t where = tc_json_locate(&L->j, section, NULL);
  if (!cJSON_IsObject(obj)) {
    tc_json_fail(&L->j, where, "\"%s\" must be an object mapping function names to descriptions",
                 section);
    return -1;
  }
  const cJSON *twice;
  if (find_repeated(obj, &twice) != 0) return -1;
  if (twice) {
    size_t first = tc_json_locate(&L->j, section, twice->string, NULL);
    tc_json_fail(&L->j, tc_json_find_key(L->j.text, first + 1, twice->string),
                 "function \"%s\" described twice", twice->string);
    return -1;
  }
  /* The keys come in file order: each is searched from the one before (searching from the
     section's start each time was quadratic in the number of functions). */
  size_t at = where;
  for (const cJSON *f = obj->child; f; f = f->next) {
    at = tc_json_find_key(L->j.text, at, f->string);
    if (parse_fn(L, f, at, api)) return -1;
    at++;
  }
  return 0;
}

/* "function_families": [{"context_param": I, "context_type": T, "returns": R}, ...] */
int rules_parse_families(loader *L, const cJSON *arr) {
  static const char *const k[] = {"context_param", "context_type", "returns", "description", NULL};
  size_t at = tc_json_locate(&L->j, "function_families", NULL);
  if (!cJSON_IsArray(arr)) {
    tc_json_fail(&L->j, at, "\"function_families\" must be an array of objects");
    return -1;
  }
  for (const cJSON *f = arr->child; f; f = f->next) {
    at = tc_json_find_key(L->j.text, at + 1, "context_type");
    if (!cJSON_IsObject(f) || tc_json_only_keys(&L->j, f, at, "a function family", k)) {
      if (!L->j.failed) tc_json_fail(&L->j, at, "each function family must be an object");
      return -1;
    }
    int param = 0;
    if (tc_json_int(&L->j, f, "context_param", at, 0, 63, &param) < 0) return -1;
    const char *ctx = tc_json_string(&L->j, f, "context_type", at, 1, "a function family");
    const char *ret = ctx ? tc_json_string(&L->j, f, "returns", at, 1, "a function family") : NULL;
    if (!ctx || !ret) return -1;
    tc_family *nf = realloc(L->r->families, (L->r->n_families + 1) * sizeof *nf);
    if (!nf) {
      tc_json_fail(&L->j, at, "out of memory");
      return -1;
    }
    L->r->families = nf;
    tc_family *fam = &nf[L->r->n_families];
    fam->context_param = param;
    fam->context_type = rules_strdup(ctx);
    fam->returns = rules_strdup(ret);
    if (!fam->context_type || !fam->returns) {
      free(fam->context_type);
      free(fam->returns);
      tc_json_fail(&L->j, at, "out of memory");
      return -1;
    }
    L->r->n_families++;
  }
  return 0;
}

const tc_api_fn *tc_rules_find(const tc_rules *r, const char *name) {
  if (!r || !r->fn_index || !name || !name[0]) return NULL;
  size_t slot = r->fn_index[fn_slot(r, name)];
  return slot ? &r->fns[slot - 1] : NULL;
}

int tc_rules_is_noreturn(const tc_rules *r, const char *name) {
  for (size_t i = 0; r && name && i < r->n_noreturn; i++)
    if (strcmp(r->noreturn[i], name) == 0) return 1;
  return 0;
}

/* Adds "NAME<suffix>" twins of every API function, their arguments shifted by `leading`. */
int rules_add_twins(tc_rules *r, const twin_spec *tw) {
  if (!tw->suffix) return 0;
  size_t n0 = r->n_fns;
  for (size_t i = 0; i < n0; i++) {
    if (!r->fns[i].api || r->fns[i].leading_args) continue;
    size_t len = strlen(r->fns[i].name) + strlen(tw->suffix) + 1;
    char *tn = malloc(len);
    if (!tn) return -1;
    snprintf(tn, len, "%s%s", r->fns[i].name, tw->suffix);
    if (!find_fn(r, tn)) {
      tc_api_fn *f = new_fn(r, tn);
      if (!f) {
        free(tn);
        return -1;
      }
      const tc_api_fn *src = &r->fns[i]; /* new_fn may have moved the array */
      f->api = 1;
      f->leading_args = tw->leading;
      f->n_params = src->n_params >= 0 ? src->n_params + tw->leading : -1;
      f->result = src->result;
      f->n_effects = src->n_effects;
      f->effects = calloc(src->n_effects ? src->n_effects : 1, sizeof *f->effects);
      if (!f->effects) {
        free(tn);
        return -1;
      }
      if (src->n_effects) memcpy(f->effects, src->effects, src->n_effects * sizeof *f->effects);
      f->n_checks = src->n_checks;
      f->checks = calloc(src->n_checks ? src->n_checks : 1, sizeof *f->checks);
      if (!f->checks) {
        free(tn);
        return -1;
      }
      for (size_t c = 0; c < src->n_checks; c++) {
        f->checks[c] = src->checks[c];
        f->checks[c].accept = NULL;
        if (src->checks[c].accept) {
          size_t w = src->checks[c].n_args ? (size_t)src->checks[c].n_args : 1;
          size_t sz = (size_t)src->checks[c].n_accept * w;
          f->checks[c].accept = malloc(sz);
          if (!f->checks[c].accept) {
            free(tn);
            return -1;
          }
          memcpy(f->checks[c].accept, src->checks[c].accept, sz);
        }
      }
    }
    free(tn);
  }
  return 0;
}
