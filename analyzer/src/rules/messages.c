/* analyzer/src/rules/messages.c — what a rules file says about the rules its API can break:
 * "rule_ids" (a rule id per slot of rules.def), "messages" (a template per failure, the
 * generic wording of rules.def where none is given), and "rules" (the descriptions of rule ids
 * the runtime's table, dt/rules.def, does not have). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/diag.h"
#include "rules/loader.h"

static const char *const rule_slot_keys[TC_RULE_COUNT] = {
#define TC_RULE_SLOT(E, key, needs_devices) [TC_RULE_##E] = key,
#include "rules/rules.def"
#undef TC_RULE_SLOT
};

static const int rule_slot_needs_devices[TC_RULE_COUNT] = {
#define TC_RULE_SLOT(E, key, needs_devices) [TC_RULE_##E] = needs_devices,
#include "rules/rules.def"
#undef TC_RULE_SLOT
};

static const char *const msg_slot_keys[TC_MSG_COUNT] = {
#define TC_MESSAGE(E, key, default_text) [TC_MSG_##E] = key,
#include "rules/rules.def"
#undef TC_MESSAGE
};

/* Generic wording, used for templates a rules file does not give. */
static const char *const msg_defaults[TC_MSG_COUNT] = {
#define TC_MESSAGE(E, key, default_text) [TC_MSG_##E] = default_text,
#include "rules/rules.def"
#undef TC_MESSAGE
};

/* The rule slots each check can fail with. */
static const unsigned check_rule_slots[] = {
#define TC_CHECK(E, name, operands, rules) [TC_CHECK_##E] = (rules),
#include "rules/rules.def"
#undef TC_CHECK
};

unsigned tc_check_rule_slots(tc_check_kind k) {
  return (size_t)k < sizeof check_rule_slots / sizeof *check_rule_slots ? check_rule_slots[k] : 0;
}

int rules_message_by_key(const char *key) {
  for (int i = 0; i < TC_MSG_COUNT; i++)
    if (strcmp(msg_slot_keys[i], key) == 0) return i;
  return -1;
}

/* The rule ids of the runtime's table (dt/rules.def), for metadata. */
static int is_builtin_rule(const char *id) {
#define DT_RULE(status, rid, name, shortd, help) \
  if (strcmp(id, rid) == 0) return 1;
#include <dt/rules.def>
#undef DT_RULE
  return 0;
}

int rules_parse_string_map(loader *L, const cJSON *obj, const char *section,
                           const char *const *keys, size_t n, char **slots) {
  size_t where = tc_json_locate(&L->j, section, NULL);
  if (!cJSON_IsObject(obj)) {
    tc_json_fail(&L->j, where, "\"%s\" must be an object of strings", section);
    return -1;
  }
  for (const cJSON *c = obj->child; c; c = c->next) {
    size_t i = 0;
    while (i < n && strcmp(keys[i], c->string) != 0) i++;
    if (i == n) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, where, c->string),
                   "unknown key \"%s\" in \"%s\"", c->string, section);
      return -1;
    }
    if (!cJSON_IsString(c) || !c->valuestring[0]) {
      tc_json_fail(&L->j, tc_json_find_key(L->j.text, where, c->string),
                   "\"%s\" must be a non-empty string", c->string);
      return -1;
    }
    free(slots[i]);
    slots[i] = rules_strdup(c->valuestring);
  }
  return 0;
}

