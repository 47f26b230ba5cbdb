/* analyzer/src/rules/checks.c — a function's "checks" (docs/rules.md "Checks"): each names a
 * check of rules.def and its operands in the shape the row gives. What a check decides is the
 * engine's (engine/api_checks.c, check_<name>). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/loader.h"

/* "accept": rows of width kind names; 1 read, 0 absent, -1 wrong. */
static int parse_accept(loader *L, const cJSON *chk, size_t at, int width, tc_check *c) {
  const cJSON *acc = cJSON_GetObjectItemCaseSensitive(chk, "accept");
  if (!acc) return 0;
  size_t aat = tc_json_find_key(L->j.text, at, "accept");
  if (!cJSON_IsArray(acc) || !acc->child) {
    tc_json_fail(&L->j, aat, "\"accept\" must be a non-empty list of rows of kind names");
    return -1;
  }
  int rows = cJSON_GetArraySize(acc);
  c->accept = calloc((size_t)rows * (size_t)width, 1);
  if (!c->accept) return -1;
  int i = 0;
  for (const cJSON *row = acc->child; row; row = row->next, i++) {
    if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != width) {
      tc_json_fail(&L->j, aat, "each \"accept\" row must list %d kind name%s", width,
                   width == 1 ? "" : "s");
      return -1;
    }
    int j = 0;
    for (const cJSON *k = row->child; k; k = k->next, j++) {
      int ki = cJSON_IsString(k) ? rules_kind_index_by_name(L->r, k->valuestring) : -1;
      if (ki < 0) {
        tc_json_fail(&L->j, aat, "\"accept\": unknown kind %s%s%s (declare it in \"kinds\")",
                     cJSON_IsString(k) ? "\"" : "",
                     cJSON_IsString(k) ? k->valuestring : "(not a string)",
                     cJSON_IsString(k) ? "\"" : "");
        return -1;
      }
      c->accept[i * width + j] = (int8_t)ki;
    }
  }
  c->n_accept = rows;
  return 1;
}

/* The operand shapes of rules.def: how a check names its operands. */
typedef enum operand_shape {
#define TC_OPERANDS(shape, ...) SHAPE_##shape,
#include "rules/rules.def"
#undef TC_OPERANDS
} operand_shape;

/* The keys each shape takes, "check" first. */
#define TC_OPERANDS(shape, ...) \
  static const char *const shape_keys_##shape[] = {"check", __VA_ARGS__, NULL};
#include "rules/rules.def"
#undef TC_OPERANDS

static const char *const *const shape_keys[] = {
#define TC_OPERANDS(shape, ...) [SHAPE_##shape] = shape_keys_##shape,
#include "rules/rules.def"
#undef TC_OPERANDS
};

/* One row per check: its name and its operand shape. */
static const char *const check_names[] = {
#define TC_CHECK(E, name, operands, rules) [TC_CHECK_##E] = #name,
#include "rules/rules.def"
#undef TC_CHECK
};

#define N_CHECK_ROWS (sizeof check_names / sizeof check_names[0])

static const operand_shape check_shapes[N_CHECK_ROWS] = {
#define TC_CHECK(E, name, operands, rules) [TC_CHECK_##E] = SHAPE_##operands,
#include "rules/rules.def"
#undef TC_CHECK
};

int rules_check_reads_devices(tc_check_kind kind) {
  operand_shape shape = check_shapes[kind];
  return shape == SHAPE_DEVICE_ARG || shape == SHAPE_TENSOR_DEVICE || shape == SHAPE_DEVICE;
}

tc_check_kind rules_check_by_name(const char *name) {
  return (tc_check_kind)rules_find_name(check_names, N_CHECK_ROWS, name);
}

/* "kinds": rows of accepted kinds over "args", or over the elements of "array_arg" (all of one
   kind with "same"). */
