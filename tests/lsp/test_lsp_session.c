/* tests/lsp/test_lsp_session.c — scripted LSP sessions against the real `tagcheck --lsp`
 * binary: lifecycle and exit codes, error responses to malformed input, diagnostics that follow
 * the unsaved text, debouncing, findings in headers, compile command discovery (-p, folders
 * above, build/), fallback flags with one message, UTF-16 and UTF-8 positions, fix-its as
 * quick fixes (textDocument/codeAction round trip on the unsaved text). Expected rules,
 * lines and columns come from the fixtures' `// expect-error:` annotations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp_client.h"
#include "lsp_workspace.h"

#define WAIT_MS 30000 /* generous: sanitizer builds on a loaded machine */

static void start(lsp_client *c, const char *cwd, const char *p_dir) {
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", p_dir ? "-p" : NULL, p_dir, NULL};
  assert_int_equal(lsp_client_spawn(c, argv, cwd, NULL), 0);
}

static const cJSON *result_of(const cJSON *response) {
  assert_non_null(response);
  assert_null(cJSON_GetObjectItem(response, "error"));
  return cJSON_GetObjectItem(response, "result");
}

static int error_code_of(const cJSON *response) {
  assert_non_null(response);
  const cJSON *e = cJSON_GetObjectItem(response, "error");
  assert_non_null(e);
  assert_true(cJSON_IsString(cJSON_GetObjectItem(e, "message")));
  return cJSON_GetObjectItem(e, "code")->valueint;
}

/* initialize (offering UTF-8 positions or not; debounce_ms < 0: the server's default), then
   initialized. Returns the result. */
static const cJSON *initialize_with(lsp_client *c, int id, int offer_utf8, int debounce_ms) {
  char init_options[64] = "";
  if (debounce_ms >= 0)
    snprintf(init_options, sizeof init_options, ",\"initializationOptions\":{\"debounceMs\":%d}", debounce_ms);
  lsp_client_sendf(c,
                   "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"initialize\",\"params\":{"
                   "\"processId\":null,\"rootUri\":null,\"capabilities\":{%s}%s}}",
                   id, offer_utf8 ? "\"general\":{\"positionEncodings\":[\"utf-8\",\"utf-16\"]}" : "",
                   init_options);
  const cJSON *r = result_of(lsp_client_response(c, id, WAIT_MS));
  lsp_client_sendf(c, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  return r;
}

static const cJSON *initialize(lsp_client *c, int id, int offer_utf8) {
  return initialize_with(c, id, offer_utf8, -1);
}

static void shutdown_and_exit(lsp_client *c, int id) {
  lsp_client_sendf(c, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"shutdown\"}", id);
  assert_true(cJSON_IsNull(result_of(lsp_client_response(c, id, WAIT_MS))));
  lsp_client_sendf(c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  assert_int_equal(lsp_client_wait_exit(c, 0, WAIT_MS), 0);
}

static char *uri_of(const char *path) {
  /* Fixture paths are plain ASCII without spaces: no percent-encoding needed. */
  char *u = malloc(strlen(path) + 8);
  sprintf(u, "file://%s", path);
  return u;
}

static void did_open(lsp_client *c, const char *uri, const char *text, int version) {
  assert_int_equal(lsp_client_open(c, uri, text, version), 0);
}

static void did_change(lsp_client *c, const char *uri, const char *text, int version) {
  cJSON *p = cJSON_CreateObject();
  cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
  cJSON_AddStringToObject(td, "uri", uri);
  cJSON_AddNumberToObject(td, "version", version);
  cJSON *changes = cJSON_AddArrayToObject(p, "contentChanges");
  cJSON *ch = cJSON_CreateObject();
  cJSON_AddStringToObject(ch, "text", text);
  cJSON_AddItemToArray(changes, ch);
  assert_int_equal(lsp_client_notify(c, "textDocument/didChange", p), 0);
}

static void did_close(lsp_client *c, const char *uri) {
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(cJSON_AddObjectToObject(p, "textDocument"), "uri", uri);
  assert_int_equal(lsp_client_notify(c, "textDocument/didClose", p), 0);
}

static void did_save(lsp_client *c, const char *uri) {
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(cJSON_AddObjectToObject(p, "textDocument"), "uri", uri);
  assert_int_equal(lsp_client_notify(c, "textDocument/didSave", p), 0);
}

static const cJSON *diagnostics_of(const cJSON *publish) {
  assert_non_null(publish);
  const cJSON *d = cJSON_GetObjectItem(cJSON_GetObjectItem(publish, "params"), "diagnostics");
  assert_true(cJSON_IsArray(d));
  return d;
}

static int version_of(const cJSON *publish) {
  const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(publish, "params"), "version");
  return cJSON_IsNumber(v) ? v->valueint : -1;
}

/* The next publication of uri's diagnostics (for document version `version` unless < 0). */
static const cJSON *publication(lsp_client *c, const char *uri, int version) {
  const cJSON *p = lsp_client_take(c, "textDocument/publishDiagnostics", uri, version, WAIT_MS);
  assert_non_null(p);
  return p;
}

/* Replaces the first occurrence of from by to in text (heap result). */
static char *replace(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  assert_non_null(at);
  size_t a = (size_t)(at - text), n = strlen(text) - strlen(from) + strlen(to);
  char *out = malloc(n + 1);
  memcpy(out, text, a);
  strcpy(out + a, to);
  strcat(out, at + strlen(from));
  return out;
}

/* Asserts diagnostic d is the fixture's expected finding of rule at path. */
static void assert_expected(const cJSON *d, const char *path, const char *rule, int utf8) {
  unsigned line, byte_col, utf16_col;
  assert_int_equal(lsp_fixture_expect(path, rule, &line, &byte_col, &utf16_col), 0);
  assert_string_equal(cJSON_GetObjectItem(d, "code")->valuestring, rule);
  assert_string_equal(cJSON_GetObjectItem(d, "source")->valuestring, "tagcheck");
  assert_int_equal(cJSON_GetObjectItem(d, "severity")->valueint, 1);
  const cJSON *start = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "range"), "start");
  assert_int_equal(cJSON_GetObjectItem(start, "line")->valueint, (int)line - 1);
  assert_int_equal(cJSON_GetObjectItem(start, "character")->valueint, (int)(utf8 ? byte_col : utf16_col));
  const char *href = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "codeDescription"), "href")->valuestring;
  char anchor[64];
  snprintf(anchor, sizeof anchor, "#%s", rule);
  assert_non_null(strstr(href, anchor));
  assert_true(strlen(cJSON_GetObjectItem(d, "message")->valuestring) > 0);
}

