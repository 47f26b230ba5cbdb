/* analyzer/src/lsp/lsp_hover.c — textDocument/hover (lsp/lsp_hover.h): the cursor's position
 * in bytes, one observing analysis of the document's program, the answer in Markdown. */
#include "lsp/lsp_hover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_text.h"
#include "base/strbuf.h"

/* "cpu" of "autodiff<cpu>" (into buf), or NULL when d is no autodiff device. */
static const char *inner_device(const char *d, char *buf, size_t n) {
  const char *open = strchr(d, '<'), *close = strrchr(d, '>');
  if (!open || !close || close < open) return NULL;
  snprintf(buf, n, "%.*s", (int)(close - open - 1), open + 1);
  return buf;
}

static void add_fields(tc_strbuf *b, const tc_observed_tag *t) {
  tc_strbuf_printf(b, "- backend: `%s`\n", t->backend);
  if (t->ordinal[0]) tc_strbuf_printf(b, "- device ordinal: `%s`\n", t->ordinal);
  char inner[64];
  if (strcmp(t->autodiff, "yes") == 0 && inner_device(t->device, inner, sizeof inner))
    tc_strbuf_printf(b, "- autodiff wrapper: yes, around `%s`\n", inner);
  else
    tc_strbuf_printf(b, "- autodiff wrapper: %s\n", t->autodiff);
  tc_strbuf_printf(b, "- kind: `%s`\n", t->kind);
  if (t->placement[0]) tc_strbuf_printf(b, "- allocation: %s\n", t->placement);
}

char *tc_lsp_hover_markdown(const tc_observed *o) {
  tc_strbuf b;
  tc_strbuf_init(&b);
  if (o->spelling[0])
    tc_strbuf_printf(&b, "**`%s`**: tensor", o->spelling);
  else
    tc_strbuf_puts(&b, "**tensor**");
  if (strcmp(o->joined.device, "unknown") != 0)
    tc_strbuf_printf(&b, " on `%s`\n\n", o->joined.device);
  else
    tc_strbuf_puts(&b, o->n_tags > 1 ? ", its device depends on the path\n\n"
                                     : ", device unknown\n\n");
  add_fields(&b, &o->joined);
  if (o->n_tags > 1) {
    tc_strbuf_puts(&b, "\nOn different paths:");
    for (size_t i = 0; i < o->n_tags; i++) {
      const tc_observed_tag *t = &o->tags[i];
      tc_strbuf_printf(&b, "%s `%s` (%s", i ? " ·" : "", t->device, t->kind);
      if (t->placement[0]) tc_strbuf_printf(&b, ", %s", t->placement);
      tc_strbuf_puts(&b, ")");
    }
    tc_strbuf_puts(&b, o->more_tags ? " and more\n" : "\n");
  }
  if (o->n_unknown)
    tc_strbuf_printf(&b, "\nUnknown on %u of %u path%s.\n", o->n_unknown, o->n_paths,
                     o->n_paths == 1 ? "" : "s");
  tc_strbuf_printf(&b, "\n*tagcheck: as the analysis sees it here, over %u path%s in %u calling "
                       "context%s.*\n",
                   o->n_paths, o->n_paths == 1 ? "" : "s", o->n_contexts,
                   o->n_contexts == 1 ? "" : "s");
  return tc_strbuf_take(&b);
}

static cJSON *position_json(const tc_lsp_lines *l, unsigned line, unsigned col, int utf8) {
  tc_lsp_pos p = tc_lsp_lines_position(l, line, col, utf8);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "line", p.line);
  cJSON_AddNumberToObject(o, "character", p.character);
  return o;
}

/* The hover of answer o in doc's text (lines l). */
static cJSON *hover_json(const tc_observed *o, const tc_lsp_lines *l, int utf8) {
  char *md = tc_lsp_hover_markdown(o);
  if (!md) return NULL;
  cJSON *h = cJSON_CreateObject();
  cJSON *contents = cJSON_AddObjectToObject(h, "contents");
  cJSON_AddStringToObject(contents, "kind", "markdown");
  cJSON_AddStringToObject(contents, "value", md);
  free(md);
  if (o->line && o->end_line) {
    cJSON *range = cJSON_AddObjectToObject(h, "range");
    cJSON_AddItemToObject(range, "start", position_json(l, o->line, o->col, utf8));
    cJSON_AddItemToObject(range, "end", position_json(l, o->end_line, o->end_col, utf8));
  }
  return h;
}

static unsigned uint_of(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) && v->valuedouble >= 0 ? (unsigned)v->valuedouble : 0;
}

cJSON *tc_lsp_hover(tc_lsp_analyzer *a, tc_options *run, const tc_lsp_docs *docs,
                    const cJSON *params, int utf8, char *err, size_t err_len) {
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  const cJSON *uri = cJSON_GetObjectItemCaseSensitive(td, "uri");
  const cJSON *pos = cJSON_GetObjectItemCaseSensitive(params, "position");
  const tc_lsp_doc *doc = cJSON_IsString(uri) ? tc_lsp_docs_find(docs, uri->valuestring) : NULL;
  if (!doc || !doc->path || !a || !cJSON_IsObject(pos)) return cJSON_CreateNull();
  tc_lsp_lines l;
  if (tc_lsp_lines_init(&l, doc->text, doc->len) != 0) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  tc_lsp_pos at = {uint_of(pos, "line"), uint_of(pos, "character")};
  if (at.line >= l.n) at.line = (unsigned)l.n - 1;
  size_t offset = tc_lsp_lines_offset(&l, at, utf8);
  unsigned col = (unsigned)(offset - l.starts[at.line]) + 1;
  tc_observe *obs = tc_observe_new();
  size_t n_unsaved = 0;
  tc_unsaved_file *unsaved = tc_lsp_docs_unsaved(docs, &n_unsaved);
  cJSON *result = NULL;
  if (!obs || !unsaved || tc_observe_add(obs, doc->path, at.line + 1, col) < 0) {
    snprintf(err, err_len, "out of memory");
  } else {
    tc_lsp_result res;
    run->observe = obs;
    int rc = tc_lsp_analyze(a, doc->path, unsaved, n_unsaved, &res, err, err_len);
    run->observe = NULL;
    if (rc == 0) {
      tc_lsp_result_free(&res);
      tc_observed o;
      if (tc_observe_get(obs, 0, &o) == 0 && o.found)
        result = hover_json(&o, &l, utf8);
      else
        result = cJSON_CreateNull();
      if (!result) snprintf(err, err_len, "out of memory");
    }
  }
  free(unsaved);
  tc_observe_free(obs);
  tc_lsp_lines_free(&l);
  return result;
}
