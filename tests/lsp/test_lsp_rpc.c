/* tests/lsp/test_lsp_rpc.c — JSON-RPC classification of received bodies (requests,
 * notifications, responses, and the ParseError / InvalidRequest cases) and the bodies the
 * server builds, checked by parsing them back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_rpc.h"

static tc_lsp_msg_kind classify(const char *body, tc_lsp_msg *m) {
  tc_lsp_msg_parse(body, strlen(body), m);
  return m->kind;
}

static void test_request_and_notification(void **state) {
  (void)state;
  tc_lsp_msg m;
  assert_int_equal(classify("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{}}", &m),
                   TC_LSP_MSG_REQUEST);
  assert_string_equal(m.method, "initialize");
  assert_true(cJSON_IsNumber(m.id));
  assert_int_equal(m.id->valueint, 7);
  assert_true(cJSON_IsObject(m.params));
  tc_lsp_msg_free(&m);

  assert_int_equal(classify("{\"jsonrpc\":\"2.0\",\"id\":\"a-1\",\"method\":\"shutdown\"}", &m),
                   TC_LSP_MSG_REQUEST);
  assert_string_equal(m.id->valuestring, "a-1");
  assert_null(m.params);
  tc_lsp_msg_free(&m);

  assert_int_equal(classify(" {\"method\":\"exit\",\"jsonrpc\":\"2.0\"}\r\n", &m), TC_LSP_MSG_NOTIFICATION);
  assert_null(m.id);
  tc_lsp_msg_free(&m);

  assert_int_equal(classify("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null}", &m), TC_LSP_MSG_RESPONSE);
  tc_lsp_msg_free(&m);
}

static void expect_invalid(const char *body, int code, const char *part, int has_id) {
  tc_lsp_msg m;
  assert_int_equal(classify(body, &m), TC_LSP_MSG_INVALID);
  assert_int_equal(m.error_code, code);
  assert_non_null(strstr(m.error, part));
  assert_int_equal(m.id != NULL, has_id);
  tc_lsp_msg_free(&m);
}

static void test_invalid(void **state) {
  (void)state;
  expect_invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", TC_LSP_PARSE_ERROR, "invalid JSON", 0);
  expect_invalid("{} {}", TC_LSP_PARSE_ERROR, "text after", 0);
  expect_invalid("", TC_LSP_PARSE_ERROR, "invalid JSON", 0);
  expect_invalid("[{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]", TC_LSP_INVALID_REQUEST, "batches", 0);
  expect_invalid("42", TC_LSP_INVALID_REQUEST, "JSON object", 0);
  expect_invalid("{\"id\":4,\"method\":\"x\"}", TC_LSP_INVALID_REQUEST, "jsonrpc", 1);
  expect_invalid("{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"x\"}", TC_LSP_INVALID_REQUEST, "jsonrpc", 1);
  expect_invalid("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}", TC_LSP_INVALID_REQUEST, "\"id\"", 0);
  expect_invalid("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":17}", TC_LSP_INVALID_REQUEST, "method", 1);
  expect_invalid("{\"jsonrpc\":\"2.0\",\"id\":5}", TC_LSP_INVALID_REQUEST, "no \"method\"", 1);
  expect_invalid("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"m\",\"params\":3}", TC_LSP_INVALID_REQUEST,
                 "params", 1);
}

static cJSON *parse_owned(char *s) {
  assert_non_null(s);
  cJSON *j = cJSON_Parse(s);
  free(s);
  assert_non_null(j);
  assert_string_equal(cJSON_GetObjectItem(j, "jsonrpc")->valuestring, "2.0");
  return j;
}

static void test_builders(void **state) {
  (void)state;
  cJSON *id = cJSON_CreateString("req-9");
  cJSON *result = cJSON_CreateObject();
  cJSON_AddNumberToObject(result, "n", 3);
  cJSON *j = parse_owned(tc_lsp_response(id, result));
  assert_string_equal(cJSON_GetObjectItem(j, "id")->valuestring, "req-9");
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "result"), "n")->valueint, 3);
  cJSON_Delete(j);

  j = parse_owned(tc_lsp_response(id, NULL));
  assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "result")));
  cJSON_Delete(j);

  j = parse_owned(tc_lsp_error_response(NULL, TC_LSP_METHOD_NOT_FOUND, "no \"such\" method"));
  assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "id")));
  cJSON *e = cJSON_GetObjectItem(j, "error");
  assert_int_equal(cJSON_GetObjectItem(e, "code")->valueint, -32601);
  assert_string_equal(cJSON_GetObjectItem(e, "message")->valuestring, "no \"such\" method");
  assert_null(cJSON_GetObjectItem(j, "result"));
  cJSON_Delete(j);

  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "uri", "file:///x.c");
  j = parse_owned(tc_lsp_notification("textDocument/publishDiagnostics", p));
  assert_null(cJSON_GetObjectItem(j, "id"));
  assert_string_equal(cJSON_GetObjectItem(j, "method")->valuestring, "textDocument/publishDiagnostics");
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "params"), "uri")->valuestring, "file:///x.c");
  cJSON_Delete(j);
  cJSON_Delete(id);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_request_and_notification),
      cmocka_unit_test(test_invalid),
      cmocka_unit_test(test_builders),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