static void test_protocol_errors(void **state) {
  (void)state;
  lsp_client c;
  start(&c, NULL, NULL);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"textDocument/hover\",\"params\":{}}");
  assert_int_equal(error_code_of(lsp_client_response(&c, 1, WAIT_MS)), -32002);

  const cJSON *r = initialize(&c, 2, 0);
  const cJSON *caps = cJSON_GetObjectItem(r, "capabilities");
  const cJSON *sync = cJSON_GetObjectItem(caps, "textDocumentSync");
  assert_int_equal(cJSON_GetObjectItem(sync, "change")->valueint, 1);
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(sync, "openClose")));
  assert_true(cJSON_IsObject(cJSON_GetObjectItem(sync, "save")));
  assert_string_equal(cJSON_GetObjectItem(caps, "positionEncoding")->valuestring, "utf-16");
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "serverInfo"), "name")->valuestring, "tagcheck");

  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{}}");
  assert_int_equal(error_code_of(lsp_client_response(&c, 3, WAIT_MS)), -32600);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"workspace/symbol\",\"params\":{}}");
  assert_int_equal(error_code_of(lsp_client_response(&c, 4, WAIT_MS)), -32601);

  /* Notifications get no answer, known or not; $/cancelRequest is accepted quietly. */
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":4}}");
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"custom/unknownNotification\",\"params\":[]}");
  /* Malformed JSON, a bad header, a request that is valid JSON but not a request. */
  const char *broken = "Content-Length: 12\r\n\r\n{\"jsonrpc\":";
  lsp_client_send_raw(&c, broken, strlen(broken));
  const char *bad_header = "Content-Lenght: 5\r\n\r\nhello";
  lsp_client_send_raw(&c, bad_header, strlen(bad_header));
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":42}");
  assert_int_equal(error_code_of(lsp_client_response(&c, 9, WAIT_MS)), -32600);

  /* Everything answered so far, in order: the two id-less errors came before id 9. */
  int null_id_errors = 0, parse_errors = 0, responses = 0;
  const cJSON *m;
  cJSON_ArrayForEach(m, c.seen) {
    if (cJSON_GetObjectItem(m, "method")) continue;
    responses++;
    if (cJSON_IsNull(cJSON_GetObjectItem(m, "id"))) {
      null_id_errors++;
      parse_errors += error_code_of(m) == -32700;
    }
  }
  assert_int_equal(null_id_errors, 2);
  assert_int_equal(parse_errors, 1);
  assert_int_equal(responses, 7); /* ids 1, 2, 3, 4, 9 and the two id-less errors */

  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"shutdown\"}");
  assert_true(cJSON_IsNull(result_of(lsp_client_response(&c, 10, WAIT_MS))));
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"textDocument/hover\",\"params\":{}}");
  assert_int_equal(error_code_of(lsp_client_response(&c, 11, WAIT_MS)), -32600);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  assert_int_equal(lsp_client_wait_exit(&c, 0, WAIT_MS), 0);
  lsp_client_free(&c);
}

static void test_exit_codes(void **state) {
  (void)state;
  lsp_client c;
  start(&c, NULL, NULL);
  initialize(&c, 1, 0);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  assert_int_equal(lsp_client_wait_exit(&c, 0, WAIT_MS), 1); /* exit without shutdown */
  lsp_client_free(&c);

  start(&c, NULL, NULL);
  initialize(&c, 1, 0);
  assert_int_equal(lsp_client_wait_exit(&c, 1, WAIT_MS), 1); /* end of input, no shutdown */
  lsp_client_free(&c);

  start(&c, NULL, NULL);
  initialize(&c, 1, 0);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
  result_of(lsp_client_response(&c, 2, WAIT_MS));
  assert_int_equal(lsp_client_wait_exit(&c, 1, WAIT_MS), 0); /* end of input after shutdown */
  lsp_client_free(&c);

  /* Garbage only, then end of input: error answers, no crash, status 1. */
  start(&c, NULL, NULL);
  const char *junk = "\x01\x02 not a header at all\r\n\r\nContent-Length: 3\r\n\r\n[1,";
  lsp_client_send_raw(&c, junk, strlen(junk));
  assert_int_equal(error_code_of(lsp_client_next(&c, WAIT_MS)), -32600);
  assert_int_equal(error_code_of(lsp_client_next(&c, WAIT_MS)), -32700);
  assert_int_equal(lsp_client_wait_exit(&c, 1, WAIT_MS), 1);
  lsp_client_free(&c);
}

