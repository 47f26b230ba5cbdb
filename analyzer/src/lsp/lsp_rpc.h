/* analyzer/src/lsp/lsp_rpc.h — JSON-RPC 2.0 as LSP uses it: classifying a received body
 * (request, notification, response, or invalid with the error code to answer), and building the
 * bodies the server sends (responses, error responses, notifications) with cJSON. */
#ifndef TC_LSP_RPC_H
#define TC_LSP_RPC_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Error codes of JSON-RPC and LSP. */
enum {
  TC_LSP_PARSE_ERROR = -32700,
  TC_LSP_INVALID_REQUEST = -32600,
  TC_LSP_METHOD_NOT_FOUND = -32601,
  TC_LSP_INVALID_PARAMS = -32602,
  TC_LSP_INTERNAL_ERROR = -32603,
  TC_LSP_SERVER_NOT_INITIALIZED = -32002,
  TC_LSP_REQUEST_FAILED = -32803
};

typedef enum tc_lsp_msg_kind {
  TC_LSP_MSG_INVALID = 0, /* answer with error_code / error (id may still be known) */
  TC_LSP_MSG_REQUEST,     /* method + id */
  TC_LSP_MSG_NOTIFICATION,/* method, no id */
  TC_LSP_MSG_RESPONSE     /* id + result or error: a reply to something the server sent */
} tc_lsp_msg_kind;

typedef struct tc_lsp_msg {
  tc_lsp_msg_kind kind;
  cJSON *root;          /* the parsed body (owned; tc_lsp_msg_free) */
  const cJSON *id;      /* number or string, or NULL (borrowed from root) */
  const char *method;   /* borrowed from root */
  const cJSON *params;  /* object or array, or NULL */
  int error_code;       /* TC_LSP_MSG_INVALID: PARSE_ERROR or INVALID_REQUEST */
  char error[160];      /* TC_LSP_MSG_INVALID: what is wrong */
} tc_lsp_msg;

/* Parses and classifies one message body. Always fills m; free with tc_lsp_msg_free. */
void tc_lsp_msg_parse(const char *body, size_t len, tc_lsp_msg *m);
void tc_lsp_msg_free(tc_lsp_msg *m);

/* Bodies to send (heap strings; NULL when out of memory). id NULL means JSON null. The cJSON
   values passed in are taken over (deleted by the call), NULL meaning JSON null. */
char *tc_lsp_response(const cJSON *id, cJSON *result);
char *tc_lsp_error_response(const cJSON *id, int code, const char *message);
char *tc_lsp_notification(const char *method, cJSON *params);

#endif /* TC_LSP_RPC_H */
