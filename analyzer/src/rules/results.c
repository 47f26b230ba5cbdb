/* analyzer/src/rules/results.c — a function's "result" (docs/rules.md "Results"): one key of
 * rules.def's TC_RESULT rows, read in the row's shape. What the engine makes of it is
 * engine/api_results.c (result_<key>). */
#include <stdlib.h>
#include <string.h>

#include "rules/loader.h"

static int parse_device_result(loader *L, const cJSON *d, size_t at, int n_params,
                               tc_result_spec *res) {
  static const char *const k[] = {"backend",  "backend_arg",     "ordinal",       "ordinal_arg",
                                  "autodiff", "from_device_arg", "of_tensor_arg", NULL};
  if (!cJSON_IsObject(d)) {
    tc_json_fail(&L->j, at, "\"device\" must be an object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, d, at, "a \"device\" result", k)) return -1;
  res->what = TC_RES_DEVICE;
  res->ordinal = -1;
  res->ordinal_arg = -1;
  res->autodiff = -1;
  int n_src = 0;
  if (cJSON_GetObjectItemCaseSensitive(d, "backend")) {
    if (rules_backend_named(L, d, "backend", at, &res->backend)) return -1;
    res->dev_src = TC_DEV_FIXED;
    n_src++;
  }
  if (rules_get_arg(L, d, "backend_arg", at, n_params, 0, &res->arg) == 1) {
    res->dev_src = TC_DEV_BACKEND_ARG;
    n_src++;
  }
  if (rules_get_arg(L, d, "from_device_arg", at, n_params, 0, &res->arg) == 1) {
    res->dev_src = TC_DEV_FROM_DEVICE;
    n_src++;
  }
  if (rules_get_arg(L, d, "of_tensor_arg", at, n_params, 0, &res->arg) == 1) {
    res->dev_src = TC_DEV_OF_TENSOR;
    n_src++;
  }
  if (L->j.failed) return -1;
  if (n_src != 1) {
    tc_json_fail(&L->j, at,
                 "a \"device\" result needs exactly one of \"backend\", \"backend_arg\", "
                 "\"from_device_arg\", \"of_tensor_arg\"");
    return -1;
  }
  if (tc_json_int(&L->j, d, "ordinal", at, 0, 1 << 20, &res->ordinal) < 0) return -1;
  if (rules_get_arg(L, d, "ordinal_arg", at, n_params, 0, &res->ordinal_arg) < 0) return -1;
  int ad = 0;
  int got = tc_json_bool(&L->j, d, "autodiff", at, &ad);
  if (got < 0) return -1;
  if (got) res->autodiff = ad;
  if ((res->dev_src == TC_DEV_FIXED || res->dev_src == TC_DEV_BACKEND_ARG) && res->ordinal < 0 &&
      res->ordinal_arg < 0) {
    tc_json_fail(&L->j, at,
                 "a \"device\" result with a backend needs \"ordinal\" or \"ordinal_arg\"");
    return -1;
  }
  if ((res->dev_src == TC_DEV_FIXED || res->dev_src == TC_DEV_BACKEND_ARG) && res->autodiff < 0)
    res->autodiff = 0;
  return 0;
}