/* label_backend_bug.c in a workspace of its own: its path and URI, its text, and the text with
   the bug fixed (the accumulator made on the right device). */
typedef struct bug_doc {
  lsp_workspace ws;
  char path[512];
  char *uri, *buggy, *fixed;
} bug_doc;

static void bug_doc_open(bug_doc *d) {
  assert_int_equal(lsp_workspace_one(&d->ws, "label_backend_bug.c", d->path, sizeof d->path), 0);
  d->uri = uri_of(d->path);
  d->buggy = lsp_read_file(d->path, NULL);
  d->fixed = replace(d->buggy, "dt_zeros(dt_cpu(),", "dt_zeros(acc,");
}

static void bug_doc_close(bug_doc *d) {
  free(d->fixed);
  free(d->buggy);
  free(d->uri);
  lsp_workspace_remove(&d->ws);
}

static void test_diagnostics_follow_unsaved_text(void **state) {
  (void)state;
  bug_doc doc;
  bug_doc_open(&doc);

  lsp_client c;
  start(&c, doc.ws.dir, NULL); /* no -p: compile_commands.json is found next to the file */
  initialize(&c, 1, 0);
  did_open(&c, doc.uri, doc.buggy, 1);
  const cJSON *d = diagnostics_of(publication(&c, doc.uri, 1));
  assert_int_equal(cJSON_GetArraySize(d), 1);
  assert_expected(cJSON_GetArrayItem(d, 0), doc.path, "backend-mismatch", 0);

  did_change(&c, doc.uri, doc.fixed, 2); /* the file on disk keeps the bug */
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, doc.uri, 2))), 0);
  did_change(&c, doc.uri, doc.buggy, 3);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, doc.uri, 3))), 1);
  did_close(&c, doc.uri);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, doc.uri, -1))), 0);
  assert_int_equal(lsp_client_count(&c, "window/showMessage", NULL), 0); /* had a command */
  shutdown_and_exit(&c, 9);

  lsp_client_free(&c);
  bug_doc_close(&doc);
}


/* UTF-16 code units in the first n bytes of UTF-8 text s. */
static int utf16_units(const char *s, size_t n) {
  int units = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char b = (unsigned char)s[i];
    if ((b & 0xC0) == 0x80) continue;
    units += b >= 0xF0 ? 2 : 1;
  }
  return units;
}

/* A finding's fix-it is a quick fix: advertised, carried by the diagnostic, offered for a
   range that meets it (not for another), and applying its WorkspaceEdit to the unsaved text
   makes the finding go away. */
