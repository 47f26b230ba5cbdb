/* analyzer/src/lsp/lsp_code_action.c — quick fixes from published diagnostics
 * (lsp_code_action.h). */
#include "lsp/lsp_code_action.h"

#include <string.h>

static int number_at(const cJSON *pos, const char *key, double *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(pos, key);
  if (!cJSON_IsNumber(v)) return -1;
  *out = v->valuedouble;
  return 0;
}

/* -1, 0, 1 as LSP position a is before, at or after b; 2 when either is malformed. */
static int cmp_pos(const cJSON *a, const cJSON *b) {
  double al, ac, bl, bc;
  if (number_at(a, "line", &al) || number_at(a, "character", &ac) || number_at(b, "line", &bl) ||
      number_at(b, "character", &bc))
    return 2;
  if (al != bl) return al < bl ? -1 : 1;
  return ac < bc ? -1 : ac > bc;
}

/* Ranges meet when neither ends before the other starts (touching counts: a cursor at the end
   of a call still asks for its fix). */
static int ranges_meet(const cJSON *a, const cJSON *b) {
  const cJSON *as = cJSON_GetObjectItemCaseSensitive(a, "start"),
              *ae = cJSON_GetObjectItemCaseSensitive(a, "end"),
              *bs = cJSON_GetObjectItemCaseSensitive(b, "start"),
              *be = cJSON_GetObjectItemCaseSensitive(b, "end");
  int c1 = cmp_pos(ae, bs), c2 = cmp_pos(be, as);
  if (c1 == 2 || c2 == 2) return 0;
  return c1 >= 0 && c2 >= 0;
}

cJSON *tc_lsp_code_actions(const cJSON *published, const cJSON *params) {
  cJSON *actions = cJSON_CreateArray();
  if (!actions) return NULL;
  const cJSON *want = cJSON_GetObjectItemCaseSensitive(params, "range");
  const cJSON *d;
  cJSON_ArrayForEach(d, published) {
    const cJSON *fix = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(d, "data"), "fix");
    const cJSON *title = cJSON_GetObjectItemCaseSensitive(fix, "title");
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(fix, "changes");
    if (!cJSON_IsString(title) || !cJSON_IsObject(changes)) continue;
    if (want && !ranges_meet(cJSON_GetObjectItemCaseSensitive(d, "range"), want)) continue;
    cJSON *a = cJSON_CreateObject();
    if (!a) break;
    cJSON_AddStringToObject(a, "title", title->valuestring);
    cJSON_AddStringToObject(a, "kind", "quickfix");
    cJSON *diags = cJSON_AddArrayToObject(a, "diagnostics");
    if (diags) cJSON_AddItemToArray(diags, cJSON_Duplicate(d, 1));
    cJSON_AddBoolToObject(a, "isPreferred", 1);
    cJSON *edit = cJSON_AddObjectToObject(a, "edit");
    if (edit) cJSON_AddItemToObject(edit, "changes", cJSON_Duplicate(changes, 1));
    cJSON_AddItemToArray(actions, a);
  }
  return actions;
}