static int parse_tensor_result(loader *L, const cJSON *t, size_t at, int n_params,
                               tc_result_spec *res) {
  static const char *const k[] = {
      "device_arg",  "like_arg",         "like_array_arg", "kind",    "kind_arg",
      "kind_of_arg", "strip_autodiff",   "backend",        "ordinal", "ordinal_arg",
      "context_arg", "device_like_args", "backend_arg",    NULL};
  if (!cJSON_IsObject(t)) {
    tc_json_fail(&L->j, at, "\"tensor\" must be an object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, t, at, "a \"tensor\" result", k)) return -1;
  res->what = TC_RES_TENSOR;
  res->device_arg = res->like_arg = res->like_array_arg = -1;
  res->kind_arg = res->kind_of_arg = -1;
  res->tkind = -1;
  int n_dev = 0, n_kind = 0;
  n_dev += rules_get_arg(L, t, "device_arg", at, n_params, 0, &res->device_arg) == 1;
  int like = rules_get_arg(L, t, "like_arg", at, n_params, 0, &res->like_arg) == 1;
  n_dev += rules_get_arg(L, t, "like_array_arg", at, n_params, 0, &res->like_array_arg) == 1;
  n_kind += rules_get_arg(L, t, "kind_arg", at, n_params, 0, &res->kind_arg) == 1;
  n_kind += rules_get_arg(L, t, "kind_of_arg", at, n_params, 0, &res->kind_of_arg) == 1;
  int in_context = rules_get_arg(L, t, "context_arg", at, n_params, 0, &res->context_arg) == 1;
  if (L->j.failed) return -1;
  if (cJSON_GetObjectItemCaseSensitive(t, "device_like_args") &&
      rules_get_arg_list(L, t, "device_like_args", at, n_params, res->device_like_args,
                         &res->n_device_like, 1))
    return -1;
  if (cJSON_GetObjectItemCaseSensitive(t, "backend")) {
    if (rules_backend_named(L, t, "backend", at, &res->backend)) return -1;
    if (tc_json_int(&L->j, t, "ordinal", at, 0, 1 << 20, &res->ordinal) < 0 ||
        rules_get_arg(L, t, "ordinal_arg", at, n_params, 0, &res->ordinal_arg) < 0)
      return -1;
    res->fixed_device = 1;
    n_dev++;
  }
  int by_enum = rules_get_arg(L, t, "backend_arg", at, n_params, 0, &res->backend_arg);
  if (by_enum < 0) return -1;
  if (by_enum == 1) { /* a handle on the device type an enum argument names, first device */
    if (tc_json_int(&L->j, t, "ordinal", at, 0, 1 << 20, &res->ordinal) < 0 ||
        rules_get_arg(L, t, "ordinal_arg", at, n_params, 0, &res->ordinal_arg) < 0)
      return -1;
    res->fixed_device = 1;
    n_dev++;
  }
  if (!in_context && res->n_device_like) {
    tc_json_fail(&L->j, at, "\"device_like_args\" needs \"context_arg\" (the tensor's context)");
    return -1;
  }
  /* like_arg gives the device, unless a context does (then it gives the kind only) */
  if (like && !in_context) n_dev++;
  if (in_context) n_dev++;
  if (n_dev != 1) {
    tc_json_fail(&L->j, at,
                 "a \"tensor\" result needs exactly one of \"device_arg\", \"like_arg\", "
                 "\"like_array_arg\", \"backend\", \"backend_arg\", \"context_arg\"");
    return -1;
  }
  if (in_context && like) n_kind++;
  if (cJSON_GetObjectItemCaseSensitive(t, "kind")) {
    const char *kn = tc_json_string(&L->j, t, "kind", at, 1, "");
    if (!kn) return -1;
    res->tkind = rules_kind_index_by_name(L->r, kn);
    if (res->tkind < 0) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "kind"),
                   "unknown kind \"%s\" (declare it in \"kinds\")", kn);
      return -1;
    }
    n_kind++;
  }
  if (n_kind > 1) {
    tc_json_fail(&L->j, at,
                 "a \"tensor\" result takes at most one of \"kind\", \"kind_arg\", "
                 "\"kind_of_arg\"");
    return -1;
  }
  if (n_kind == 0 && res->device_arg >= 0) {
    tc_json_fail(&L->j, at,
                 "a \"tensor\" result created on \"device_arg\" needs \"kind\", \"kind_arg\" "
                 "or \"kind_of_arg\"");
    return -1;
  }

  return tc_json_bool(&L->j, t, "strip_autodiff", at, &res->strip_autodiff) < 0 ? -1 : 0;
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
  res->elem_key_arg = -1;
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
    tc_json_fail(&L->j, at, "\"new_object\" must be true or an object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, c, at, "a \"new_object\" result", k)) return -1;
  if (cJSON_GetObjectItemCaseSensitive(c, "placement") &&
      rules_backend_named(L, c, "placement", at, &res->placement))
    return -1;
  int by_field = rules_get_arg(L, c, "placement_arg", at, n_params, 0, &res->placement_arg);
  if (by_field < 0 ||
      rules_get_arg(L, c, "context_arg", at, n_params, 0, &res->object_context_arg) < 0)
    return -1;
  if (by_field) {
    const char *f = tc_json_string(&L->j, c, "field", at, 1, "a placement read from a field");
    if (!f || rules_backend_named(L, c, "if_nonzero", at, &res->placement_nonzero) ||
        rules_backend_named(L, c, "if_zero", at, &res->placement_zero))
      return -1;
    res->placement_field = rules_strdup(f);
    if (!res->placement_field) return -1;
  }
  if (by_field && res->placement >= 0) {
    tc_json_fail(&L->j, at, "\"new_object\" takes \"placement\" or \"placement_arg\", not both");
    return -1;
  }
  return 0;
}