static void test_code_action_quick_fix(void **state) {
  (void)state;
  lsp_workspace ws;
  const char *files[] = {"label_backend_bug.c", NULL};
  assert_int_equal(lsp_workspace_create(&ws, files, "."), 0);
  char path[512];
  lsp_workspace_path(&ws, "label_backend_bug.c", path, sizeof path);
  char *uri = uri_of(path);
  char *disk = lsp_read_file(path, NULL);
  /* the unsaved text: a line more than on disk, so the edit must come from it */
  char *text = replace(disk, "int main(void) {\n", "int main(void) {\n  /* edited */\n");
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", "--rules", TC_SOURCE_DIR "/rules/dt.json", NULL};
  lsp_client c;
  assert_int_equal(lsp_client_spawn(&c, argv, ws.dir, NULL), 0);
  const cJSON *init = initialize(&c, 1, 0);
  const cJSON *cap = cJSON_GetObjectItem(cJSON_GetObjectItem(init, "capabilities"),
                                         "codeActionProvider");
  assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(cap, "codeActionKinds"), 0)->valuestring,
                      "quickfix");
  did_open(&c, uri, text, 1);
  const cJSON *d = cJSON_GetArrayItem(diagnostics_of(publication(&c, uri, 1)), 0);
  assert_non_null(d);
  assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(d, "data"), "fix"));
  char *range = cJSON_PrintUnformatted(cJSON_GetObjectItem(d, "range"));
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"textDocument/codeAction\","
                       "\"params\":{\"textDocument\":{\"uri\":\"%s\"},\"range\":%s,"
                       "\"context\":{\"diagnostics\":[]}}}", uri, range);
  free(range);
  const cJSON *actions = result_of(lsp_client_response(&c, 2, WAIT_MS));
  assert_int_equal(cJSON_GetArraySize(actions), 1);
  const cJSON *a = cJSON_GetArrayItem(actions, 0);
  assert_string_equal(cJSON_GetObjectItem(a, "kind")->valuestring, "quickfix");
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(a, "diagnostics"), 0),
                                          "code")->valuestring, "backend-mismatch");
  const cJSON *edits = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(a, "edit"),
                                                               "changes"), uri);
  assert_int_equal(cJSON_GetArraySize(edits), 1);
  const cJSON *edit = cJSON_GetArrayItem(edits, 0);
  const char *new_text = cJSON_GetObjectItem(edit, "newText")->valuestring;
  assert_string_equal(new_text, "dt_to_device(x, dt_device_of(w))");
  /* the range is `x` in the unsaved text's line, in UTF-16 units (the line has "Σ → 😀") */
  const char *call = strstr(text, "dt_add(w, x)");
  const char *line_start = call;
  int line = 0;
  while (line_start > text && line_start[-1] != '\n') line_start--;
  for (const char *p = text; p < line_start; p++) line += *p == '\n';
  int col = utf16_units(line_start, (size_t)(call + 10 - line_start));
  const cJSON *start = cJSON_GetObjectItem(cJSON_GetObjectItem(edit, "range"), "start");
  const cJSON *end = cJSON_GetObjectItem(cJSON_GetObjectItem(edit, "range"), "end");
  assert_int_equal(cJSON_GetObjectItem(start, "line")->valueint, line);
  assert_int_equal(cJSON_GetObjectItem(start, "character")->valueint, col);
  assert_int_equal(cJSON_GetObjectItem(end, "line")->valueint, line);
  assert_int_equal(cJSON_GetObjectItem(end, "character")->valueint, col + 1);
  char *want_call = NULL;
  if (asprintf(&want_call, "dt_add(w, %s)", new_text) < 0) abort();
  char *fixed = replace(text, "dt_add(w, x)", want_call);
  free(want_call);

  /* nothing for a range elsewhere (the first line) */
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"textDocument/codeAction\","
                       "\"params\":{\"textDocument\":{\"uri\":\"%s\"},\"range\":{\"start\":"
                       "{\"line\":0,\"character\":0},\"end\":{\"line\":0,\"character\":1}},"
                       "\"context\":{\"diagnostics\":[]}}}", uri);
  assert_int_equal(cJSON_GetArraySize(result_of(lsp_client_response(&c, 3, WAIT_MS))), 0);

  did_change(&c, uri, fixed, 2); /* the client applied the edit */
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, uri, 2))), 0);
  shutdown_and_exit(&c, 4);
  lsp_client_free(&c);
  free(fixed);
  free(text);
  free(disk);
  free(uri);
  lsp_workspace_remove(&ws);
}

/* ggml's fix-it replaces a whole call (memcpy into a GPU tensor's data becomes
   ggml_backend_tensor_set): the quick fix's edit spans the call, and applying it leaves nothing
   to report. Skipped without ggml's headers. */
static void test_code_action_whole_call(void **state) {
  (void)state;
#ifndef TC_GGML_INCLUDE
  skip();
#else
  lsp_workspace ws;
  char path[512];
  assert_int_equal(lsp_workspace_one_with(&ws, "ggml_upload_bug.c", TC_GGML_INCLUDE, path,
                                          sizeof path), 0);
  char *uri = uri_of(path);
  char *text = lsp_read_file(path, NULL);
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", "--rules", TC_SOURCE_DIR "/rules/ggml.json", NULL};
  lsp_client c;
  assert_int_equal(lsp_client_spawn(&c, argv, ws.dir, NULL), 0);
  initialize(&c, 1, 0);
  did_open(&c, uri, text, 1);
  const cJSON *ds = diagnostics_of(publication(&c, uri, 1));
  assert_int_equal(cJSON_GetArraySize(ds), 1);
  const cJSON *d = cJSON_GetArrayItem(ds, 0);
  assert_string_equal(cJSON_GetObjectItem(d, "code")->valuestring, "ggml-host-access");
  char *range = cJSON_PrintUnformatted(cJSON_GetObjectItem(d, "range"));
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"textDocument/codeAction\","
                       "\"params\":{\"textDocument\":{\"uri\":\"%s\"},\"range\":%s,"
                       "\"context\":{\"diagnostics\":[]}}}", uri, range);
  free(range);
  const cJSON *actions = result_of(lsp_client_response(&c, 2, WAIT_MS));
  assert_int_equal(cJSON_GetArraySize(actions), 1);
  const cJSON *edits = cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(actions, 0), "edit"), "changes"),
      uri);
  assert_int_equal(cJSON_GetArraySize(edits), 1);
  const cJSON *edit = cJSON_GetArrayItem(edits, 0);
  assert_string_equal(cJSON_GetObjectItem(edit, "newText")->valuestring,
                      "ggml_backend_tensor_set(w, host, 0, sizeof host)");
  const char *old_call = "memcpy(w->data, host, sizeof host)";
  const char *at = strstr(text, old_call);
  assert_non_null(at);
  int line = 0, col = 0;
  for (const char *p = text; p < at; p++) {
    col = *p == '\n' ? 0 : col + 1;
    line += *p == '\n';
  }
  const cJSON *er = cJSON_GetObjectItem(edit, "range");
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(er, "start"), "line")->valueint, line);
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(er, "start"), "character")->valueint, col);
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(er, "end"), "line")->valueint, line);
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(er, "end"), "character")->valueint,
                   col + (int)strlen(old_call));
  char *fixed = replace(text, old_call, "ggml_backend_tensor_set(w, host, 0, sizeof host)");
  did_change(&c, uri, fixed, 2);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, uri, 2))), 0);
  shutdown_and_exit(&c, 3);
  lsp_client_free(&c);
  free(fixed);
  free(text);
  free(uri);
  lsp_workspace_remove(&ws);
