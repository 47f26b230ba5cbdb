/* analyzer/src/rules/effects.c — a function's "effects" (docs/rules.md "Effects"): each one
 * key of rules.def's TC_EFFECT rows, with the argument keys the row names. What an effect does
 * to memory is the engine's (engine/api_effects.c, effect_<name>). */
#include <stdio.h>
#include <string.h>

#include "rules/loader.h"

/* One row per effect: its name and its one or two argument keys, each read into a field of
   tc_effect (optional ones are -1 when absent). */
typedef struct effect_row {
  const char *key[2];
  size_t field[2];
  int required[2];
  const char *name_key; /* an optional key naming a field (tc_effect.field), or NULL */
} effect_row;

static const effect_row effect_rows[] = {
#define TC_EFFECT(E, name, key1, slot1, required1, key2, slot2, required2, name_key)     \
  [TC_EFFECT_##E] = {{key1, key2},                                             \
                     {offsetof(tc_effect, slot1), offsetof(tc_effect, slot2)}, \
                     {required1, required2},                                   \
                     name_key},
#include "rules/rules.def"
#undef TC_EFFECT
};

#define N_EFFECT_ROWS (sizeof effect_rows / sizeof effect_rows[0])

static const char *const effect_names[N_EFFECT_ROWS] = {
#define TC_EFFECT(E, name, key1, slot1, required1, key2, slot2, required2, name_key) [TC_EFFECT_##E] = #name,
#include "rules/rules.def"
#undef TC_EFFECT
};

static int *effect_field(tc_effect *e, size_t offset) { return (int *)((char *)e + offset); }

/* The keys that place a context an effect makes (new_context): {"placement_field": F,
   "if_nonzero": NAME, "if_zero": NAME}, as a "new_object" result's field/if_nonzero/if_zero. */
static const char *const placement_keys[] = {"placement_field", "if_nonzero", "if_zero"};

static int takes_placement(tc_effect_kind k) { return k == TC_EFFECT_NEW_CONTEXT; }

static int parse_placement(loader *L, const cJSON *body, size_t at, tc_effect *out) {
  out->placement_nonzero = out->placement_zero = -1;
  if (!cJSON_GetObjectItemCaseSensitive(body, placement_keys[0])) return 0;
  const char *f = tc_json_string(&L->j, body, placement_keys[0], at, 1, "a placement field");
  if (!f) return -1;
  if (strlen(f) >= sizeof out->placement_field) {
    tc_json_fail(&L->j, at, "\"placement_field\": field name \"%s\" is too long", f);
    return -1;
  }
  memcpy(out->placement_field, f, strlen(f) + 1);
  if (rules_backend_named(L, body, placement_keys[1], at, &out->placement_nonzero) ||
      rules_backend_named(L, body, placement_keys[2], at, &out->placement_zero))
    return -1;
  return 0;
}

int rules_parse_effect(loader *L, const cJSON *ef, size_t at, int n_params, tc_effect *out) {
  memset(out, 0, sizeof *out);
  char list[256];
  if (!cJSON_IsObject(ef) || !ef->child || ef->child->next || !cJSON_IsObject(ef->child)) {
    rules_name_list(effect_names + 1, N_EFFECT_ROWS - 1, "\"", ", ", list, sizeof list);
    tc_json_fail(&L->j, at, "an effect is an object with one of %s", list);
    return -1;
  }
  const cJSON *body = ef->child;
  size_t bat = tc_json_find_key(L->j.text, at, body->string);
  size_t k = rules_find_name(effect_names, N_EFFECT_ROWS, body->string);
  if (!k) {
    rules_name_list(effect_names + 1, N_EFFECT_ROWS - 1, "", " or ", list, sizeof list);
    tc_json_fail(&L->j, bat, "unknown effect \"%s\" (expected %s)", body->string, list);
    return -1;
  }
  const effect_row *row = &effect_rows[k];
  out->kind = (tc_effect_kind)k;
  const char *keys[7] = {row->key[0], row->key[1], row->name_key, NULL};
  if (!keys[1]) keys[1] = row->name_key, keys[2] = NULL;
  if (takes_placement(out->kind)) {
    size_t n = 0;
    while (keys[n]) n++;
    for (size_t i = 0; i < 3; i++) keys[n + i] = placement_keys[i];
    keys[n + 3] = NULL;
  }
  for (int i = 0; i < 2; i++)
    if (row->key[i] && !row->required[i]) *effect_field(out, row->field[i]) = -1;
  char what[64];
  snprintf(what, sizeof what, "a \"%s\" effect", effect_names[k]);
  if (tc_json_only_keys(&L->j, body, bat, what, keys)) return -1;
  for (int i = 0; i < 2 && row->key[i]; i++)
    if (rules_get_arg(L, body, row->key[i], bat, n_params, row->required[i],
                      effect_field(out, row->field[i])) < 0)
      return -1;
  if (row->name_key && cJSON_GetObjectItemCaseSensitive(body, row->name_key)) {
    const char *f = tc_json_string(&L->j, body, row->name_key, bat, 1, what);
    if (!f) return -1;
    if (strlen(f) >= sizeof out->field) {
      tc_json_fail(&L->j, bat, "\"%s\": field name \"%s\" is too long", row->name_key, f);
      return -1;
    }
    memcpy(out->field, f, strlen(f) + 1);
  }
  if (takes_placement(out->kind) && parse_placement(L, body, bat, out)) return -1;
  return 0;
}
