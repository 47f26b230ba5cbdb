/* analyzer/src/rules/rules.c — loads and validates rules files (docs/rules.md) with cJSON into
 * a tc_rules: backends, kinds, device/tensor types, rule ids, message templates, and per
 * function its checks and result. Every error names the file, the line and the column
 * ("FILE:LINE:COL: what is wrong"): syntax errors at cJSON's error offset, semantic errors at
 * the key they concern. Several files merge: later files add backends, kinds and functions and
 * may override earlier entries. */
#include "rules/rules.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/diag.h"
#include "util/bytes.h"

/* ---------------------------------------------------------------- small helpers */

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static size_t hash_str(const char *s) { return (size_t)tc_fnv64_str(s); }

/* The rule ids of the runtime's table (dt/rules.def), for metadata. */
static int is_builtin_rule(const char *id) {
#define DT_RULE(status, rid, name, shortd, help) \
  if (strcmp(id, rid) == 0) return 1;
#include <dt/rules.def>
#undef DT_RULE
  return 0;
}

/* ---------------------------------------------------------------- loader state and errors */

typedef struct loader {
  tc_rules *r;
  const char *text; /* the file being loaded */
  const char *file;
  char *err;
  size_t err_len;
  int failed;
} loader;

static void offset_to_linecol(const char *text, size_t off, unsigned *line, unsigned *col) {
  unsigned l = 1, c = 1;
  for (size_t i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l;
  *col = c;
}

static void fail_at(loader *L, size_t off, const char *fmt, ...) {
  if (L->failed) return;
  L->failed = 1;
  unsigned line, col;
  offset_to_linecol(L->text, off, &line, &col);
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (L->err && L->err_len) snprintf(L->err, L->err_len, "%s:%u:%u: %s", L->file, line, col, msg);
}

/* Finds `"key"` followed by `:` at or after from; returns its offset or from if absent. */
static size_t find_key(const char *text, size_t from, const char *key) {
  size_t klen = strlen(key);
  const char *p = text + from;
  while ((p = strchr(p, '"')) != NULL) {
    if (strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '"') {
      const char *q = p + 2 + klen;
      while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n') q++;
      if (*q == ':') return (size_t)(p - text);
    }
    p++;
  }
  return from;
}

/* The position of the nested keys k1, k2, … (NULL-terminated), each searched after the last. */
static size_t locate(const loader *L, ...) {
  va_list ap;
  va_start(ap, L);
  size_t off = 0;
  const char *k;
  while ((k = va_arg(ap, const char *)) != NULL) off = find_key(L->text, off, k);
  va_end(ap);
  return off;
}

/* Rejects keys of obj that are not listed (typos must not pass silently). */
static int only_keys(loader *L, const cJSON *obj, size_t where, const char *what,
                     const char *const *allowed) {
  for (const cJSON *c = obj->child; c; c = c->next) {
    int ok = 0;
    for (size_t i = 0; allowed[i]; i++)
      if (strcmp(c->string, allowed[i]) == 0) ok = 1;
    if (!ok) {
      fail_at(L, find_key(L->text, where, c->string), "unknown key \"%s\" in %s", c->string,
              what);
      return -1;
    }
    for (const cJSON *d = c->next; d; d = d->next)
      if (strcmp(c->string, d->string) == 0) {
        fail_at(L, find_key(L->text, find_key(L->text, where, c->string) + 1, c->string),
                "duplicate key \"%s\" in %s", c->string, what);
        return -1;
      }
  }
  return 0;
}

static int get_int(loader *L, const cJSON *obj, const char *key, size_t where, int lo, int hi,
                   int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 0;
  /* the range first: converting a double past INT_MAX to int is undefined */
  if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi) ||
      v->valuedouble != (double)(int)v->valuedouble) {
    fail_at(L, find_key(L->text, where, key), "\"%s\" must be an integer in [%d, %d]", key, lo,
            hi);
    return -1;
  }
  *out = v->valueint;
  return 1;
}

static int get_bool(loader *L, const cJSON *obj, const char *key, size_t where, int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) return 0;
  if (!cJSON_IsBool(v)) {
    fail_at(L, find_key(L->text, where, key), "\"%s\" must be true or false", key);
    return -1;
  }
  *out = cJSON_IsTrue(v) ? 1 : 0;
  return 1;
}

static const char *get_string(loader *L, const cJSON *obj, const char *key, size_t where,
                              int required, const char *what) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!v) {
    if (required) fail_at(L, where, "%s needs a string \"%s\"", what, key);
    return NULL;
  }
  if (!cJSON_IsString(v) || !v->valuestring[0]) {
    fail_at(L, find_key(L->text, where, key), "\"%s\" must be a non-empty string", key);
    return NULL;
  }
  return v->valuestring;
}

/* ---------------------------------------------------------------- sections */

/* What a backend's memory is (docs/rules.md "Buffers and host memory"). */
typedef struct mem_attrs {
  int host_memory, no_buffer, no_memory, always_available;
} mem_attrs;

static int add_backend(loader *L, const char *name, const char *en, int64_t value, int single,
                       const mem_attrs *ma, size_t where) {
  tc_rules *r = L->r;
  for (size_t i = 0; i < r->n_backends; i++) {
    if (strcmp(r->backends[i].name, name) == 0) {
      if (r->backends[i].value != value) {
        fail_at(L, where, "backend \"%s\" redefined with another value", name);
        return -1;
      }
      return 0;
    }
    if (r->backends[i].value == value) {
      fail_at(L, where, "backends \"%s\" and \"%s\" have the same value %lld",
              r->backends[i].name, name, (long long)value);
      return -1;
    }
  }
  if (r->n_backends >= 30) {
    fail_at(L, where, "too many backends (at most 30)");
    return -1;
  }
  tc_backend_def *nb = realloc(r->backends, (r->n_backends + 1) * sizeof *nb);
  if (!nb) return -1;
  r->backends = nb;
  nb[r->n_backends].name = dupstr(name);
  nb[r->n_backends].enum_name = en ? dupstr(en) : NULL;
  nb[r->n_backends].value = value;
  nb[r->n_backends].single_device = single;
  nb[r->n_backends].host_memory = ma->host_memory;
  nb[r->n_backends].no_buffer = ma->no_buffer;
  nb[r->n_backends].no_memory = ma->no_memory;
  nb[r->n_backends].always_available = ma->always_available;
  r->n_backends++;
  return 0;
}

static int parse_backends(loader *L, const cJSON *arr) {
  size_t where = locate(L, "backends", NULL);
  if (!cJSON_IsArray(arr)) {
    fail_at(L, where, "\"backends\" must be an array of objects");
    return -1;
  }
  static const char *const keys[] = {"name",        "enum",       "value",     "single_device",
                                     "host_memory", "has_buffer", "allocated", "always_available",
                                     "description", NULL};
  size_t at = where;
  for (const cJSON *b = arr->child; b; b = b->next) {
    at = find_key(L->text, at + 1, "name");
    if (!cJSON_IsObject(b)) {
      fail_at(L, at, "each backend must be an object");
      return -1;
    }
    if (only_keys(L, b, at, "a backend", keys)) return -1;
    const char *name = get_string(L, b, "name", at, 1, "a backend");
    if (!name) return -1;
    const char *en = cJSON_GetObjectItemCaseSensitive(b, "enum")
                         ? get_string(L, b, "enum", at, 0, "a backend")
                         : NULL;
    if (L->failed) return -1;
    int value = 0, single = 0, has_buffer = 1, allocated = 1;
    mem_attrs ma = {0, 0, 0, 0};
    if (get_bool(L, b, "single_device", at, &single) < 0 ||
        get_bool(L, b, "host_memory", at, &ma.host_memory) < 0 ||
        get_bool(L, b, "has_buffer", at, &has_buffer) < 0 ||
        get_bool(L, b, "allocated", at, &allocated) < 0 ||
        get_bool(L, b, "always_available", at, &ma.always_available) < 0)
      return -1;
    ma.no_buffer = !has_buffer || !allocated;
    ma.no_memory = !allocated;
    if (ma.no_memory && ma.host_memory) {
      fail_at(L, at, "backend \"%s\": \"allocated\": false has no memory, host or not", name);
      return -1;
    }
    int got = get_int(L, b, "value", at, -1000000, 1000000, &value);
    if (got < 0) return -1;
    if (got == 0 && !ma.no_buffer) {
      fail_at(L, at, "backend \"%s\" needs an integer \"value\" (its enum value)", name);
      return -1;
    }
    /* a placement that is no backend of the API (no buffer) may have no enum value: one no
       enum constant can spell */
    if (got == 0) value = -1000001 - (int)L->r->n_backends;
    if (add_backend(L, name, en, value, single, &ma, at)) return -1;
  }
  return 0;
}

