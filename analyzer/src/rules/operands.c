/* analyzer/src/rules/operands.c — argument indices in function descriptions: one ("arg":
 * 0) or a list ("args": [0, 1]), each within the function's declared arity. */
#include <string.h>

#include "rules/loader.h"

int rules_get_arg(loader *L, const cJSON *obj, const char *key, size_t where, int n_params,
                  int required, int *out) {
  int hi = n_params >= 0 ? n_params - 1 : 63;
  if (n_params == 0) {
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, where, key),
                   "\"%s\": the function takes no parameters", key);
      return -1;
    }
  }
  int got = tc_json_int(&L->j, obj, key, where, 0, hi < 0 ? 0 : hi, out);
  if (got < 0) return -1;
  if (got == 0 && required) {
    tc_json_fail(&L->j, where, "missing \"%s\" (an argument index)", key);
    return -1;
  }
  return got;
}

int rules_get_arg_list(loader *L, const cJSON *obj, const char *key, size_t where, int n_params,
                       int *args, int *n_args, int min) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
  size_t at = tc_json_find_key(L->j.text, where, key);
  if (!a) {
    tc_json_fail(&L->j, where, "missing \"%s\" (a list of argument indices)", key);
    return -1;
  }
  if (!cJSON_IsArray(a)) {
    tc_json_fail(&L->j, at, "\"%s\" must be a list of argument indices", key);
    return -1;
  }
  int n = 0;
  for (const cJSON *x = a->child; x; x = x->next) {
    if (!cJSON_IsNumber(x) || x->valuedouble != (double)x->valueint || x->valueint < 0 ||
        (n_params >= 0 && x->valueint >= n_params) || x->valueint > 63) {
      tc_json_fail(&L->j, at, "\"%s\": argument indices must be integers in [0, %d]", key,
                   n_params >= 0 ? n_params - 1 : 63);
      return -1;
    }
    if (n >= TC_RULES_MAX_ARGS) {
      tc_json_fail(&L->j, at, "\"%s\": at most %d arguments", key, TC_RULES_MAX_ARGS);
      return -1;
    }
    args[n++] = x->valueint;
  }
  if (n < min) {
    tc_json_fail(&L->j, at, "\"%s\" needs at least %d argument indices", key, min);
    return -1;
  }
  *n_args = n;
  return 0;
}