#endif
}

/* A text that crashes libclang (2,000 unary minus signs) costs that analysis only: the server
   says so and keeps serving the same document and others. */
static void test_crashing_text_server_survives(void **state) {
  (void)state;
  lsp_workspace ws;
  char path[512];
  assert_int_equal(lsp_workspace_one(&ws, "label_backend_bug.c", path, sizeof path), 0);
  char *uri = uri_of(path);
  char *buggy = lsp_read_file(path, NULL);
  size_t n = 2000;
  char *crash = malloc(8 + 2 * n + 4);
  memcpy(crash, "int x = ", 8);
  for (size_t i = 0; i < n; i++) memcpy(crash + 8 + 2 * i, "- ", 2);
  strcpy(crash + 8 + 2 * n, "1;\n");

  lsp_client c;
  start(&c, ws.dir, NULL);
  initialize(&c, 1, 0);
  did_open(&c, uri, crash, 1);
  const cJSON *m = lsp_client_notification(&c, "window/showMessage", NULL, WAIT_MS);
  assert_non_null(m);
  const char *text = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "message")->valuestring;
  assert_non_null(strstr(text, "the parser crashed"));
  did_change(&c, uri, buggy, 2);
  const cJSON *d = diagnostics_of(publication(&c, uri, 2));
  assert_int_equal(cJSON_GetArraySize(d), 1);
  assert_expected(cJSON_GetArrayItem(d, 0), path, "backend-mismatch", 0);
  shutdown_and_exit(&c, 9);
  lsp_client_free(&c);
  free(crash);
  free(buggy);
  free(uri);
  lsp_workspace_remove(&ws);
}

/* The editor shows what CI shows: opening weights.c analyzes its whole program (the database's
   component: tests/wholedb/modes), so the findings its tags cause in main.c and helpers.c are
   published; an unsaved edit of weights.c that fixes them clears them in those files. */
static void test_whole_program_of_the_document(void **state) {
  (void)state;
  lsp_workspace ws;
  const char *none[] = {NULL};
  assert_int_equal(lsp_workspace_create(&ws, none, NULL), 0);
  const char *names[] = {"model.h", "weights.c", "config.c", "helpers.c", "main.c", "other.c"};
  char path[512], *db = strdup("[");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char src[512];
    snprintf(src, sizeof src, "%s/tests/wholedb/modes/%s", TC_SOURCE_DIR, names[i]);
    char *text = lsp_read_file(src, NULL);
    assert_non_null(text);
    lsp_workspace_path(&ws, names[i], path, sizeof path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    if (strstr(names[i], ".c")) {
      char entry[2048];
      snprintf(entry, sizeof entry,
               "%s{\"directory\": \"%s\", \"file\": \"%s\", \"arguments\": [\"cc\", "
               "\"-std=c11\", \"-I%s\", \"-c\", \"%s\"]}",
               db[1] ? "," : "", ws.dir, path, TC_RUNTIME_INCLUDE, path);
      db = realloc(db, strlen(db) + strlen(entry) + 4);
      strcat(db, entry);
    }
  }
  strcat(db, "]");
  lsp_workspace_path(&ws, "compile_commands.json", path, sizeof path);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(db, f);
  fclose(f);
  free(db);

  char weights[512], mainc[512], helpers[512];
  lsp_workspace_path(&ws, "weights.c", weights, sizeof weights);
  lsp_workspace_path(&ws, "main.c", mainc, sizeof mainc);
  lsp_workspace_path(&ws, "helpers.c", helpers, sizeof helpers);
  char *uri = uri_of(weights), *main_uri = uri_of(mainc), *helpers_uri = uri_of(helpers);
  char *text = lsp_read_file(weights, NULL);
  char *fixed = replace(text, "dt_sim(0)", "dt_cpu()");

  lsp_client c;
  start(&c, ws.dir, NULL);
  initialize(&c, 1, 0);
  did_open(&c, uri, text, 1);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, main_uri, -1))), 3);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, helpers_uri, -1))), 1);
  did_change(&c, uri, fixed, 2); /* not saved: main.c's dt_add and helpers.c's dt_mul pass */
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, main_uri, -1))), 2);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, helpers_uri, -1))), 0);
  shutdown_and_exit(&c, 9);
  lsp_client_free(&c);
  free(fixed);
  free(text);
  free(uri);
  free(main_uri);
  free(helpers_uri);
  lsp_workspace_remove(&ws);
}

/* The session keeps the other units of the program lowered between edits, but never past a
   change on disk: weights.c rewritten behind the editor's back (not open) is lowered again at
   the next edit of main.c, and its fix shows. */