int rules_parse_rule_metas(loader *L, const cJSON *arr) {
  size_t where = tc_json_locate(&L->j, "rules", NULL);
  if (!cJSON_IsArray(arr)) {
    tc_json_fail(&L->j, where, "\"rules\" must be an array of rule descriptions");
    return -1;
  }
  static const char *const keys[] = {"id",   "name",  "short_description", "full_description",
                                     "help", "level", "example",           "example_fix",
                                     NULL};
  tc_rules *r = L->r;
  size_t at = where;
  for (const cJSON *m = arr->child; m; m = m->next) {
    at = tc_json_find_key(L->j.text, at + 1, "id");
    if (!cJSON_IsObject(m) || tc_json_only_keys(&L->j, m, at, "a rule description", keys)) {
      tc_json_fail(&L->j, at, "each rule description must be an object");
      return -1;
    }
    const char *id = tc_json_string(&L->j, m, "id", at, 1, "a rule description");
    const char *name = id ? tc_json_string(&L->j, m, "name", at, 1, "a rule description") : NULL;
    const char *sd =
        name ? tc_json_string(&L->j, m, "short_description", at, 1, "a rule description") : NULL;
    if (!sd) return -1;
    const char *fd = tc_json_string(&L->j, m, "full_description", at, 0, "");
    const char *help = tc_json_string(&L->j, m, "help", at, 0, "");
    const char *lvl = tc_json_string(&L->j, m, "level", at, 0, "");
    const char *ex = tc_json_string(&L->j, m, "example", at, 0, "");
    const char *ex_fix = tc_json_string(&L->j, m, "example_fix", at, 0, "");
    if (L->j.failed) return -1;
    if (!ex != !ex_fix) {
      tc_json_fail(
          &L->j, tc_json_find_key(L->j.text, at, ex ? "example" : "example_fix"),
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
        tc_json_fail(&L->j, tc_json_find_key(L->j.text, at, "level"),
                     "\"level\" must be error, warning or note");
        return -1;
      }
    }
    tc_rule_meta *nm = realloc(r->metas, (r->n_metas + 1) * sizeof *nm);
    if (!nm) return -1;
    r->metas = nm;
    tc_rule_meta *x = &nm[r->n_metas++];
    x->id = rules_strdup(id);
    x->name = rules_strdup(name);
    x->short_description = rules_strdup(sd);
    x->full_description = rules_strdup(fd ? fd : sd);
    x->help = rules_strdup(help ? help : sd);
    x->default_level = level;
    x->example = ex ? rules_strdup(ex) : NULL;
    x->example_fix = ex_fix ? rules_strdup(ex_fix) : NULL;
  }
  return 0;
}

void tc_rules_describe(const tc_rules *rules, tc_report *r) {
  if (!rules || !r) return;
  int builtin = 0;
  for (int i = 0; i < TC_RULE_COUNT; i++)
    builtin |= rules->rule_ids[i] && is_builtin_rule(rules->rule_ids[i]);
  if (builtin) tc_report_add_builtin_rules(r);
  for (size_t i = 0; i < rules->n_metas; i++) tc_report_add_rule(r, &rules->metas[i]);
}

int rules_parse_rule_ids(loader *L, const cJSON *obj) {
  return rules_parse_string_map(L, obj, "rule_ids", rule_slot_keys, TC_RULE_COUNT, L->r->rule_ids);
}

int rules_parse_messages(loader *L, const cJSON *obj) {
  return rules_parse_string_map(L, obj, "messages", msg_slot_keys, TC_MSG_COUNT, L->r->messages);
}

int rules_finish_messages(tc_rules *r, const char *last, char *e, size_t el) {
  int needed[TC_RULE_COUNT] = {0};
  /* a host_pointer check fails only on a data pointer: rules that make none (the C++ library
     rules loaded with an API that has no data pointers) need no host_access rule for it */
  int data_pointers = r->data_field != NULL;
  for (size_t f = 0; f < r->n_fns; f++) {
    if (r->fns[f].result.what == TC_RES_DATA_OF) data_pointers = 1;
    for (size_t c = 0; c < r->fns[f].n_checks; c++)
      for (int i = 0; i < TC_RULE_COUNT; i++)
        if ((check_rule_slots[r->fns[f].checks[c].kind] & (1u << i)) &&
            (!rule_slot_needs_devices[i] || r->n_device_types))
          needed[i] = 1;
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
    if (!r->messages[i] && !(r->messages[i] = rules_strdup(msg_defaults[i]))) return -1;
  return 0;
}