static int parse_kinds_operands(loader *L, const cJSON *chk, size_t at, int n_params, tc_check *c) {
  if (cJSON_GetObjectItemCaseSensitive(chk, "array_arg")) {
    if (cJSON_GetObjectItemCaseSensitive(chk, "args")) {
      tc_json_fail(&L->j, at, "a \"kinds\" check takes either \"args\" or \"array_arg\", not both");
      return -1;
    }
    if (rules_get_arg(L, chk, "array_arg", at, n_params, 1, &c->array_arg) < 0) return -1;
    if (rules_get_arg(L, chk, "count_arg", at, n_params, 0, &c->count_arg) < 0) return -1;
    if (tc_json_bool(&L->j, chk, "same", at, &c->same) < 0) return -1;
    int got = parse_accept(L, chk, at, 1, c);
    if (got < 0) return -1;
    if (!c->same && got == 0) {
      tc_json_fail(&L->j, at, "a \"kinds\" check over an array needs \"same\": true or \"accept\"");
      return -1;
    }
    return 0;
  }
  if (rules_get_arg_list(L, chk, "args", at, n_params, c->args, &c->n_args, 1)) return -1;
  if (cJSON_GetObjectItemCaseSensitive(chk, "same")) {
    tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "same"),
                 "\"same\" applies to \"array_arg\" only");
    return -1;
  }
  int got = parse_accept(L, chk, at, c->n_args, c);
  if (got < 0) return -1;
  if (got == 0) {
    tc_json_fail(&L->j, at, "a \"kinds\" check needs \"accept\" (rows of kind names)");
    return -1;
  }
  return 0;
}

static int parse_operands(loader *L, const cJSON *chk, size_t at, int n_params, operand_shape shape,
                          tc_check *c) {
  switch (shape) {
    case SHAPE_ARGS:
      return rules_get_arg_list(L, chk, "args", at, n_params, c->args, &c->n_args, 2);
    case SHAPE_ARRAY:
      if (rules_get_arg(L, chk, "array_arg", at, n_params, 1, &c->array_arg) < 0) return -1;
      return rules_get_arg(L, chk, "count_arg", at, n_params, 0, &c->count_arg) < 0 ? -1 : 0;
    case SHAPE_ARG:
    case SHAPE_DEVICE_ARG:
      return rules_get_arg(L, chk, "arg", at, n_params, 1, &c->arg) < 0 ? -1 : 0;
    case SHAPE_TENSOR_DEVICE:
      if (rules_get_arg(L, chk, "tensor_arg", at, n_params, 1, &c->tensor_arg) < 0) return -1;
      return rules_get_arg(L, chk, "device_arg", at, n_params, 1, &c->device_arg) < 0 ? -1 : 0;
    case SHAPE_DEVICE:
      return rules_get_arg(L, chk, "device_arg", at, n_params, 1, &c->device_arg) < 0 ? -1 : 0;
    case SHAPE_KINDS:
      return parse_kinds_operands(L, chk, at, n_params, c);
  }
  return -1;
}

int rules_parse_check(loader *L, const cJSON *chk, size_t at, int n_params, tc_check *c) {
  memset(c, 0, sizeof *c);
  c->array_arg = c->count_arg = c->arg = c->tensor_arg = c->device_arg = -1;
  if (!cJSON_IsObject(chk)) {
    tc_json_fail(&L->j, at, "each check must be an object with a \"check\" name");
    return -1;
  }
  const char *name = tc_json_string(&L->j, chk, "check", at, 1, "a check");
  if (!name) return -1;
  c->kind = rules_check_by_name(name);
  if (!c->kind) {
    char list[512];
    rules_name_list(check_names + 1, N_CHECK_ROWS - 1, "", " or ", list, sizeof list);
    tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "check"),
                 "unknown check \"%s\" (expected %s)", name, list);
    return -1;
  }
  char what[64];
  snprintf(what, sizeof what, "the \"%s\" check", name);
  operand_shape shape = check_shapes[c->kind];
  if (tc_json_only_keys(&L->j, chk, at, what, shape_keys[shape])) return -1;
  return parse_operands(L, chk, at, n_params, shape, c);
}

void rules_free_checks(tc_check *c, size_t n) {
  for (size_t i = 0; i < n; i++) free(c[i].accept);
  free(c);
}