static void test_whole_program_follows_disk(void **state) {
  (void)state;
  lsp_workspace ws;
  char src[512], mainc[512], weights[512];
  snprintf(src, sizeof src, "%s/tests/wholedb/modes", TC_SOURCE_DIR);
  const char *files[] = {"model.h", "main.c", "weights.c", "config.c", "helpers.c", "other.c", NULL};
  assert_int_equal(lsp_workspace_create_from(&ws, src, files, "."), 0);
  lsp_workspace_path(&ws, "main.c", mainc, sizeof mainc);
  lsp_workspace_path(&ws, "weights.c", weights, sizeof weights);
  char *main_uri = uri_of(mainc), *text = lsp_read_file(mainc, NULL);
  char *w = lsp_read_file(weights, NULL), *w_cpu = replace(w, "dt_sim(0)", "dt_cpu()");
  lsp_client c;
  start(&c, ws.dir, NULL);
  initialize(&c, 1, 0);
  did_open(&c, main_uri, text, 1);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, main_uri, 1))), 3);
  did_change(&c, main_uri, text, 2); /* the other units from the session now */
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, main_uri, 2))), 3);
  FILE *f = fopen(weights, "w");
  assert_non_null(f);
  fputs(w_cpu, f);
  fclose(f);
  did_change(&c, main_uri, text, 3); /* dt_add(x, w) passes now: x and w are both cpu */
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, main_uri, 3))), 2);
  shutdown_and_exit(&c, 2);
  lsp_client_free(&c);
  free(w_cpu);
  free(w);
  free(text);
  free(main_uri);
  lsp_workspace_remove(&ws);
}

static void test_debounce_analyzes_latest_only(void **state) {
  (void)state;
  bug_doc doc;
  bug_doc_open(&doc);

  lsp_client c;
  start(&c, doc.ws.dir, NULL);
  /* A long quiet period, so that a loaded machine cannot split the burst below. */
  initialize_with(&c, 1, 0, 1500);
  did_open(&c, doc.uri, doc.fixed, 1);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, doc.uri, 1))), 0);
  /* A burst of typing: versions 2..21, alternating; the last one has the bug. */
  for (int v = 2; v <= 21; v++) {
    did_change(&c, doc.uri, v % 2 ? doc.buggy : doc.fixed, v);
    nanosleep(&(struct timespec){0, 50 * 1000000}, NULL); /* typing speed: 20 keys a second */
  }
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, doc.uri, 21))), 1);
  int intermediate = 0;
  const cJSON *m;
  cJSON_ArrayForEach(m, c.seen) {
    const cJSON *method = cJSON_GetObjectItem(m, "method");
    if (method && strcmp(method->valuestring, "textDocument/publishDiagnostics") == 0) {
      int v = version_of(m);
      intermediate += v > 1 && v < 21;
    }
  }
  assert_int_equal(intermediate, 0);
  shutdown_and_exit(&c, 2);

  lsp_client_free(&c);
  bug_doc_close(&doc);
}

static void test_header_findings_and_build_folder(void **state) {
  (void)state;
  lsp_workspace ws;
  const char *files[] = {"uses_helper_bug.c", "helpers.h", NULL};
  assert_int_equal(lsp_workspace_create(&ws, files, "build"), 0);
  char main_path[512], header_path[512];
  lsp_workspace_path(&ws, "uses_helper_bug.c", main_path, sizeof main_path);
  lsp_workspace_path(&ws, "helpers.h", header_path, sizeof header_path);
  char *main_uri = uri_of(main_path), *header_uri = uri_of(header_path);
  char *text = lsp_read_file(main_path, NULL);
  char *on_cpu = replace(text, "dt_ones(dt_sim(0),", "dt_ones(dt_cpu(),");

  lsp_client c;
  start(&c, "/", NULL); /* the server's own folder does not matter */
  initialize(&c, 1, 0);
  did_open(&c, main_uri, text, 1);
  const cJSON *h = diagnostics_of(publication(&c, header_uri, -1));
  assert_int_equal(cJSON_GetArraySize(h), 1);
  assert_expected(cJSON_GetArrayItem(h, 0), header_path, "backend-mismatch", 0);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, main_uri, 1))), 0);
  assert_int_equal(lsp_client_count(&c, "window/showMessage", NULL), 0); /* build/ was found */

  /* The header itself opened: the database does not list it, but a unit includes it, so it is
     analyzed through that unit's whole program (what `tagcheck -p DIR helpers.h` reports), with
     no fallback and no message, and shows the finding the .c file's unit has in it. */
  char *header_text = lsp_read_file(header_path, NULL);
  did_open(&c, header_uri, header_text, 1);
  h = diagnostics_of(publication(&c, header_uri, 1));
  assert_int_equal(cJSON_GetArraySize(h), 1);
  assert_expected(cJSON_GetArrayItem(h, 0), header_path, "backend-mismatch", 0);
  assert_int_equal(lsp_client_count(&c, "window/showMessage", NULL), 0);
  free(header_text);

  did_change(&c, main_uri, on_cpu, 2);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, header_uri, -1))), 0);
  shutdown_and_exit(&c, 2);

  lsp_client_free(&c);
  free(on_cpu);
  free(text);
  free(main_uri);
  free(header_uri);
  lsp_workspace_remove(&ws);
}