static int parse_kinds(loader *L, const cJSON *arr) {
  size_t where = locate(L, "kinds", NULL);
  if (!cJSON_IsArray(arr)) {
    fail_at(L, where, "\"kinds\" must be an array of objects");
    return -1;
  }
  static const char *const keys[] = {"name", "enum", "value", "description", NULL};
  size_t at = where;
  tc_rules *r = L->r;
  for (const cJSON *k = arr->child; k; k = k->next) {
    at = find_key(L->text, at + 1, "name");
    if (!cJSON_IsObject(k)) {
      fail_at(L, at, "each kind must be an object");
      return -1;
    }
    if (only_keys(L, k, at, "a kind", keys)) return -1;
    const char *name = get_string(L, k, "name", at, 1, "a kind");
    if (!name) return -1;
    const char *en = cJSON_GetObjectItemCaseSensitive(k, "enum")
                         ? get_string(L, k, "enum", at, 0, "a kind")
                         : NULL;
    if (L->failed) return -1;
    int value = 0;
    int got = get_int(L, k, "value", at, -1000000, 1000000, &value);
    if (got < 0) return -1;
    if (got == 0) {
      fail_at(L, at, "kind \"%s\" needs an integer \"value\" (its enum value)", name);
      return -1;
    }
    int dup = 0;
    for (size_t i = 0; i < r->n_kinds; i++) {
      if (strcmp(r->kinds[i].name, name) == 0) {
        if (r->kinds[i].value != value) {
          fail_at(L, at, "kind \"%s\" redefined with another value", name);
          return -1;
        }
        dup = 1;
      } else if (r->kinds[i].value == value) {
        fail_at(L, at, "kinds \"%s\" and \"%s\" have the same value %d", r->kinds[i].name, name,
                value);
        return -1;
      }
    }
    if (dup) continue;
    if (r->n_kinds >= 30) {
      fail_at(L, at, "too many kinds (at most 30)");
      return -1;
    }
    tc_kind_def *nk = realloc(r->kinds, (r->n_kinds + 1) * sizeof *nk);
    if (!nk) return -1;
    r->kinds = nk;
    nk[r->n_kinds].name = dupstr(name);
    nk[r->n_kinds].enum_name = en ? dupstr(en) : NULL;
    nk[r->n_kinds].value = value;
    r->n_kinds++;
  }
  return 0;
}

static int parse_device_types(loader *L, const cJSON *arr) {
  size_t where = locate(L, "device_types", NULL);
  if (!cJSON_IsArray(arr)) {
    fail_at(L, where, "\"device_types\" must be an array of objects");
    return -1;
  }
  static const char *const keys[] = {"name", "backend_field", "ordinal_field", "autodiff_field",
                                     "description", NULL};
  size_t at = where;
  tc_rules *r = L->r;
  for (const cJSON *d = arr->child; d; d = d->next) {
    at = find_key(L->text, at + 1, "name");
    if (!cJSON_IsObject(d)) {
      fail_at(L, at, "each device type must be an object");
      return -1;
    }
    if (only_keys(L, d, at, "a device type", keys)) return -1;
    const char *name = get_string(L, d, "name", at, 1, "a device type");
    const char *bf = name ? get_string(L, d, "backend_field", at, 1, "a device type") : NULL;
    const char *of = bf ? get_string(L, d, "ordinal_field", at, 1, "a device type") : NULL;
    const char *af = of ? get_string(L, d, "autodiff_field", at, 1, "a device type") : NULL;
    if (!af) return -1;
    tc_device_type *nd = realloc(r->device_types, (r->n_device_types + 1) * sizeof *nd);
    if (!nd) return -1;
    r->device_types = nd;
    nd[r->n_device_types].name = dupstr(name);
    nd[r->n_device_types].backend_field = dupstr(bf);
    nd[r->n_device_types].ordinal_field = dupstr(of);
    nd[r->n_device_types].autodiff_field = dupstr(af);
    r->n_device_types++;
  }
  return 0;
}

static int parse_tensor_types(loader *L, const cJSON *arr) {
  size_t where = locate(L, "tensor_types", NULL);
  if (!cJSON_IsArray(arr)) {
    fail_at(L, where, "\"tensor_types\" must be an array of type names");
    return -1;
  }
  tc_rules *r = L->r;
  for (const cJSON *t = arr->child; t; t = t->next) {
    if (!cJSON_IsString(t) || !t->valuestring[0]) {
      fail_at(L, where, "\"tensor_types\" must hold non-empty strings");
      return -1;
    }
    char **nt = realloc(r->tensor_types, (r->n_tensor_types + 1) * sizeof *nt);
    if (!nt) return -1;
    r->tensor_types = nt;
    nt[r->n_tensor_types++] = dupstr(t->valuestring);
  }
  return 0;
}

static const char *const rule_slot_keys[TC_RULE_COUNT] = {
    "autodiff_nested",     "autodiff_expected", "autodiff_inner_backend",
    "backend_mismatch",    "device_mismatch",   "kind_mismatch",
    "backend_unavailable", "buffer_not_set",    "host_access"};

static const char *const msg_slot_keys[TC_MSG_COUNT] = {
    "autodiff_nested_device", "autodiff_nested_tensor", "autodiff_mixed", "autodiff_mixed_plain",
    "autodiff_required",      "autodiff_move",          "autodiff_plain_device",
    "inner_backend",          "backend",                "device",
    "kind",                   "unavailable",            "buffer_not_set",
    "host_access",            "null_data"};

/* Generic wording, used for templates a rules file does not give. */
static const char *const msg_defaults[TC_MSG_COUNT] = {
    "cannot wrap an autodiff device (got {got})",
    "cannot wrap an autodiff tensor (got {got})",
    "operands differ in autodiff-ness (expected {expected}, got {got})",
    "operands differ in autodiff-ness (expected {expected}, got {got})",
    "expected an autodiff tensor, got {got}",
    "cannot move between autodiff and plain devices ({got} to {expected})",
    "expected an autodiff device, got {got}",
    "autodiff tensors on different inner backends (expected {expected_inner}, got {got_inner})",
    "tensors on different backends ({expected} and {got})",
    "tensors on different devices (expected {expected}, got {got})",
    "tensor kinds not accepted together ({kinds})",
    "backend {backend} is not available ({why})",
    "the tensor is in no backend buffer (it is in {got})",
    "{got} memory is not host memory",
    "the tensor was never allocated: its data pointer is NULL"};

static int parse_string_map(loader *L, const cJSON *obj, const char *section,
                            const char *const *keys, size_t n, char **slots) {
  size_t where = locate(L, section, NULL);
  if (!cJSON_IsObject(obj)) {
    fail_at(L, where, "\"%s\" must be an object of strings", section);
    return -1;
  }
  for (const cJSON *c = obj->child; c; c = c->next) {
    size_t i = 0;
    while (i < n && strcmp(keys[i], c->string) != 0) i++;
    if (i == n) {
      fail_at(L, find_key(L->text, where, c->string), "unknown key \"%s\" in \"%s\"", c->string,
              section);
      return -1;
    }
    if (!cJSON_IsString(c) || !c->valuestring[0]) {
      fail_at(L, find_key(L->text, where, c->string), "\"%s\" must be a non-empty string",
              c->string);
      return -1;
    }
    free(slots[i]);
    slots[i] = dupstr(c->valuestring);
  }
  return 0;
}

/* "fixes": [{"check": KIND, "failures": [MSG, …], "replace": "got"|"call", "with": TEMPLATE,
   "when_got"/"when_expected": "plain"|"autodiff", "on_warnings": B}, …] (docs/rules.md). */
static int parse_autodiffness(loader *L, const cJSON *f, const char *key, size_t at, int *out) {
  const char *v = get_string(L, f, key, at, 0, "a fix");
  *out = -1;
  if (!v) return L->failed ? -1 : 0;
  if (strcmp(v, "plain") == 0 || strcmp(v, "autodiff") == 0) {
    *out = v[0] == 'a';
    return 0;
  }
  fail_at(L, find_key(L->text, at, key), "\"%s\" must be \"plain\" or \"autodiff\"", key);
  return -1;
}

static int parse_fix_template(loader *L, const char *with, size_t at) {
  for (const char *p = strchr(with, '{'); p; p = strchr(p + 1, '{'))
    if (strncmp(p, "{got}", 5) != 0 && strncmp(p, "{expected}", 10) != 0) {
      fail_at(L, find_key(L->text, at, "with"),
              "\"with\": unknown placeholder (only {got} and {expected})");
      return -1;
    }
  return 0;
}

