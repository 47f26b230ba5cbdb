/* analyzer/src/rules/vocabulary.c — the words of an API a rules file declares: "backends"
 * (with what their memory is), "kinds", "device_types" and "tensor_types", and lookups of
 * backends and kinds by name and by enum value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/loader.h"

/* What a backend's memory is (docs/rules.md "Buffers and host memory"). */
typedef struct mem_attrs {
  int host_memory, no_buffer, no_memory, always_available, device_readable;
} mem_attrs;

static int add_backend(loader *L, const char *name, const char *en, int64_t value, int single,
                       const mem_attrs *ma, size_t where) {
  tc_rules *r = L->r;
  for (size_t i = 0; i < r->n_backends; i++) {
    if (strcmp(r->backends[i].name, name) == 0) {
      if (r->backends[i].value != value) {
        tc_json_fail(&L->j, where, "backend \"%s\" redefined with another value", name);
        return -1;
      }
      return 0;
    }
    if (r->backends[i].value == value) {
      tc_json_fail(&L->j, where, "backends \"%s\" and \"%s\" have the same value %lld",
                   r->backends[i].name, name, (long long)value);
      return -1;
    }
  }
  if (r->n_backends >= 30) {
    tc_json_fail(&L->j, where, "too many backends (at most 30)");
    return -1;
  }
  tc_backend_def *nb = realloc(r->backends, (r->n_backends + 1) * sizeof *nb);
  if (!nb) return -1;
  r->backends = nb;
  nb[r->n_backends].name = rules_strdup(name);
  nb[r->n_backends].enum_name = en ? rules_strdup(en) : NULL;
  nb[r->n_backends].value = value;
  nb[r->n_backends].single_device = single;
  nb[r->n_backends].host_memory = ma->host_memory;
  nb[r->n_backends].no_buffer = ma->no_buffer;
  nb[r->n_backends].no_memory = ma->no_memory;
  nb[r->n_backends].always_available = ma->always_available;
  nb[r->n_backends].device_readable = ma->device_readable;
  r->n_backends++;
  return 0;
}

int rules_parse_backends(loader *L, const cJSON *arr) {
  size_t where = tc_json_locate(&L->j, "backends", NULL);
  if (!cJSON_IsArray(arr)) {
    tc_json_fail(&L->j, where, "\"backends\" must be an array of objects");
    return -1;
  }
  static const char *const keys[] = {"name",        "enum",       "value",     "single_device",
                                     "host_memory", "has_buffer", "allocated", "always_available",
                                     "device_readable", "description", NULL};
  size_t at = where;
  for (const cJSON *b = arr->child; b; b = b->next) {
    at = tc_json_find_key(L->j.text, at + 1, "name");
    if (!cJSON_IsObject(b)) {
      tc_json_fail(&L->j, at, "each backend must be an object");
      return -1;
    }
    if (tc_json_only_keys(&L->j, b, at, "a backend", keys)) return -1;
    const char *name = tc_json_string(&L->j, b, "name", at, 1, "a backend");
    if (!name) return -1;
    const char *en = cJSON_GetObjectItemCaseSensitive(b, "enum")
                         ? tc_json_string(&L->j, b, "enum", at, 0, "a backend")
                         : NULL;
    if (L->j.failed) return -1;
    int value = 0, single = 0, has_buffer = 1, allocated = 1;
    mem_attrs ma = {0, 0, 0, 0, 0};
    if (tc_json_bool(&L->j, b, "single_device", at, &single) < 0 ||
        tc_json_bool(&L->j, b, "host_memory", at, &ma.host_memory) < 0 ||
        tc_json_bool(&L->j, b, "has_buffer", at, &has_buffer) < 0 ||
        tc_json_bool(&L->j, b, "allocated", at, &allocated) < 0 ||
        tc_json_bool(&L->j, b, "always_available", at, &ma.always_available) < 0 ||
        tc_json_bool(&L->j, b, "device_readable", at, &ma.device_readable) < 0)
      return -1;
    ma.no_buffer = !has_buffer || !allocated;
    ma.no_memory = !allocated;
    if (ma.no_memory && ma.host_memory) {
      tc_json_fail(&L->j, at, "backend \"%s\": \"allocated\": false has no memory, host or not",
                   name);
      return -1;
    }
    if (ma.device_readable && !ma.host_memory) {
      tc_json_fail(&L->j, at, "backend \"%s\": \"device_readable\" is for host memory", name);
      return -1;
    }
    int got = tc_json_int(&L->j, b, "value", at, -1000000, 1000000, &value);
    if (got < 0) return -1;
    if (got == 0 && !ma.no_buffer) {
      tc_json_fail(&L->j, at, "backend \"%s\" needs an integer \"value\" (its enum value)", name);
      return -1;
    }
    /* a placement that is no backend of the API (no buffer) may have no enum value: one no
       enum constant can spell */
    if (got == 0) value = -1000001 - (int)L->r->n_backends;
    if (add_backend(L, name, en, value, single, &ma, at)) return -1;
  }
  return 0;
}