static void test_fallback_flags_one_message(void **state) {
  (void)state;
  lsp_workspace ws;
  const char *files[] = {"label_backend_bug.c", NULL};
  assert_int_equal(lsp_workspace_create(&ws, files, NULL), 0);
  char path[512];
  lsp_workspace_path(&ws, "label_backend_bug.c", path, sizeof path);
  char *uri = uri_of(path);
  char *text = lsp_read_file(path, NULL);

  lsp_client c;
  start(&c, ws.dir, NULL);
  initialize(&c, 1, 0);
  did_open(&c, uri, text, 1);
  const cJSON *d = diagnostics_of(publication(&c, uri, 1));
  /* The fallback flags find the runtime's headers: the bug is still found. */
  assert_int_equal(cJSON_GetArraySize(d), 1);
  assert_expected(cJSON_GetArrayItem(d, 0), path, "backend-mismatch", 0);
  did_change(&c, uri, text, 2);
  publication(&c, uri, 2);
  assert_int_equal(lsp_client_count(&c, "window/showMessage", NULL), 1);
  const cJSON *m;
  cJSON_ArrayForEach(m, c.seen) {
    const cJSON *method = cJSON_GetObjectItem(m, "method");
    if (method && strcmp(method->valuestring, "window/showMessage") == 0) {
      const char *msg = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "message")->valuestring;
      assert_non_null(strstr(msg, "label_backend_bug.c"));
      assert_non_null(strstr(msg, "-std=c11"));
    }
  }
  shutdown_and_exit(&c, 2);

  lsp_client_free(&c);
  free(text);
  free(uri);
  lsp_workspace_remove(&ws);
}

static void test_p_dir_and_utf8_positions(void **state) {
  (void)state;
  lsp_workspace ws;
  const char *files[] = {"label_backend_bug.c", NULL};
  assert_int_equal(lsp_workspace_create(&ws, files, "db"), 0); /* found only through -p */
  char path[512], db[512];
  lsp_workspace_path(&ws, "label_backend_bug.c", path, sizeof path);
  lsp_workspace_path(&ws, "db", db, sizeof db);
  char *uri = uri_of(path);
  char *text = lsp_read_file(path, NULL);

  lsp_client c;
  start(&c, "/", db);
  const cJSON *r = initialize(&c, 1, 1);
  assert_string_equal(
      cJSON_GetObjectItem(cJSON_GetObjectItem(r, "capabilities"), "positionEncoding")->valuestring, "utf-8");
  did_open(&c, uri, text, 1);
  const cJSON *d = diagnostics_of(publication(&c, uri, 1));
  assert_int_equal(cJSON_GetArraySize(d), 1);
  assert_expected(cJSON_GetArrayItem(d, 0), path, "backend-mismatch", 1);
  assert_int_equal(lsp_client_count(&c, "window/showMessage", NULL), 0);
  shutdown_and_exit(&c, 2);

  lsp_client_free(&c);
  free(text);
  free(uri);
  lsp_workspace_remove(&ws);
}

static void write_config(const char *dir, const char *json) {
  char path[600];
  snprintf(path, sizeof path, "%s/.tagcheck.json", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(json, f);
  fclose(f);
}

static void test_project_config_and_unsaved_suppression(void **state) {
  (void)state;
  lsp_workspace ws;
  const char *files[] = {"label_backend_bug.c", NULL};
  assert_int_equal(lsp_workspace_create(&ws, files, "."), 0);
  write_config(ws.dir, "{\"severity\": {\"backend-mismatch\": \"warning\"}}\n");
  char path[512];
  lsp_workspace_path(&ws, "label_backend_bug.c", path, sizeof path);
  char *uri = uri_of(path);
  char *text = lsp_read_file(path, NULL);
  unsigned line, byte_col, utf16_col;
  assert_int_equal(lsp_fixture_expect(path, "backend-mismatch", &line, &byte_col, &utf16_col), 0);
  /* A suppression comment typed on the line before the call, not saved. */
  char *bug_line = strstr(text, "  dt_tensor *y = label(");
  assert_non_null(bug_line);
  char *suppressed = malloc(strlen(text) + 64);
  sprintf(suppressed, "%.*s  // tagcheck: ignore[backend-mismatch] checked by hand\n%s",
          (int)(bug_line - text), text, bug_line);

  lsp_client c;
  start(&c, "/", NULL); /* the configuration is found from the document's folder */
  initialize(&c, 1, 0);
  did_open(&c, uri, text, 1);
  const cJSON *d = diagnostics_of(publication(&c, uri, 1));
  assert_int_equal(cJSON_GetArraySize(d), 1);
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(d, 0), "severity")->valueint, 2);
  did_change(&c, uri, suppressed, 2);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, uri, 2))), 0);

  /* The configuration changes on disk: the next analysis follows it. */
  write_config(ws.dir, "{\"disable\": [\"backend-mismatch\"]}\n");
  did_change(&c, uri, text, 3);
  assert_int_equal(cJSON_GetArraySize(diagnostics_of(publication(&c, uri, 3))), 0);
  write_config(ws.dir, "{}\n");
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"workspace/didChangeWatchedFiles\","
                       "\"params\":{\"changes\":[]}}");
  d = diagnostics_of(publication(&c, uri, 3)); /* re-analyzed without an edit */
  assert_int_equal(cJSON_GetArraySize(d), 1);
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(d, 0), "severity")->valueint, 1);

  /* A broken configuration: one message naming the file, however many edits follow. */
  write_config(ws.dir, "{\"disable\": [\n");
  did_change(&c, uri, text, 4);
  const cJSON *shown = lsp_client_take(&c, "window/showMessage", NULL, -1, WAIT_MS);
  assert_non_null(shown);
  assert_non_null(strstr(cJSON_GetObjectItem(cJSON_GetObjectItem(shown, "params"), "message")->valuestring,
                         ".tagcheck.json"));
  did_change(&c, uri, text, 5);
  did_save(&c, uri);
  /* The next failed analysis is only logged. */
  for (;;) {
    const cJSON *log = lsp_client_take(&c, "window/logMessage", NULL, -1, WAIT_MS);
    assert_non_null(log);
    const char *msg = cJSON_GetObjectItem(cJSON_GetObjectItem(log, "params"), "message")->valuestring;
    if (strstr(msg, "could not be analyzed")) break;
  }
  assert_int_equal(lsp_client_count(&c, "window/showMessage", NULL), 1);
  shutdown_and_exit(&c, 9);

  lsp_client_free(&c);
  free(suppressed);
  free(text);
  free(uri);
  lsp_workspace_remove(&ws);
}