static int parse_fixes(loader *L, const cJSON *arr) {
  static const char *const check_names[] = {"agree",         "agree_array", "autodiff_required",
                                            "plain_device",  "same_autodiff", "wraps",
                                            "kinds",         "allocates",   "buffer_set",
                                            "host_pointer",  NULL};
  static const char *const keys[] = {"check", "failures", "replace", "with", "when_got",
                                     "when_expected", "on_warnings", "description", NULL};
  size_t at = locate(L, "fixes", NULL);
  if (!cJSON_IsArray(arr)) {
    fail_at(L, at, "\"fixes\" must be an array of fix descriptions");
    return -1;
  }
  for (const cJSON *f = arr->child; f; f = f->next) {
    at = find_key(L->text, at + 1, "check");
    if (!cJSON_IsObject(f) || only_keys(L, f, at, "a fix", keys)) {
      fail_at(L, at, "each fix must be an object");
      return -1;
    }
    tc_fix_def d = {.when_got = -1, .when_expected = -1};
    const char *check = get_string(L, f, "check", at, 1, "a fix");
    if (!check) return -1;
    size_t ci = 0;
    while (check_names[ci] && strcmp(check_names[ci], check) != 0) ci++;
    if (!check_names[ci]) {
      fail_at(L, find_key(L->text, at, "check"), "unknown check \"%s\"", check);
      return -1;
    }
    d.check = (tc_check_kind)(TC_CHECK_AGREE + (int)ci);
    const cJSON *fl = cJSON_GetObjectItemCaseSensitive(f, "failures");
    if (!cJSON_IsArray(fl) || !fl->child) {
      fail_at(L, fl ? find_key(L->text, at, "failures") : at,
              "a fix needs \"failures\": a non-empty array of message names");
      return -1;
    }
    for (const cJSON *m = fl->child; m; m = m->next) {
      size_t mi = 0;
      while (mi < TC_MSG_COUNT && !(cJSON_IsString(m) && strcmp(msg_slot_keys[mi], m->valuestring) == 0))
        mi++;
      if (mi == TC_MSG_COUNT) {
        fail_at(L, find_key(L->text, at, "failures"), "\"failures\": unknown failure %s%s%s",
                cJSON_IsString(m) ? "\"" : "", cJSON_IsString(m) ? m->valuestring : "(not a string)",
                cJSON_IsString(m) ? "\"" : "");
        return -1;
      }
      d.failures |= 1u << mi;
    }
    const char *rep = get_string(L, f, "replace", at, 0, "a fix");
    if (L->failed) return -1;
    if (rep && strcmp(rep, "got") != 0 && strcmp(rep, "call") != 0) {
      fail_at(L, find_key(L->text, at, "replace"), "\"replace\" must be \"got\" or \"call\"");
      return -1;
    }
    d.replace_call = rep && strcmp(rep, "call") == 0;
    const char *with = get_string(L, f, "with", at, 1, "a fix");
    if (!with || parse_fix_template(L, with, at) ||
        parse_autodiffness(L, f, "when_got", at, &d.when_got) ||
        parse_autodiffness(L, f, "when_expected", at, &d.when_expected) ||
        get_bool(L, f, "on_warnings", at, &d.on_warnings) < 0 ||
        (cJSON_GetObjectItemCaseSensitive(f, "description") &&
         !get_string(L, f, "description", at, 0, "a fix")))
      return -1;
    tc_fix_def *nf = realloc(L->r->fixes, (L->r->n_fixes + 1) * sizeof *nf);
    if (!nf) return -1;
    L->r->fixes = nf;
    d.with = dupstr(with);
    nf[L->r->n_fixes++] = d;
  }
  return 0;
}

static int parse_rule_metas(loader *L, const cJSON *arr) {
  size_t where = locate(L, "rules", NULL);
  if (!cJSON_IsArray(arr)) {
    fail_at(L, where, "\"rules\" must be an array of rule descriptions");
    return -1;
  }
  static const char *const keys[] = {"id", "name", "short_description", "full_description",
                                     "help", "level", "example", "example_fix", NULL};
  tc_rules *r = L->r;
  size_t at = where;
  for (const cJSON *m = arr->child; m; m = m->next) {
    at = find_key(L->text, at + 1, "id");
    if (!cJSON_IsObject(m) || only_keys(L, m, at, "a rule description", keys)) {
      fail_at(L, at, "each rule description must be an object");
      return -1;
    }
    const char *id = get_string(L, m, "id", at, 1, "a rule description");
    const char *name = id ? get_string(L, m, "name", at, 1, "a rule description") : NULL;
    const char *sd = name ? get_string(L, m, "short_description", at, 1, "a rule description")
                          : NULL;
    if (!sd) return -1;
    const char *fd = get_string(L, m, "full_description", at, 0, "");
    const char *help = get_string(L, m, "help", at, 0, "");
    const char *lvl = get_string(L, m, "level", at, 0, "");
    const char *ex = get_string(L, m, "example", at, 0, "");
    const char *ex_fix = get_string(L, m, "example_fix", at, 0, "");
    if (L->failed) return -1;
    if (!ex != !ex_fix) {
      fail_at(L, find_key(L->text, at, ex ? "example" : "example_fix"),
              "\"example\" and \"example_fix\" go together (the wrong code and the same code fixed)");
      return -1;
    }
    tc_level level = TC_LEVEL_ERROR;
    if (lvl) {
      if (strcmp(lvl, "warning") == 0)
        level = TC_LEVEL_WARNING;
      else if (strcmp(lvl, "note") == 0)
        level = TC_LEVEL_NOTE;
      else if (strcmp(lvl, "error") != 0) {
        fail_at(L, find_key(L->text, at, "level"), "\"level\" must be error, warning or note");
        return -1;
      }
    }
    tc_rule_meta *nm = realloc(r->metas, (r->n_metas + 1) * sizeof *nm);
    if (!nm) return -1;
    r->metas = nm;
    tc_rule_meta *x = &nm[r->n_metas++];
    x->id = dupstr(id);
    x->name = dupstr(name);
    x->short_description = dupstr(sd);
    x->full_description = dupstr(fd ? fd : sd);
    x->help = dupstr(help ? help : sd);
    x->default_level = level;
    x->example = ex ? dupstr(ex) : NULL;
    x->example_fix = ex_fix ? dupstr(ex_fix) : NULL;
  }
  return 0;
}

/* ---------------------------------------------------------------- functions */

static int kind_index_by_name(const tc_rules *r, const char *name) {
  for (size_t i = 0; i < r->n_kinds; i++)
    if (strcmp(r->kinds[i].name, name) == 0) return (int)i;
  return -1;
}

int tc_rules_backend_by_name(const tc_rules *r, const char *name) {
  for (size_t i = 0; i < r->n_backends; i++)
    if (strcmp(r->backends[i].name, name) == 0) return (int)i;
  return -1;
}

static int get_arg(loader *L, const cJSON *obj, const char *key, size_t where, int n_params,
                   int required, int *out) {
  int hi = n_params >= 0 ? n_params - 1 : 63;
  if (n_params == 0) {
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) {
      fail_at(L, find_key(L->text, where, key), "\"%s\": the function takes no parameters", key);
      return -1;
    }
  }
  int got = get_int(L, obj, key, where, 0, hi < 0 ? 0 : hi, out);
  if (got < 0) return -1;
  if (got == 0 && required) {
    fail_at(L, where, "missing \"%s\" (an argument index)", key);
    return -1;
  }
  return got;
}

static int get_arg_list(loader *L, const cJSON *obj, const char *key, size_t where, int n_params,
                        int *args, int *n_args, int min) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
  size_t at = find_key(L->text, where, key);
  if (!a) {
    fail_at(L, where, "missing \"%s\" (a list of argument indices)", key);
    return -1;
  }
  if (!cJSON_IsArray(a)) {
    fail_at(L, at, "\"%s\" must be a list of argument indices", key);
    return -1;
  }
  int n = 0;
  for (const cJSON *x = a->child; x; x = x->next) {
    if (!cJSON_IsNumber(x) || x->valuedouble != (double)x->valueint || x->valueint < 0 ||
        (n_params >= 0 && x->valueint >= n_params) || x->valueint > 63) {
      fail_at(L, at, "\"%s\": argument indices must be integers in [0, %d]", key,
              n_params >= 0 ? n_params - 1 : 63);
      return -1;
    }
    if (n >= TC_RULES_MAX_ARGS) {
      fail_at(L, at, "\"%s\": at most %d arguments", key, TC_RULES_MAX_ARGS);
      return -1;
    }
    args[n++] = x->valueint;
  }
  if (n < min) {
    fail_at(L, at, "\"%s\" needs at least %d argument indices", key, min);
    return -1;
  }
  *n_args = n;
  return 0;
}