/* "one_of": [{"backend": NAME, "ordinal": N}, ..., {}]: a handle on one of these devices
   (ggml_backend_init_best: the first GPU, else an integrated GPU, else the CPU); an entry
   without "backend" is a device the rules cannot name, without "ordinal" an unknown one. */
static int parse_one_of(loader *L, const cJSON *list, size_t at, tc_result_spec *res) {
  static const char *const k[] = {"backend", "ordinal", NULL};
  int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
  if (n < 2 || n > TC_RULES_MAX_ARGS) {
    tc_json_fail(&L->j, at, "\"one_of\" must be an array of 2 to %d devices", TC_RULES_MAX_ARGS);
    return -1;
  }
  const cJSON *d;
  cJSON_ArrayForEach(d, list) {
    int i = res->n_one_of++;
    res->one_of_backend[i] = res->one_of_ordinal[i] = TC_TAGF_UNKNOWN;
    if (!cJSON_IsObject(d)) {
      tc_json_fail(&L->j, at, "each \"one_of\" entry must be an object");
      return -1;
    }
    if (tc_json_only_keys(&L->j, d, at, "a \"one_of\" device", k)) return -1;
    int b = -1, ord = -1;
    if (cJSON_GetObjectItemCaseSensitive(d, "backend") &&
        rules_backend_named(L, d, "backend", at, &b))
      return -1;
    if (tc_json_int(&L->j, d, "ordinal", at, 0, 1 << 20, &ord) < 0) return -1;
    if (b >= 0) res->one_of_backend[i] = b;
    if (ord >= 0) res->one_of_ordinal[i] = ord;
    if (b >= 0 && L->r->backends[b].single_device) res->one_of_ordinal[i] = 0;
  }
  return 0;
}

/* One entry of "names": {"equals": TEXT | "prefix": TEXT, "backend": NAME,
   "ordinal_from_suffix": B}. */
static int parse_name_pattern(loader *L, const cJSON *d, size_t at, tc_name_pattern *p) {
  static const char *const k[] = {"equals", "prefix", "backend", "ordinal_from_suffix", NULL};
  if (!cJSON_IsObject(d)) {
    tc_json_fail(&L->j, at, "each \"names\" entry must be an object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, d, at, "a \"names\" entry", k)) return -1;
  int has_equals = cJSON_GetObjectItemCaseSensitive(d, "equals") != NULL;
  int has_prefix = cJSON_GetObjectItemCaseSensitive(d, "prefix") != NULL;
  if (has_equals == has_prefix) {
    tc_json_fail(&L->j, at, "a \"names\" entry takes \"equals\" or \"prefix\", one of them");
    return -1;
  }
  const char *text = tc_json_string(&L->j, d, has_prefix ? "prefix" : "equals", at, 1,
                                    "a \"names\" entry");
  if (!text) return -1;
  if (strlen(text) >= sizeof p->text) {
    tc_json_fail(&L->j, at, "device name \"%s\" is too long", text);
    return -1;
  }
  memcpy(p->text, text, strlen(text) + 1);
  p->prefix = has_prefix;
  p->ordinal_from_suffix = 0;
  if (rules_backend_named(L, d, "backend", at, &p->backend) ||
      tc_json_bool(&L->j, d, "ordinal_from_suffix", at, &p->ordinal_from_suffix) < 0)
    return -1;
  if (p->ordinal_from_suffix && !p->prefix) {
    tc_json_fail(&L->j, at, "\"ordinal_from_suffix\" needs a \"prefix\"");
    return -1;
  }
  return 0;
}

/* "device_by_name": {"arg": I, "names": [patterns], "one_of": [devices]}: the device the
   name argument I names when it is a string literal a pattern matches, else one of one_of's
   devices (parse_one_of). */
