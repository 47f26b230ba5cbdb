/* analyzer/src/lsp/lsp_rpc.c — JSON-RPC 2.0 message classification and message building for the
 * LSP server (see lsp_rpc.h). */
#include "lsp/lsp_rpc.h"

#include <stdio.h>
#include <string.h>

static void invalid(tc_lsp_msg *m, int code, const char *what) {
  m->kind = TC_LSP_MSG_INVALID;
  m->error_code = code;
  snprintf(m->error, sizeof m->error, "%s", what);
}

static int only_space(const char *p, const char *end) {
  for (; p < end; p++)
    if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') return 0;
  return 1;
}

void tc_lsp_msg_parse(const char *body, size_t len, tc_lsp_msg *m) {
  memset(m, 0, sizeof *m);
  const char *end = NULL;
  m->root = cJSON_ParseWithLengthOpts(body, len, &end, 0);
  if (!m->root || (end && !only_space(end, body + len))) {
    size_t at = end ? (size_t)(end - body) : 0;
    char what[120];
    snprintf(what, sizeof what, "Parse error: %s at byte %zu of the message body",
             m->root ? "text after the JSON value" : "invalid JSON", at);
    cJSON_Delete(m->root);
    m->root = NULL;
    invalid(m, TC_LSP_PARSE_ERROR, what);
    return;
  }
  if (!cJSON_IsObject(m->root)) {
    invalid(m, TC_LSP_INVALID_REQUEST,
            cJSON_IsArray(m->root) ? "Invalid request: batches are not supported"
                                   : "Invalid request: a message must be a JSON object");
    return;
  }
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(m->root, "id");
  if (id && (cJSON_IsNumber(id) || cJSON_IsString(id))) m->id = id;
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(m->root, "jsonrpc");
  if (!cJSON_IsString(version) || strcmp(version->valuestring, "2.0") != 0) {
    invalid(m, TC_LSP_INVALID_REQUEST, "Invalid request: \"jsonrpc\" must be \"2.0\"");
    return;
  }
  if (id && !m->id && !cJSON_IsNull(id)) {
    invalid(m, TC_LSP_INVALID_REQUEST, "Invalid request: \"id\" must be a number or a string");
    return;
  }
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(m->root, "method");
  if (!method) {
    if (id && (cJSON_GetObjectItemCaseSensitive(m->root, "result") ||
               cJSON_GetObjectItemCaseSensitive(m->root, "error"))) {
      m->kind = TC_LSP_MSG_RESPONSE;
      return;
    }
    invalid(m, TC_LSP_INVALID_REQUEST, "Invalid request: no \"method\"");
    return;
  }
  if (!cJSON_IsString(method) || !method->valuestring[0]) {
    invalid(m, TC_LSP_INVALID_REQUEST, "Invalid request: \"method\" must be a non-empty string");
    return;
  }
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(m->root, "params");
  if (params && !cJSON_IsObject(params) && !cJSON_IsArray(params) && !cJSON_IsNull(params)) {
    invalid(m, TC_LSP_INVALID_REQUEST, "Invalid request: \"params\" must be an object or an array");
    return;
  }
  m->method = method->valuestring;
  m->params = cJSON_IsNull(params) ? NULL : params;
  m->kind = m->id ? TC_LSP_MSG_REQUEST : TC_LSP_MSG_NOTIFICATION;
}

void tc_lsp_msg_free(tc_lsp_msg *m) {
  cJSON_Delete(m->root);
  memset(m, 0, sizeof *m);
}

/* {"jsonrpc":"2.0","id":ID} with ID copied (JSON null when id is NULL). */
static cJSON *envelope(const cJSON *id, int with_id) {
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  cJSON_AddStringToObject(o, "jsonrpc", "2.0");
  if (with_id) cJSON_AddItemToObject(o, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
  return o;
}

static char *print_and_delete(cJSON *o) {
  char *s = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  return s;
}

char *tc_lsp_response(const cJSON *id, cJSON *result) {
  cJSON *o = envelope(id, 1);
  if (!o) {
    cJSON_Delete(result);
    return NULL;
  }
  cJSON_AddItemToObject(o, "result", result ? result : cJSON_CreateNull());
  return print_and_delete(o);
}

char *tc_lsp_error_response(const cJSON *id, int code, const char *message) {
  cJSON *o = envelope(id, 1);
  if (!o) return NULL;
  cJSON *e = cJSON_AddObjectToObject(o, "error");
  if (e) {
    cJSON_AddNumberToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", message);
  }
  return print_and_delete(o);
}

char *tc_lsp_notification(const char *method, cJSON *params) {
  cJSON *o = envelope(NULL, 0);
  if (!o) {
    cJSON_Delete(params);
    return NULL;
  }
  cJSON_AddStringToObject(o, "method", method);
  if (params) cJSON_AddItemToObject(o, "params", params);
  return print_and_delete(o);
}