static int parse_accept(loader *L, const cJSON *chk, size_t at, int width, tc_check *c) {
  const cJSON *acc = cJSON_GetObjectItemCaseSensitive(chk, "accept");
  if (!acc) return 0;
  size_t aat = find_key(L->text, at, "accept");
  if (!cJSON_IsArray(acc) || !acc->child) {
    fail_at(L, aat, "\"accept\" must be a non-empty list of rows of kind names");
    return -1;
  }
  int rows = cJSON_GetArraySize(acc);
  c->accept = calloc((size_t)rows * (size_t)width, 1);
  if (!c->accept) return -1;
  int i = 0;
  for (const cJSON *row = acc->child; row; row = row->next, i++) {
    if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != width) {
      fail_at(L, aat, "each \"accept\" row must list %d kind name%s", width,
              width == 1 ? "" : "s");
      return -1;
    }
    int j = 0;
    for (const cJSON *k = row->child; k; k = k->next, j++) {
      int ki = cJSON_IsString(k) ? kind_index_by_name(L->r, k->valuestring) : -1;
      if (ki < 0) {
        fail_at(L, aat, "\"accept\": unknown kind %s%s%s (declare it in \"kinds\")",
                cJSON_IsString(k) ? "\"" : "", cJSON_IsString(k) ? k->valuestring : "(not a string)",
                cJSON_IsString(k) ? "\"" : "");
        return -1;
      }
      c->accept[i * width + j] = (int8_t)ki;
    }
  }
  c->n_accept = rows;
  return 1;
}

static int parse_check(loader *L, const cJSON *chk, size_t at, int n_params, tc_check *c) {
  memset(c, 0, sizeof *c);
  c->array_arg = c->count_arg = c->arg = c->tensor_arg = c->device_arg = -1;
  if (!cJSON_IsObject(chk)) {
    fail_at(L, at, "each check must be an object with a \"check\" name");
    return -1;
  }
  const char *name = get_string(L, chk, "check", at, 1, "a check");
  if (!name) return -1;
  if (strcmp(name, "agree") == 0) {
    static const char *const k[] = {"check", "args", NULL};
    c->kind = TC_CHECK_AGREE;
    if (only_keys(L, chk, at, "an \"agree\" check", k)) return -1;
    return get_arg_list(L, chk, "args", at, n_params, c->args, &c->n_args, 2);
  }
  if (strcmp(name, "agree_array") == 0) {
    static const char *const k[] = {"check", "array_arg", "count_arg", NULL};
    c->kind = TC_CHECK_AGREE_ARRAY;
    if (only_keys(L, chk, at, "an \"agree_array\" check", k)) return -1;
    if (get_arg(L, chk, "array_arg", at, n_params, 1, &c->array_arg) < 0) return -1;
    return get_arg(L, chk, "count_arg", at, n_params, 0, &c->count_arg) < 0 ? -1 : 0;
  }
  if (strcmp(name, "autodiff_required") == 0 || strcmp(name, "plain_device") == 0 ||
      strcmp(name, "buffer_set") == 0 || strcmp(name, "host_pointer") == 0 ||
      strcmp(name, "host_tensor") == 0) {
    static const char *const k[] = {"check", "arg", NULL};
    c->kind = name[0] == 'a'                   ? TC_CHECK_AUTODIFF_REQUIRED
              : name[0] == 'p'                 ? TC_CHECK_PLAIN_DEVICE
              : name[0] == 'b'                 ? TC_CHECK_BUFFER_SET
              : strcmp(name, "host_tensor") == 0 ? TC_CHECK_HOST_TENSOR
                                               : TC_CHECK_HOST_POINTER;
    if (only_keys(L, chk, at, "this check", k)) return -1;
    return get_arg(L, chk, "arg", at, n_params, 1, &c->arg) < 0 ? -1 : 0;
  }
  if (strcmp(name, "same_autodiff") == 0 || strcmp(name, "wraps") == 0) {
    static const char *const k[] = {"check", "tensor_arg", "device_arg", NULL};
    c->kind = name[0] == 's' ? TC_CHECK_SAME_AUTODIFF : TC_CHECK_WRAPS;
    if (only_keys(L, chk, at, "this check", k)) return -1;
    if (get_arg(L, chk, "tensor_arg", at, n_params, 1, &c->tensor_arg) < 0) return -1;
    return get_arg(L, chk, "device_arg", at, n_params, 1, &c->device_arg) < 0 ? -1 : 0;
  }
  if (strcmp(name, "allocates") == 0) {
    static const char *const k[] = {"check", "device_arg", NULL};
    c->kind = TC_CHECK_ALLOCATES;
    if (only_keys(L, chk, at, "an \"allocates\" check", k)) return -1;
    return get_arg(L, chk, "device_arg", at, n_params, 1, &c->device_arg) < 0 ? -1 : 0;
  }
  if (strcmp(name, "kinds") == 0) {
    static const char *const k[] = {"check", "args", "accept", "array_arg", "count_arg", "same",
                                    NULL};
    c->kind = TC_CHECK_KINDS;
    if (only_keys(L, chk, at, "a \"kinds\" check", k)) return -1;
    if (cJSON_GetObjectItemCaseSensitive(chk, "array_arg")) {
      if (cJSON_GetObjectItemCaseSensitive(chk, "args")) {
        fail_at(L, at, "a \"kinds\" check takes either \"args\" or \"array_arg\", not both");
        return -1;
      }
      if (get_arg(L, chk, "array_arg", at, n_params, 1, &c->array_arg) < 0) return -1;
      if (get_arg(L, chk, "count_arg", at, n_params, 0, &c->count_arg) < 0) return -1;
      if (get_bool(L, chk, "same", at, &c->same) < 0) return -1;
      int got = parse_accept(L, chk, at, 1, c);
      if (got < 0) return -1;
      if (!c->same && got == 0) {
        fail_at(L, at, "a \"kinds\" check over an array needs \"same\": true or \"accept\"");
        return -1;
      }
      return 0;
    }
    if (get_arg_list(L, chk, "args", at, n_params, c->args, &c->n_args, 1)) return -1;
    if (cJSON_GetObjectItemCaseSensitive(chk, "same")) {
      fail_at(L, find_key(L->text, at, "same"), "\"same\" applies to \"array_arg\" only");
      return -1;
    }
    int got = parse_accept(L, chk, at, c->n_args, c);
    if (got < 0) return -1;
    if (got == 0) {
      fail_at(L, at, "a \"kinds\" check needs \"accept\" (rows of kind names)");
      return -1;
    }
    return 0;
  }
  fail_at(L, find_key(L->text, at, "check"),
          "unknown check \"%s\" (expected agree, agree_array, autodiff_required, plain_device, "
          "same_autodiff, wraps, kinds, allocates, buffer_set, host_pointer or host_tensor)",
          name);
  return -1;
}

static int backend_named(loader *L, const cJSON *obj, const char *key, size_t at, int *out) {
  const char *b = get_string(L, obj, key, at, 1, "");
  if (!b) return -1;
  *out = tc_rules_backend_by_name(L->r, b);
  if (*out < 0) {
    fail_at(L, find_key(L->text, at, key), "unknown backend \"%s\" (declare it in \"backends\")",
            b);
    return -1;
  }
  return 0;
}

static int parse_device_result(loader *L, const cJSON *d, size_t at, int n_params,
                               tc_result_spec *res) {
  static const char *const k[] = {"backend",        "backend_arg",   "ordinal",  "ordinal_arg",
                                  "autodiff",       "from_device_arg", "of_tensor_arg", NULL};
  if (!cJSON_IsObject(d)) {
    fail_at(L, at, "\"device\" must be an object");
    return -1;
  }
  if (only_keys(L, d, at, "a \"device\" result", k)) return -1;
  res->what = TC_RES_DEVICE;
  res->ordinal = -1;
  res->ordinal_arg = -1;
  res->autodiff = -1;
  int n_src = 0;
  if (cJSON_GetObjectItemCaseSensitive(d, "backend")) {
    if (backend_named(L, d, "backend", at, &res->backend)) return -1;
    res->dev_src = TC_DEV_FIXED;
    n_src++;
  }
  if (get_arg(L, d, "backend_arg", at, n_params, 0, &res->arg) == 1) {
    res->dev_src = TC_DEV_BACKEND_ARG;
    n_src++;
  }
  if (get_arg(L, d, "from_device_arg", at, n_params, 0, &res->arg) == 1) {
    res->dev_src = TC_DEV_FROM_DEVICE;
    n_src++;
  }
  if (get_arg(L, d, "of_tensor_arg", at, n_params, 0, &res->arg) == 1) {
    res->dev_src = TC_DEV_OF_TENSOR;
    n_src++;
  }
  if (L->failed) return -1;
  if (n_src != 1) {
    fail_at(L, at, "a \"device\" result needs exactly one of \"backend\", \"backend_arg\", "
            "\"from_device_arg\", \"of_tensor_arg\"");
    return -1;
  }
  if (get_int(L, d, "ordinal", at, 0, 1 << 20, &res->ordinal) < 0) return -1;
  if (get_arg(L, d, "ordinal_arg", at, n_params, 0, &res->ordinal_arg) < 0) return -1;
  int ad = 0;
  int got = get_bool(L, d, "autodiff", at, &ad);
  if (got < 0) return -1;
  if (got) res->autodiff = ad;
  if ((res->dev_src == TC_DEV_FIXED || res->dev_src == TC_DEV_BACKEND_ARG) &&
      res->ordinal < 0 && res->ordinal_arg < 0) {
    fail_at(L, at, "a \"device\" result with a backend needs \"ordinal\" or \"ordinal_arg\"");
    return -1;
  }
  if ((res->dev_src == TC_DEV_FIXED || res->dev_src == TC_DEV_BACKEND_ARG) && res->autodiff < 0)
    res->autodiff = 0;
  return 0;
}