static int parse_device_by_name(loader *L, const cJSON *c, size_t at, int n_params,
                                tc_result_spec *res) {
  static const char *const k[] = {"arg", "names", "one_of", NULL};
  if (!cJSON_IsObject(c)) {
    tc_json_fail(&L->j, at, "\"device_by_name\" must be an object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, c, at, "a \"device_by_name\" result", k)) return -1;
  if (rules_get_arg(L, c, "arg", at, n_params, 1, &res->arg) < 0) return -1;
  const cJSON *names = cJSON_GetObjectItemCaseSensitive(c, "names");
  int n = cJSON_IsArray(names) ? cJSON_GetArraySize(names) : 0;
  size_t nat = tc_json_find_key(L->j.text, at, "names");
  if (n < 1 || n > TC_RULES_MAX_NAMES) {
    tc_json_fail(&L->j, nat, "\"names\" must be an array of 1 to %d patterns",
                 TC_RULES_MAX_NAMES);
    return -1;
  }
  const cJSON *d;
  cJSON_ArrayForEach(d, names) {
    if (parse_name_pattern(L, d, nat, &res->names[res->n_names++])) return -1;
  }
  return parse_one_of(L, cJSON_GetObjectItemCaseSensitive(c, "one_of"),
                      tc_json_find_key(L->j.text, at, "one_of"), res);
}

/* "one_of_array": {"array_arg": I, "count_arg": J}: one of the handles I[0 .. J-1]. */
static int parse_one_of_array(loader *L, const cJSON *c, size_t at, int n_params,
                              tc_result_spec *res) {
  static const char *const k[] = {"array_arg", "count_arg", NULL};
  if (!cJSON_IsObject(c)) {
    tc_json_fail(&L->j, at, "\"one_of_array\" must be an object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, c, at, "a \"one_of_array\" result", k)) return -1;
  if (rules_get_arg(L, c, "array_arg", at, n_params, 1, &res->arg) < 0) return -1;
  return rules_get_arg(L, c, "count_arg", at, n_params, 1, &res->arg2) < 0 ? -1 : 0;
}

/* The optional field-name member `key` of an "element_of_arg" object into buf ("" absent). */
static int element_field_name(loader *L, const cJSON *c, const char *key, size_t at,
                              char buf[TC_RULES_FIELD_MAX]) {
  if (!cJSON_GetObjectItemCaseSensitive(c, key)) return 0;
  const char *f = tc_json_string(&L->j, c, key, at, 1, "an \"element_of_arg\" result");
  if (!f) return -1;
  if (strlen(f) >= TC_RULES_FIELD_MAX) {
    tc_json_fail(&L->j, at, "field name \"%s\" is too long", f);
    return -1;
  }
  memcpy(buf, f, strlen(f) + 1);
  return 0;
}

/* "element_of_arg": I, or {"arg": I, "field": F, "lookup": B, "in_field": G, "key_arg": K,
   "position": "begin" | "end", "inserts": B, "kept_only": B}: the address of
   the elements of the container argument I points to, or of their field F (a map's mapped
   value, "second"); lookup: the one element a key picks; in_field: the result is a struct
   (a pair) whose field G holds that address, the rest unknown; key_arg (a lookup): the argument holding that key, whose element is
   followed by itself when the key is a constant. */
static int parse_element_of(loader *L, const cJSON *res_obj, const cJSON *c, size_t at,
                            int n_params, tc_result_spec *res) {
  if (cJSON_IsNumber(c))
    return rules_get_arg(L, res_obj, c->string, at, n_params, 1, &res->arg) < 0 ? -1 : 0;
  static const char *const k[] = {"arg",      "field",    "lookup",  "in_field",
                                  "key_arg",  "position", "inserts", "kept_only",
                                  NULL};
  if (!cJSON_IsObject(c)) {
    tc_json_fail(&L->j, at, "\"element_of_arg\" is an argument index or an object");
    return -1;
  }
  if (tc_json_only_keys(&L->j, c, at, "an \"element_of_arg\" result", k)) return -1;
  if (rules_get_arg(L, c, "arg", at, n_params, 1, &res->arg) < 0) return -1;
  if (tc_json_bool(&L->j, c, "lookup", at, &res->elem_lookup) < 0) return -1;
  int has_key = rules_get_arg(L, c, "key_arg", at, n_params, 0, &res->elem_key_arg);
  if (has_key < 0) return -1;
  if (has_key) res->elem_lookup = 1;
  if (tc_json_bool(&L->j, c, "inserts", at, &res->elem_inserts) < 0) return -1;
  if (tc_json_bool(&L->j, c, "kept_only", at, &res->elem_kept_only) < 0) return -1;
  if (res->elem_kept_only && !has_key) {
    tc_json_fail(&L->j, at, "\"kept_only\" needs \"key_arg\"");
    return -1;
  }
  if (cJSON_GetObjectItemCaseSensitive(c, "position")) {
    const char *p = tc_json_string(&L->j, c, "position", at, 1, "an \"element_of_arg\" result");
    if (!p) return -1;
    if (strcmp(p, "begin") == 0) {
      res->elem_position = TC_POS_BEGIN;
    } else if (strcmp(p, "end") == 0) {
      res->elem_position = TC_POS_END;
    } else {
      tc_json_fail(&L->j, at, "\"position\" is \"begin\" or \"end\", not \"%s\"", p);
      return -1;
    }
  }
  if (element_field_name(L, c, "field", at, res->elem_field) < 0) return -1;
  return element_field_name(L, c, "in_field", at, res->elem_in_field);
}