/* xorshift64*: the same pseudo-random session on every run. */
static uint64_t next_random(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

/* Hostile input: random bytes framed correctly, truncated and mutated JSON, requests and
   notifications with parameters of the wrong types and absurd numbers. The server must answer
   what deserves an answer and still work afterwards. */
static void test_garbage_never_crashes(void **state) {
  (void)state;
  static const char *const templates[] = {
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":5}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":"
      "\"file:///nonexistent/fz.c\",\"version\":1e300,\"text\":\"int main(void){return 0;}\"}}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":"
      "\"file:///nonexistent/fz.c\",\"version\":-1e300},\"contentChanges\":[{\"range\":{\"start\":{"
      "\"line\":1e20,\"character\":-5},\"end\":{\"line\":\"x\",\"character\":null}},\"text\":\"\\u00e9\"}]}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":"
      "\"file:///nonexistent/fz.c\"},\"contentChanges\":\"all\"}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didClose\",\"params\":[]}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didSave\",\"params\":{\"textDocument\":{\"uri\":7}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1e999,\"method\":\"initialize\",\"params\":{\"capabilities\":[]}}",
      "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"textDocument/diagnostic\",\"params\":null}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"unexpected\":true}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":"
      "\"untitled:Untitled-1\",\"text\":\"x\"}}}",
  };
  const size_t n_templates = sizeof templates / sizeof *templates;
  lsp_client c;
  start(&c, "/", NULL);
  initialize(&c, 1, 0);
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  char body[2048];
  for (int i = 0; i < 400; i++) {
    uint64_t r = next_random(&seed);
    size_t n;
    if (r % 4 == 0) { /* random bytes */
      n = (size_t)(next_random(&seed) % 200);
      for (size_t k = 0; k < n; k++) body[k] = (char)(next_random(&seed) & 0xFF);
    } else { /* a template, maybe truncated, maybe with a few bytes changed */
      const char *t = templates[next_random(&seed) % n_templates];
      n = strlen(t);
      memcpy(body, t, n);
      if (r % 4 == 1) n = (size_t)(next_random(&seed) % (n + 1));
      if (r % 4 == 2)
        for (int k = 0; k < 3; k++) body[next_random(&seed) % n] = (char)(next_random(&seed) & 0x7F);
    }
    char header[64];
    int h = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", n);
    assert_int_equal(lsp_client_send_raw(&c, header, (size_t)h), 0);
    assert_int_equal(lsp_client_send_raw(&c, body, n), 0);
    /* Read what came back now and then, so neither side blocks on a full pipe. */
    while (lsp_client_next(&c, 0)) {}
  }
  /* Framing garbage too, then a clean request: still answered, and a clean exit. */
  const char *bad = "Content-Length: -1\r\n\r\nContent-Length: 99999999999\r\n\r\n\r\n";
  lsp_client_send_raw(&c, bad, strlen(bad));
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":424242,\"method\":\"shutdown\"}");
  assert_true(cJSON_IsNull(result_of(lsp_client_response(&c, 424242, WAIT_MS))));
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  assert_int_equal(lsp_client_wait_exit(&c, 0, WAIT_MS), 0);
  lsp_client_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_protocol_errors),
      cmocka_unit_test(test_exit_codes),
      cmocka_unit_test(test_diagnostics_follow_unsaved_text),
      cmocka_unit_test(test_code_action_quick_fix),
      cmocka_unit_test(test_code_action_whole_call),
      cmocka_unit_test(test_debounce_analyzes_latest_only),
      cmocka_unit_test(test_crashing_text_server_survives),
      cmocka_unit_test(test_whole_program_of_the_document),
      cmocka_unit_test(test_whole_program_follows_disk),
      cmocka_unit_test(test_header_findings_and_build_folder),
      cmocka_unit_test(test_fallback_flags_one_message),
      cmocka_unit_test(test_p_dir_and_utf8_positions),
      cmocka_unit_test(test_project_config_and_unsaved_suppression),
      cmocka_unit_test(test_garbage_never_crashes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