static int parse_tensor_result(loader *L, const cJSON *t, size_t at, int n_params,
                               tc_result_spec *res) {
  static const char *const k[] = {"device_arg",     "like_arg",   "like_array_arg",
                                  "kind",           "kind_arg",   "kind_of_arg",
                                  "strip_autodiff", "backend",    "ordinal",
                                  "ordinal_arg",    "context_arg", "device_like_args",
                                  "backend_arg",    NULL};
  if (!cJSON_IsObject(t)) {
    fail_at(L, at, "\"tensor\" must be an object");
    return -1;
  }
  if (only_keys(L, t, at, "a \"tensor\" result", k)) return -1;
  res->what = TC_RES_TENSOR;
  res->device_arg = res->like_arg = res->like_array_arg = -1;
  res->kind_arg = res->kind_of_arg = -1;
  res->tkind = -1;
  int n_dev = 0, n_kind = 0;
  n_dev += get_arg(L, t, "device_arg", at, n_params, 0, &res->device_arg) == 1;
  int like = get_arg(L, t, "like_arg", at, n_params, 0, &res->like_arg) == 1;
  n_dev += get_arg(L, t, "like_array_arg", at, n_params, 0, &res->like_array_arg) == 1;
  n_kind += get_arg(L, t, "kind_arg", at, n_params, 0, &res->kind_arg) == 1;
  n_kind += get_arg(L, t, "kind_of_arg", at, n_params, 0, &res->kind_of_arg) == 1;
  int in_context = get_arg(L, t, "context_arg", at, n_params, 0, &res->context_arg) == 1;
  if (L->failed) return -1;
  if (cJSON_GetObjectItemCaseSensitive(t, "device_like_args") &&
      get_arg_list(L, t, "device_like_args", at, n_params, res->device_like_args,
                   &res->n_device_like, 1))
    return -1;
  if (cJSON_GetObjectItemCaseSensitive(t, "backend")) {
    if (backend_named(L, t, "backend", at, &res->backend)) return -1;
    if (get_int(L, t, "ordinal", at, 0, 1 << 20, &res->ordinal) < 0 ||
        get_arg(L, t, "ordinal_arg", at, n_params, 0, &res->ordinal_arg) < 0)
      return -1;
    res->fixed_device = 1;
    n_dev++;
  }
  int by_enum = get_arg(L, t, "backend_arg", at, n_params, 0, &res->backend_arg);
  if (by_enum < 0) return -1;
  if (by_enum == 1) { /* a handle on the device type an enum argument names, first device */
    if (get_int(L, t, "ordinal", at, 0, 1 << 20, &res->ordinal) < 0 ||
        get_arg(L, t, "ordinal_arg", at, n_params, 0, &res->ordinal_arg) < 0)
      return -1;
    res->fixed_device = 1;
    n_dev++;
  }
  if (!in_context && res->n_device_like) {
    fail_at(L, at, "\"device_like_args\" needs \"context_arg\" (the tensor's context)");
    return -1;
  }
  /* like_arg gives the device, unless a context does (then it gives the kind only) */
  if (like && !in_context) n_dev++;
  if (in_context) n_dev++;
  if (n_dev != 1) {
    fail_at(L, at, "a \"tensor\" result needs exactly one of \"device_arg\", \"like_arg\", "
            "\"like_array_arg\", \"backend\", \"backend_arg\", \"context_arg\"");
    return -1;
  }
  if (in_context && like) n_kind++;
  if (cJSON_GetObjectItemCaseSensitive(t, "kind")) {
    const char *kn = get_string(L, t, "kind", at, 1, "");
    if (!kn) return -1;
    res->tkind = kind_index_by_name(L->r, kn);
    if (res->tkind < 0) {
      fail_at(L, find_key(L->text, at, "kind"), "unknown kind \"%s\" (declare it in \"kinds\")",
              kn);
      return -1;
    }
    n_kind++;
  }
  if (n_kind > 1) {
    fail_at(L, at, "a \"tensor\" result takes at most one of \"kind\", \"kind_arg\", "
            "\"kind_of_arg\"");
    return -1;
  }
  if (n_kind == 0 && res->device_arg >= 0) {
    fail_at(L, at, "a \"tensor\" result created on \"device_arg\" needs \"kind\", \"kind_arg\" "
            "or \"kind_of_arg\"");
    return -1;
  }

  return get_bool(L, t, "strip_autodiff", at, &res->strip_autodiff) < 0 ? -1 : 0;
}

void tc_rules_result_defaults(tc_result_spec *res) {
  memset(res, 0, sizeof *res);
  res->what = TC_RES_NONE;
  res->arg = res->arg2 = res->ordinal_arg = res->ordinal = res->autodiff = -1;
  res->device_arg = res->like_arg = res->like_array_arg = res->kind_arg = res->kind_of_arg = -1;
  res->tkind = -1;
  res->context_arg = res->placement = res->placement_arg = res->object_context_arg = -1;
  res->placement_nonzero = res->placement_zero = -1;
  res->backend_arg = -1;
}

/* "new_object": true, or an object saying what the object is: a context with a placement
   ({"placement": NAME}, or {"placement_arg": I, "field": F, "if_nonzero": NAME, "if_zero":
   NAME}), or an object made in the context argument I points to ({"context_arg": I}). */
static int parse_new_object(loader *L, const cJSON *c, size_t at, int n_params,
                            tc_result_spec *res) {
  res->what = TC_RES_NEW_OBJECT;
  if (cJSON_IsTrue(c)) return 0;
  static const char *const k[] = {"placement", "placement_arg", "field", "if_nonzero",
                                  "if_zero",   "context_arg",   NULL};
  if (!cJSON_IsObject(c)) {
    fail_at(L, at, "\"new_object\" must be true or an object");
    return -1;
  }
  if (only_keys(L, c, at, "a \"new_object\" result", k)) return -1;
  if (cJSON_GetObjectItemCaseSensitive(c, "placement") &&
      backend_named(L, c, "placement", at, &res->placement))
    return -1;
  int by_field = get_arg(L, c, "placement_arg", at, n_params, 0, &res->placement_arg);
  if (by_field < 0 || get_arg(L, c, "context_arg", at, n_params, 0, &res->object_context_arg) < 0)
    return -1;
  if (by_field) {
    const char *f = get_string(L, c, "field", at, 1, "a placement read from a field");
    if (!f || backend_named(L, c, "if_nonzero", at, &res->placement_nonzero) ||
        backend_named(L, c, "if_zero", at, &res->placement_zero))
      return -1;
    res->placement_field = dupstr(f);
    if (!res->placement_field) return -1;
  }
  if (by_field && res->placement >= 0) {
    fail_at(L, at, "\"new_object\" takes \"placement\" or \"placement_arg\", not both");
    return -1;
  }
  return 0;
}

/* A field name for an element result or a store effect: into out (a TC_RULES_FIELD_MAX
   buffer); absent leaves it empty. */
static int get_field_name(loader *L, const cJSON *obj, size_t at, const char *what, char *out) {
  out[0] = 0;
  if (!cJSON_GetObjectItemCaseSensitive(obj, "field")) return 0;
  const char *f = get_string(L, obj, "field", at, 1, what);
  if (!f) return -1;
  if (strlen(f) >= TC_RULES_FIELD_MAX) {
    fail_at(L, find_key(L->text, at, "field"), "field name \"%s\" is too long", f);
    return -1;
  }
  memcpy(out, f, strlen(f) + 1);
  return 0;
}

/* "element_of_arg": I, or {"arg": I, "field": F}: the address of the elements of the container
   argument I points to, or of their field F (a map's mapped value, "second"). */
static int parse_element_of(loader *L, const cJSON *res_obj, const cJSON *c, size_t at,
                            int n_params, tc_result_spec *res) {
  res->what = TC_RES_ELEMENT_OF;
  if (cJSON_IsNumber(c))
    return get_arg(L, res_obj, c->string, at, n_params, 1, &res->arg) < 0 ? -1 : 0;
  static const char *const k[] = {"arg", "field", "lookup", NULL};
  if (!cJSON_IsObject(c) || only_keys(L, c, at, "an \"element_of_arg\" result", k)) {
    if (!cJSON_IsObject(c)) fail_at(L, at, "\"element_of_arg\" is an argument index or an object");
    return -1;
  }
  if (get_arg(L, c, "arg", at, n_params, 1, &res->arg) < 0) return -1;
  if (get_bool(L, c, "lookup", at, &res->elem_lookup) < 0) return -1;
  return get_field_name(L, c, at, "an \"element_of_arg\" result", res->elem_field);
}