/* How a result key's value is read (rules.def's TC_RESULT shapes). */
typedef enum result_shape {
  RESULT_DEVICE,
  RESULT_TENSOR,
  RESULT_NEW_OBJECT,
  RESULT_ARG,
  RESULT_ARG_PAIR,
  RESULT_ONE_OF,
  RESULT_ONE_OF_ARRAY,
  RESULT_BY_NAME,
  RESULT_ELEMENT
} result_shape;

static const result_shape result_rows[] = {
#define TC_RESULT(E, key, shape) [TC_RES_##E] = RESULT_##shape,
#include "rules/rules.def"
#undef TC_RESULT
};

#define N_RESULT_ROWS (sizeof result_rows / sizeof result_rows[0])

static const char *const result_keys[N_RESULT_ROWS] = {
#define TC_RESULT(E, key, shape) [TC_RES_##E] = #key,
#include "rules/rules.def"
#undef TC_RESULT
};

int rules_parse_result(loader *L, const cJSON *res_obj, size_t at, int n_params,
                       tc_result_spec *res) {
  tc_rules_result_defaults(res);
  if (!cJSON_IsObject(res_obj) || !res_obj->child || res_obj->child->next) {
    char list[512];
    rules_name_list(result_keys + 1, N_RESULT_ROWS - 1, "\"", ", ", list, sizeof list);
    tc_json_fail(&L->j, at, "\"result\" must be an object with exactly one of %s", list);
    return -1;
  }
  const cJSON *c = res_obj->child;
  size_t cat = tc_json_find_key(L->j.text, at, c->string);
  size_t k = rules_find_name(result_keys, N_RESULT_ROWS, c->string);
  if (!k) {
    tc_json_fail(&L->j, cat, "unknown result \"%s\"", c->string);
    return -1;
  }
  res->what = (tc_result_kind)k;
  switch (result_rows[k]) {
    case RESULT_DEVICE:
      return parse_device_result(L, c, cat, n_params, res);
    case RESULT_TENSOR:
      return parse_tensor_result(L, c, cat, n_params, res);
    case RESULT_NEW_OBJECT:
      return parse_new_object(L, c, cat, n_params, res);
    case RESULT_ARG:
      return rules_get_arg(L, res_obj, c->string, at, n_params, 1, &res->arg) < 0 ? -1 : 0;
    case RESULT_ONE_OF:
      return parse_one_of(L, c, cat, res);
    case RESULT_ONE_OF_ARRAY:
      return parse_one_of_array(L, c, cat, n_params, res);
    case RESULT_BY_NAME:
      return parse_device_by_name(L, c, cat, n_params, res);
    case RESULT_ELEMENT:
      return parse_element_of(L, res_obj, c, cat, n_params, res);
    case RESULT_ARG_PAIR: {
      int args[TC_RULES_MAX_ARGS], n = 0;
      if (rules_get_arg_list(L, res_obj, c->string, at, n_params, args, &n, 2)) return -1;
      if (n != 2) {
        tc_json_fail(&L->j, cat, "\"%s\" takes two argument indices", c->string);
        return -1;
      }
      res->arg = args[0];
      res->arg2 = args[1];
      return 0;
    }
  }
  return -1;
}