int rules_parse_kinds(loader *L, const cJSON *arr) {
  size_t where = tc_json_locate(&L->j, "kinds", NULL);
  if (!cJSON_IsArray(arr)) {
    tc_json_fail(&L->j, where, "\"kinds\" must be an array of objects");
    return -1;
  }
  static const char *const keys[] = {"name", "enum", "value", "description", NULL};
  size_t at = where;
  tc_rules *r = L->r;
  for (const cJSON *k = arr->child; k; k = k->next) {
    at = tc_json_find_key(L->j.text, at + 1, "name");
    if (!cJSON_IsObject(k)) {
      tc_json_fail(&L->j, at, "each kind must be an object");
      return -1;
    }
    if (tc_json_only_keys(&L->j, k, at, "a kind", keys)) return -1;
    const char *name = tc_json_string(&L->j, k, "name", at, 1, "a kind");
    if (!name) return -1;
    const char *en = cJSON_GetObjectItemCaseSensitive(k, "enum")
                         ? tc_json_string(&L->j, k, "enum", at, 0, "a kind")
                         : NULL;
    if (L->j.failed) return -1;
    int value = 0;
    int got = tc_json_int(&L->j, k, "value", at, -1000000, 1000000, &value);
    if (got < 0) return -1;
    if (got == 0) {
      tc_json_fail(&L->j, at, "kind \"%s\" needs an integer \"value\" (its enum value)", name);
      return -1;
    }
    int dup = 0;
    for (size_t i = 0; i < r->n_kinds; i++) {
      if (strcmp(r->kinds[i].name, name) == 0) {
        if (r->kinds[i].value != value) {
          tc_json_fail(&L->j, at, "kind \"%s\" redefined with another value", name);
          return -1;
        }
        dup = 1;
      } else if (r->kinds[i].value == value) {
        tc_json_fail(&L->j, at, "kinds \"%s\" and \"%s\" have the same value %d", r->kinds[i].name,
                     name, value);
        return -1;
      }
    }
    if (dup) continue;
    if (r->n_kinds >= 30) {
      tc_json_fail(&L->j, at, "too many kinds (at most 30)");
      return -1;
    }
    tc_kind_def *nk = realloc(r->kinds, (r->n_kinds + 1) * sizeof *nk);
    if (!nk) return -1;
    r->kinds = nk;
    nk[r->n_kinds].name = rules_strdup(name);
    nk[r->n_kinds].enum_name = en ? rules_strdup(en) : NULL;
    nk[r->n_kinds].value = value;
    r->n_kinds++;
  }
  return 0;
}

int rules_parse_device_types(loader *L, const cJSON *arr) {
  size_t where = tc_json_locate(&L->j, "device_types", NULL);
  if (!cJSON_IsArray(arr)) {
    tc_json_fail(&L->j, where, "\"device_types\" must be an array of objects");
    return -1;
  }
  static const char *const keys[] = {"name",           "backend_field", "ordinal_field",
                                     "autodiff_field", "description",   NULL};
  size_t at = where;
  tc_rules *r = L->r;
  for (const cJSON *d = arr->child; d; d = d->next) {
    at = tc_json_find_key(L->j.text, at + 1, "name");
    if (!cJSON_IsObject(d)) {
      tc_json_fail(&L->j, at, "each device type must be an object");
      return -1;
    }
    if (tc_json_only_keys(&L->j, d, at, "a device type", keys)) return -1;
    const char *name = tc_json_string(&L->j, d, "name", at, 1, "a device type");
    const char *bf =
        name ? tc_json_string(&L->j, d, "backend_field", at, 1, "a device type") : NULL;
    const char *of = bf ? tc_json_string(&L->j, d, "ordinal_field", at, 1, "a device type") : NULL;
    const char *af = of ? tc_json_string(&L->j, d, "autodiff_field", at, 1, "a device type") : NULL;
    if (!af) return -1;
    tc_device_type *nd = realloc(r->device_types, (r->n_device_types + 1) * sizeof *nd);
    if (!nd) return -1;
    r->device_types = nd;
    nd[r->n_device_types].name = rules_strdup(name);
    nd[r->n_device_types].backend_field = rules_strdup(bf);
    nd[r->n_device_types].ordinal_field = rules_strdup(of);
    nd[r->n_device_types].autodiff_field = rules_strdup(af);
    r->n_device_types++;
  }
  return 0;
}

int rules_parse_names(loader *L, const cJSON *arr, const char *key, const char *what,
                      char ***names, size_t *n) {
  size_t where = tc_json_locate(&L->j, key, NULL);
  if (!cJSON_IsArray(arr)) {
    tc_json_fail(&L->j, where, "\"%s\" must be an array of %s", key, what);
    return -1;
  }
  for (const cJSON *t = arr->child; t; t = t->next) {
    if (!cJSON_IsString(t) || !t->valuestring[0]) {
      tc_json_fail(&L->j, where, "\"%s\" must hold non-empty strings", key);
      return -1;
    }
    char **nt = realloc(*names, (*n + 1) * sizeof *nt);
    if (!nt) return -1;
    *names = nt;
    nt[(*n)++] = rules_strdup(t->valuestring);
  }
  return 0;
}

int rules_kind_index_by_name(const tc_rules *r, const char *name) {
  for (size_t i = 0; i < r->n_kinds; i++)
    if (strcmp(r->kinds[i].name, name) == 0) return (int)i;
  return -1;
}

int tc_rules_backend_by_name(const tc_rules *r, const char *name) {
  for (size_t i = 0; i < r->n_backends; i++)
    if (strcmp(r->backends[i].name, name) == 0) return (int)i;
  return -1;
}

int rules_backend_named(loader *L, const cJSON *obj, const char *key, size_t at, int *out) {
  const char *b = tc_json_string(&L->j, obj, key, at, 1, "");
  if (!b) return -1;
  *out = tc_rules_backend_by_name(L->r, b);
  if (*out < 0) {
    tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, key),
                 "unknown backend \"%s\" (declare it in \"backends\")", b);
    return -1;
  }
  return 0;
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
  tc_tag_names n = {r->backend_names, r->single_device, r->n_backends, r->kind_names, r->n_kinds};
  return n;
}