static int parse_result(loader *L, const cJSON *res_obj, size_t at, int n_params,
                        tc_result_spec *res) {
  tc_rules_result_defaults(res);
  if (!cJSON_IsObject(res_obj) || !res_obj->child || res_obj->child->next) {
    fail_at(L, at, "\"result\" must be an object with exactly one of \"device\", \"tensor\", "
            "\"same_as_arg\", \"kind_of_arg\", \"devices_equal\", \"backend_available_arg\", "
            "\"new_object\", \"data_of_tensor_arg\", \"is_host_arg\", \"records_arg\", "
            "\"element_of_arg\", \"value_at_arg\"");
    return -1;
  }
  const cJSON *c = res_obj->child;
  size_t cat = find_key(L->text, at, c->string);
  if (strcmp(c->string, "device") == 0) return parse_device_result(L, c, cat, n_params, res);
  if (strcmp(c->string, "tensor") == 0) return parse_tensor_result(L, c, cat, n_params, res);
  if (strcmp(c->string, "same_as_arg") == 0 || strcmp(c->string, "kind_of_arg") == 0 ||
      strcmp(c->string, "backend_available_arg") == 0 ||
      strcmp(c->string, "data_of_tensor_arg") == 0 || strcmp(c->string, "is_host_arg") == 0 ||
      strcmp(c->string, "records_arg") == 0) {
    res->what = c->string[0] == 's'   ? TC_RES_SAME_AS_ARG
                : c->string[0] == 'r' ? TC_RES_RECORDS
                : c->string[0] == 'k' ? TC_RES_KIND_OF
                : c->string[0] == 'd' ? TC_RES_DATA_OF
                : c->string[0] == 'i' ? TC_RES_IS_HOST
                                      : TC_RES_BACKEND_AVAILABLE;
    return get_arg(L, res_obj, c->string, at, n_params, 1, &res->arg) < 0 ? -1 : 0;
  }
  if (strcmp(c->string, "devices_equal") == 0) {
    int args[TC_RULES_MAX_ARGS], n = 0;
    if (get_arg_list(L, res_obj, "devices_equal", at, n_params, args, &n, 2)) return -1;
    if (n != 2) {
      fail_at(L, cat, "\"devices_equal\" takes two argument indices");
      return -1;
    }
    res->what = TC_RES_DEVICES_EQUAL;
    res->arg = args[0];
    res->arg2 = args[1];
    return 0;
  }
  if (strcmp(c->string, "new_object") == 0) return parse_new_object(L, c, cat, n_params, res);
  if (strcmp(c->string, "element_of_arg") == 0) return parse_element_of(L, res_obj, c, cat, n_params, res);
  if (strcmp(c->string, "value_at_arg") == 0) {
    res->what = TC_RES_VALUE_AT;
    return get_arg(L, res_obj, c->string, at, n_params, 1, &res->arg) < 0 ? -1 : 0;
  }
  fail_at(L, cat, "unknown result \"%s\"", c->string);
  return -1;
}

static void free_checks(tc_check *c, size_t n) {
  for (size_t i = 0; i < n; i++) free(c[i].accept);
  free(c);
}

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
    free_checks(old->checks, old->n_checks);
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
  f->name = dupstr(name);
  if (!f->name) return NULL;
  r->n_fns++;
  if (r->n_fns * 2 + 2 > r->fn_index_cap) {
    if (build_index(r) != 0) return NULL; /* (puts the new function in too) */
  } else {
    r->fn_index[fn_slot(r, name)] = r->n_fns;
  }
  return f;
}

static int parse_effect(loader *L, const cJSON *ef, size_t at, int n_params, tc_effect *out) {
  memset(out, 0, sizeof *out);
  if (!cJSON_IsObject(ef) || !ef->child || ef->child->next || !cJSON_IsObject(ef->child)) {
    fail_at(L, at, "an effect is an object with one of \"copy\", \"fill\", \"writes\", "
            "\"bind_context\", \"record\", \"place\", \"store\"");
    return -1;
  }
  const cJSON *body = ef->child;
  size_t bat = find_key(L->text, at, body->string);
  if (strcmp(body->string, "copy") == 0) {
    static const char *const k[] = {"to_arg", "from_arg", NULL};
    out->kind = TC_EFFECT_COPY;
    if (only_keys(L, body, bat, "a \"copy\" effect", k)) return -1;
    if (get_arg(L, body, "to_arg", bat, n_params, 1, &out->arg) < 0) return -1;
    return get_arg(L, body, "from_arg", bat, n_params, 1, &out->arg2) < 0 ? -1 : 0;
  }
  if (strcmp(body->string, "fill") == 0) {
    static const char *const k[] = {"arg", "value_arg", NULL};
    out->kind = TC_EFFECT_FILL;
    if (only_keys(L, body, bat, "a \"fill\" effect", k)) return -1;
    if (get_arg(L, body, "arg", bat, n_params, 1, &out->arg) < 0) return -1;
    return get_arg(L, body, "value_arg", bat, n_params, 1, &out->arg2) < 0 ? -1 : 0;
  }
  if (strcmp(body->string, "writes") == 0) {
    static const char *const k[] = {"arg", NULL};
    out->kind = TC_EFFECT_WRITES;
    if (only_keys(L, body, bat, "a \"writes\" effect", k)) return -1;
    return get_arg(L, body, "arg", bat, n_params, 1, &out->arg) < 0 ? -1 : 0;
  }
  if (strcmp(body->string, "bind_context") == 0) {
    static const char *const k[] = {"context_arg", "device_of_arg", NULL};
    out->kind = TC_EFFECT_BIND_CONTEXT;
    out->arg2 = -1;
    if (only_keys(L, body, bat, "a \"bind_context\" effect", k)) return -1;
    if (get_arg(L, body, "context_arg", bat, n_params, 1, &out->arg) < 0) return -1;
    return get_arg(L, body, "device_of_arg", bat, n_params, 0, &out->arg2) < 0 ? -1 : 0;
  }
  if (strcmp(body->string, "record") == 0) {
    static const char *const k[] = {"object_arg", "tensor_arg", NULL};
    out->kind = TC_EFFECT_RECORD;
    if (only_keys(L, body, bat, "a \"record\" effect", k)) return -1;
    if (get_arg(L, body, "object_arg", bat, n_params, 1, &out->arg) < 0) return -1;
    return get_arg(L, body, "tensor_arg", bat, n_params, 1, &out->arg2) < 0 ? -1 : 0;
  }
  if (strcmp(body->string, "place") == 0) {
    static const char *const k[] = {"tensor_arg", "device_of_arg", NULL};
    out->kind = TC_EFFECT_PLACE;
    out->arg = -1;
    if (only_keys(L, body, bat, "a \"place\" effect", k)) return -1;
    if (get_arg(L, body, "tensor_arg", bat, n_params, 1, &out->arg2) < 0) return -1;
    return get_arg(L, body, "device_of_arg", bat, n_params, 0, &out->arg) < 0 ? -1 : 0;
  }
  if (strcmp(body->string, "store") == 0) {
    static const char *const k[] = {"arg", "value_arg", "field", NULL};
    out->kind = TC_EFFECT_STORE;
    if (only_keys(L, body, bat, "a \"store\" effect", k)) return -1;
    if (get_arg(L, body, "arg", bat, n_params, 1, &out->arg) < 0) return -1;
    if (get_arg(L, body, "value_arg", bat, n_params, 1, &out->arg2) < 0) return -1;
    return get_field_name(L, body, bat, "a \"store\" effect", out->field);
  }
  fail_at(L, bat,
          "unknown effect \"%s\" (expected copy, fill, writes, bind_context, record, place "
          "or store)",
          body->string);
  return -1;
}

/* fo is the description of one function; at is where its key is in the text. */
static int parse_fn(loader *L, const cJSON *fo, size_t at, int api) {
  static const char *const k[] = {"params", "checks", "result", "effects", "description", NULL};
  if (!cJSON_IsObject(fo)) {
    fail_at(L, at, "function \"%s\" must be described by an object", fo->string);
    return -1;
  }
  if (only_keys(L, fo, at, "a function description", k)) return -1;
  int n_params = -1;
  if (get_int(L, fo, "params", at, 0, 64, &n_params) < 0) return -1;
  tc_check *checks = NULL;
  size_t n_checks = 0;
  const cJSON *cl = cJSON_GetObjectItemCaseSensitive(fo, "checks");
  if (cl) {
    size_t cat = find_key(L->text, at, "checks");
    if (!cJSON_IsArray(cl)) {
      fail_at(L, cat, "\"checks\" must be a list of checks");
      return -1;
    }
    n_checks = (size_t)cJSON_GetArraySize(cl);
    checks = calloc(n_checks ? n_checks : 1, sizeof *checks);
    if (!checks) return -1;
    size_t i = 0, pos = cat;
    for (const cJSON *c = cl->child; c; c = c->next, i++) {
      pos = find_key(L->text, pos + 1, "check");
      if (parse_check(L, c, pos, n_params, &checks[i])) {
        free_checks(checks, i + 1);
        return -1;
      }
    }
  }
  tc_result_spec res;
  tc_rules_result_defaults(&res);
  const cJSON *ro = cJSON_GetObjectItemCaseSensitive(fo, "result");
  if (ro && parse_result(L, ro, find_key(L->text, at, "result"), n_params, &res)) {
    free(res.placement_field);
    free_checks(checks, n_checks);
    return -1;
  }
  tc_effect *effects = NULL;
  size_t n_effects = 0;
  const cJSON *el = cJSON_GetObjectItemCaseSensitive(fo, "effects");
  if (el) {
    size_t eat = find_key(L->text, at, "effects");
    if (!cJSON_IsArray(el)) {
      fail_at(L, eat, "\"effects\" must be a list of effects");
      free(res.placement_field);
      free_checks(checks, n_checks);
      return -1;
    }
    n_effects = (size_t)cJSON_GetArraySize(el);
    effects = calloc(n_effects ? n_effects : 1, sizeof *effects);
    size_t i = 0;
    for (const cJSON *x = el->child; effects && x; x = x->next, i++)
      if (parse_effect(L, x, eat, n_params, &effects[i])) {
        free(effects);
        free(res.placement_field);
        free_checks(checks, n_checks);
        return -1;
      }
    if (!effects) {
      free(res.placement_field);
      free_checks(checks, n_checks);
      return -1;
    }
  }
  tc_api_fn *f = new_fn(L->r, fo->string);
  if (!f) {
    free(effects);
    free(res.placement_field);
    free_checks(checks, n_checks);
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

static int parse_functions(loader *L, const cJSON *obj, const char *section, int api) {
  size_t where = locate(L, section, NULL);
  if (!cJSON_IsObject(obj)) {
    fail_at(L, where, "\"%s\" must be an object mapping function names to descriptions",
            section);
    return -1;
  }
  const cJSON *twice;
  if (find_repeated(obj, &twice) != 0) return -1;
  if (twice) {
    size_t first = locate(L, section, twice->string, NULL);
    fail_at(L, find_key(L->text, first + 1, twice->string), "function \"%s\" described twice",
            twice->string);
    return -1;
  }
  /* The keys come in file order: each is searched from the one before (searching from the
     section's start each time was quadratic in the number of functions). */
  size_t at = where;
  for (const cJSON *f = obj->child; f; f = f->next) {
    at = find_key(L->text, at, f->string);
    if (parse_fn(L, f, at, api)) return -1;
    at++;
  }
  return 0;
}

/* "function_families": [{"context_param": I, "context_type": T, "returns": R}, ...] */
static int parse_families(loader *L, const cJSON *arr) {
  static const char *const k[] = {"context_param", "context_type", "returns", "description",
                                  NULL};
  size_t at = locate(L, "function_families", NULL);
  if (!cJSON_IsArray(arr)) {
    fail_at(L, at, "\"function_families\" must be an array of objects");
    return -1;
  }
  for (const cJSON *f = arr->child; f; f = f->next) {
    at = find_key(L->text, at + 1, "context_type");
    if (!cJSON_IsObject(f) || only_keys(L, f, at, "a function family", k)) {
      if (!L->failed) fail_at(L, at, "each function family must be an object");
      return -1;
    }
    int param = 0;
    if (get_int(L, f, "context_param", at, 0, 63, &param) < 0) return -1;
    const char *ctx = get_string(L, f, "context_type", at, 1, "a function family");
    const char *ret = ctx ? get_string(L, f, "returns", at, 1, "a function family") : NULL;
    if (!ctx || !ret) return -1;
    tc_family *nf = realloc(L->r->families, (L->r->n_families + 1) * sizeof *nf);
    if (!nf) {
      fail_at(L, at, "out of memory");
      return -1;
    }
    L->r->families = nf;
    tc_family *fam = &nf[L->r->n_families];
    fam->context_param = param;
    fam->context_type = dupstr(ctx);
    fam->returns = dupstr(ret);
    if (!fam->context_type || !fam->returns) {
      free(fam->context_type);
      free(fam->returns);
      fail_at(L, at, "out of memory");
      return -1;
    }
    L->r->n_families++;
  }
  return 0;
}

typedef struct twin_spec {
  char *suffix;
  int leading;
} twin_spec;

static int parse_file(loader *L, const cJSON *root, twin_spec *twins) {
  static const char *const k[] = {"tagcheck_rules", "api",       "description",  "device_types",
                                  "tensor_types",   "backends",  "kinds",        "rule_ids",
                                  "messages",       "callsite_twins", "functions",
                                  "library_functions", "rules",  "tensor_fields", "fixes",
                                  "function_families", NULL};
  if (!cJSON_IsObject(root)) {
    fail_at(L, 0, "a rules file must be a JSON object");
    return -1;
  }
  if (only_keys(L, root, 0, "the rules file", k)) return -1;
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "tagcheck_rules");
  if (!ver) {
    fail_at(L, 0, "missing \"tagcheck_rules\": 1 (the format version)");
    return -1;
  }
  if (!cJSON_IsNumber(ver) || ver->valuedouble != 1.0) {
    fail_at(L, locate(L, "tagcheck_rules", NULL), "unsupported \"tagcheck_rules\" version "
            "(this tagcheck reads version 1)");
    return -1;
  }
  const cJSON *x;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "backends")) && parse_backends(L, x)) return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "kinds")) && parse_kinds(L, x)) return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "device_types")) && parse_device_types(L, x))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "tensor_types")) && parse_tensor_types(L, x))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "tensor_fields"))) {
    static const char *const fk[] = {"data", "buffer", "view_src", NULL};
    char *slots[3] = {L->r->data_field, L->r->buffer_field, L->r->view_src_field};
    int bad = parse_string_map(L, x, "tensor_fields", fk, 3, slots);
    L->r->data_field = slots[0];
    L->r->buffer_field = slots[1];
    L->r->view_src_field = slots[2];
    if (bad) return -1;
  }
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "rules")) && parse_rule_metas(L, x)) return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "fixes")) && parse_fixes(L, x)) return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "rule_ids")) &&
      parse_string_map(L, x, "rule_ids", rule_slot_keys, TC_RULE_COUNT, L->r->rule_ids))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "messages")) &&
      parse_string_map(L, x, "messages", msg_slot_keys, TC_MSG_COUNT, L->r->messages))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "callsite_twins"))) {
    static const char *const tk[] = {"suffix", "leading_args", NULL};
    size_t at = locate(L, "callsite_twins", NULL);
    if (!cJSON_IsObject(x) || only_keys(L, x, at, "\"callsite_twins\"", tk)) {
      fail_at(L, at, "\"callsite_twins\" must be {\"suffix\": S, \"leading_args\": N}");
      return -1;
    }
    const char *suffix = get_string(L, x, "suffix", at, 1, "\"callsite_twins\"");
    int lead = 0;
    if (!suffix || get_int(L, x, "leading_args", at, 0, 16, &lead) < 0) return -1;
    free(twins->suffix);
    twins->suffix = dupstr(suffix);
    twins->leading = lead;
  }
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "functions")) &&
      parse_functions(L, x, "functions", 1))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "library_functions")) &&
      parse_functions(L, x, "library_functions", 0))
    return -1;
  if ((x = cJSON_GetObjectItemCaseSensitive(root, "function_families")) && parse_families(L, x))
    return -1;
  return 0;
}

/* ---------------------------------------------------------------- finishing and lookup */

const tc_api_fn *tc_rules_find(const tc_rules *r, const char *name) {
  if (!r || !r->fn_index || !name || !name[0]) return NULL;
  size_t slot = r->fn_index[fn_slot(r, name)];
  return slot ? &r->fns[slot - 1] : NULL;
}

/* Adds "NAME<suffix>" twins of every API function, their arguments shifted by `leading`. */
static int add_twins(tc_rules *r, const twin_spec *tw) {
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

static char *read_file(const char *path, char *err, size_t err_len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, err_len, "%s: cannot open rules file: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 8192, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (n + 1 < cap) break;
    cap *= 2;
    char *nb = realloc(buf, cap);
    if (!nb) {
      free(buf);
      buf = NULL;
    } else {
      buf = nb;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    free(buf);
    snprintf(err, err_len, "%s: cannot read rules file", path);
    return NULL;
  }
  buf[n] = '\0';
  if (strlen(buf) != n) {
    free(buf);
    snprintf(err, err_len, "%s: not a text file (NUL byte)", path);
    return NULL;
  }
  return buf;
}

static int load_text(loader *L, const char *text, const char *file, twin_spec *tw) {
  L->text = text;
  L->file = file;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
  if (!root) {
    size_t off = end ? (size_t)(end - text) : 0;
    if (off > strlen(text)) off = strlen(text);
    fail_at(L, off, "invalid JSON%s", text[off] ? "" : " (unexpected end of file)");
    return -1;
  }
  int rc = parse_file(L, root, tw);
  cJSON_Delete(root);
  return rc;
}

/* Checks what the files together must provide and fills defaults. */
static int finish(loader *L, twin_spec *tw) {
  tc_rules *r = L->r;
  const char *last = r->n_files ? r->files[r->n_files - 1] : "rules";
  char *e = L->err;
  size_t el = L->err_len;
  if (!r->n_backends || !r->n_kinds || !r->n_device_types || !r->n_tensor_types) {
    snprintf(e, el, "%s: the rules declare no %s", last,
             !r->n_backends       ? "backends"
             : !r->n_kinds        ? "kinds"
             : !r->n_device_types ? "device_types"
                                  : "tensor_types");
    return -1;
  }
  int needed[TC_RULE_COUNT] = {0};
  for (int i = 0; i < TC_RULE_REQUIRED_COUNT; i++) needed[i] = 1;
  /* a host_pointer check fails only on a data pointer: rules that make none (the C++ library
     rules loaded with an API that has no data pointers) need no host_access rule for it */
  int data_pointers = r->data_field != NULL;
  for (size_t f = 0; f < r->n_fns; f++) {
    if (r->fns[f].result.what == TC_RES_DATA_OF) data_pointers = 1;
    for (size_t c = 0; c < r->fns[f].n_checks; c++) {
      if (r->fns[f].checks[c].kind == TC_CHECK_BUFFER_SET) needed[TC_RULE_BUFFER_NOT_SET] = 1;
      if (r->fns[f].checks[c].kind == TC_CHECK_HOST_TENSOR) needed[TC_RULE_HOST_ACCESS] = 1;
    }
  }
  if (data_pointers) needed[TC_RULE_HOST_ACCESS] = 1;
  for (int i = 0; i < TC_RULE_COUNT; i++) {
    if (!r->rule_ids[i] && !needed[i]) continue;
    if (!r->rule_ids[i]) {
      snprintf(e, el, "%s: \"rule_ids\" lacks \"%s\"", last, rule_slot_keys[i]);
      return -1;
    }
    int declared = is_builtin_rule(r->rule_ids[i]);
    for (size_t m = 0; m < r->n_metas; m++)
      if (strcmp(r->metas[m].id, r->rule_ids[i]) == 0) declared = 1;
    if (!declared) {
      snprintf(e, el, "%s: rule id \"%s\" is neither a built-in rule nor described in \"rules\"",
               last, r->rule_ids[i]);
      return -1;
    }
  }
  for (int i = 0; i < TC_MSG_COUNT; i++)
    if (!r->messages[i] && !(r->messages[i] = dupstr(msg_defaults[i]))) return -1;
  if (add_twins(r, tw)) return -1;
  free(r->backend_names);
  free(r->single_device);
  free(r->kind_names);
  r->backend_names = calloc(r->n_backends, sizeof *r->backend_names);
  r->single_device = calloc(r->n_backends, 1);
  r->kind_names = calloc(r->n_kinds, sizeof *r->kind_names);
  if (!r->backend_names || !r->single_device || !r->kind_names) return -1;
  for (size_t i = 0; i < r->n_backends; i++) {
    r->backend_names[i] = r->backends[i].name;
    r->single_device[i] = (unsigned char)r->backends[i].single_device;
  }
  for (size_t i = 0; i < r->n_kinds; i++) r->kind_names[i] = r->kinds[i].name;
  return 0;
}

static tc_rules *rules_new(void) { return calloc(1, sizeof(tc_rules)); }

static int add_file_name(tc_rules *r, const char *file) {
  char **nf = realloc(r->files, (r->n_files + 1) * sizeof *nf);
  if (!nf) return -1;
  r->files = nf;
  nf[r->n_files] = dupstr(file);
  return nf[r->n_files++] ? 0 : -1;
}

tc_rules *tc_rules_load(const char *const *paths, size_t n_paths, char *err, size_t err_len) {
  if (err && err_len) err[0] = '\0';
  if (!n_paths) {
    snprintf(err, err_len, "no rules file given");
    return NULL;
  }
  tc_rules *r = rules_new();
  loader L = {r, "", "", err, err_len, 0};
  twin_spec tw = {NULL, 0};
  int rc = r ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < n_paths; i++) {
    char *text = read_file(paths[i], err, err_len);
    if (!text) {
      rc = -1;
      break;
    }
    rc = add_file_name(r, paths[i]) ? -1 : load_text(&L, text, paths[i], &tw);
    r->content_hash = tc_fnv64(tc_fnv64(r->content_hash, paths[i], strlen(paths[i]) + 1), text,
                               strlen(text) + 1);
    free(text);
  }
  if (rc == 0) rc = finish(&L, &tw);
  free(tw.suffix);
  if (rc) {
    if (err && err_len && !err[0]) snprintf(err, err_len, "out of memory loading rules");
    tc_rules_free(r);
    return NULL;
  }
  return r;
}

tc_rules *tc_rules_load_string(const char *text, const char *file, char *err, size_t err_len) {
  if (err && err_len) err[0] = '\0';
  tc_rules *r = rules_new();
  loader L = {r, "", "", err, err_len, 0};
  twin_spec tw = {NULL, 0};
  int rc = (r && !add_file_name(r, file)) ? load_text(&L, text, file, &tw) : -1;
  if (r) r->content_hash = tc_fnv64(tc_fnv64(TC_FNV_INIT, file, strlen(file) + 1), text,
                                    strlen(text) + 1);
  if (rc == 0) rc = finish(&L, &tw);
  free(tw.suffix);
  if (rc) {
    if (err && err_len && !err[0]) snprintf(err, err_len, "out of memory loading rules");
    tc_rules_free(r);
    return NULL;
  }
  return r;
}

uint64_t tc_rules_content_hash(const tc_rules *r) { return r->content_hash; }

void tc_rules_free(tc_rules *r) {
  if (!r) return;
  for (size_t i = 0; i < r->n_families; i++) {
    free(r->families[i].context_type);
    free(r->families[i].returns);
  }
  free(r->families);
  for (size_t i = 0; i < r->n_backends; i++) {
    free(r->backends[i].name);
    free(r->backends[i].enum_name);
  }
  free(r->backends);
  free(r->backend_names);
  free(r->single_device);
  for (size_t i = 0; i < r->n_kinds; i++) {
    free(r->kinds[i].name);
    free(r->kinds[i].enum_name);
  }
  free(r->kinds);
  free(r->kind_names);
  for (size_t i = 0; i < r->n_device_types; i++) {
    free(r->device_types[i].name);
    free(r->device_types[i].backend_field);
    free(r->device_types[i].ordinal_field);
    free(r->device_types[i].autodiff_field);
  }
  free(r->device_types);
  for (size_t i = 0; i < r->n_tensor_types; i++) free(r->tensor_types[i]);
  free(r->tensor_types);
  free(r->data_field);
  free(r->buffer_field);
  free(r->view_src_field);
  for (int i = 0; i < TC_RULE_COUNT; i++) free(r->rule_ids[i]);
  for (int i = 0; i < TC_MSG_COUNT; i++) free(r->messages[i]);
  for (size_t i = 0; i < r->n_fns; i++) {
    free(r->fns[i].name);
    free(r->fns[i].effects);
    free(r->fns[i].result.placement_field);
    free_checks(r->fns[i].checks, r->fns[i].n_checks);
  }
  free(r->fns);
  free(r->fn_index);
  for (size_t i = 0; i < r->n_metas; i++) {
    free(r->metas[i].id);
    free(r->metas[i].name);
    free(r->metas[i].short_description);
    free(r->metas[i].full_description);
    free(r->metas[i].help);
    free(r->metas[i].example);
    free(r->metas[i].example_fix);
  }
  free(r->metas);
  for (size_t i = 0; i < r->n_fixes; i++) free(r->fixes[i].with);
  free(r->fixes);
  for (size_t i = 0; i < r->n_files; i++) free(r->files[i]);
  free(r->files);
  free(r);
}

void tc_rules_describe(const tc_rules *rules, tc_report *r) {
  if (!rules || !r) return;
  int builtin = 0;
  for (int i = 0; i < TC_RULE_COUNT; i++)
    builtin |= rules->rule_ids[i] && is_builtin_rule(rules->rule_ids[i]);
  if (builtin) tc_report_add_builtin_rules(r);
  for (size_t i = 0; i < rules->n_metas; i++) tc_report_add_rule(r, &rules->metas[i]);
}

int tc_rules_backend_by_value(const tc_rules *r, int64_t value) {
  for (size_t i = 0; i < r->n_backends; i++)
    if (r->backends[i].value == value) return (int)i;
  return -1;
}

int tc_rules_kind_by_value(const tc_rules *r, int64_t value) {
  for (size_t i = 0; i < r->n_kinds; i++)
    if (r->kinds[i].value == value) return (int)i;
  return -1;
}

tc_tag_names tc_rules_tag_names(const tc_rules *r) {
  tc_tag_names n = {r->backend_names, r->single_device, r->n_backends, r->kind_names,
                    r->n_kinds};
  return n;
}
