/* tests/lsp/test_lsp_memory.c — a long editing session against the real `tagcheck --lsp`:
 * 1,000 edits of a document (every fifth one waited for, the others arriving in bursts that the
 * debounce folds), the bug toggled in and out so every analysis differs from the last. Each
 * edit carries ~16 KiB of text, so a leaked copy per edit or per analysis would add megabytes.
 * The server's resident set size after warm-up must stay flat, every waited-for version must be
 * published with the right findings, and at the end the server must still answer at once and
 * exit cleanly: for one unit alone, and for a unit of a five-unit program analyzed whole at
 * every edit (the others from the session's table of lowered units). (Under -DTC_SANITIZE=ON, LeakSanitizer also fails the clean exit on any leak.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_client.h"
#include "lsp_workspace.h"

#define EDITS 1000
#define WAIT_EVERY 5
#define WARMUP 100
#define WAIT_MS 60000
/* Allowed growth of the resident set after warm-up. A leak of one 16 KiB text per edit would
   be ~14 MiB over the session; allocator noise and libclang's caches stay well under this. */
#define RSS_SLACK_KB (6 * 1024)

static char *with_padding(const char *text, int version) {
  size_t pad = 16 * 1024;
  size_t n = strlen(text);
  char *out = malloc(n + pad + 64);
  int h = sprintf(out, "/* edit %d:\n", version);
  memset(out + h, 'x', pad);
  for (size_t i = (size_t)h + 79; i < (size_t)h + pad; i += 80) out[i] = '\n';
  strcpy(out + h + pad, "\n*/\n");
  strcat(out, text);
  return out;
}

/* text with the first `from` replaced by `to` (heap). */
static char *replaced(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  assert_non_null(at);
  char *out = malloc(strlen(text) - strlen(from) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return out;
}

/* 1,000 edits of the document at path (in the project folder dir), alternating between buggy
   (n_buggy findings published on it) and fixed (n_fixed) every WAIT_EVERY edits; the server's
   resident set after WARMUP edits and its largest afterwards must stay within RSS_SLACK_KB. */
static void edit_session(const char *dir, const char *path, const char *buggy, const char *fixed,
                         int n_buggy, int n_fixed, const char *what) {
  char uri[600];
  snprintf(uri, sizeof uri, "file://%s", path);
  lsp_client c;
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", NULL};
  assert_int_equal(lsp_client_spawn(&c, argv, dir, NULL), 0);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                       "\"capabilities\":{},\"initializationOptions\":{\"debounceMs\":20}}}");
  assert_non_null(lsp_client_response(&c, 1, WAIT_MS));
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");

  long rss_warm = 0, rss_max = 0;
  for (int v = 1; v <= EDITS; v++) {
    int has_bug = (v / WAIT_EVERY) % 2;
    char *text = with_padding(has_bug ? buggy : fixed, v);
    cJSON *p = cJSON_CreateObject();
    cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
    cJSON_AddStringToObject(td, "uri", uri);
    cJSON_AddNumberToObject(td, "version", v);
    if (v == 1) {
      cJSON_AddStringToObject(td, "languageId", "c");
      cJSON_AddStringToObject(td, "text", text);
      lsp_client_notify(&c, "textDocument/didOpen", p);
    } else {
      cJSON *ch = cJSON_CreateObject();
      cJSON_AddStringToObject(ch, "text", text);
      cJSON_AddItemToArray(cJSON_AddArrayToObject(p, "contentChanges"), ch);
      lsp_client_notify(&c, "textDocument/didChange", p);
    }
    free(text);
    if (v % WAIT_EVERY != 0) continue;
    /* This version must be published, with the findings exactly when the bug is in. */
    const cJSON *pub;
    do {
      pub = lsp_client_notification(&c, "textDocument/publishDiagnostics", uri, WAIT_MS);
      assert_non_null(pub);
    } while (cJSON_GetObjectItem(cJSON_GetObjectItem(pub, "params"), "version")->valueint != v);
    const cJSON *diags = cJSON_GetObjectItem(cJSON_GetObjectItem(pub, "params"), "diagnostics");
    assert_int_equal(cJSON_GetArraySize(diags), has_bug ? n_buggy : n_fixed);
    /* Keep the client's own memory small: forget what was seen. */
    cJSON_Delete(c.seen);
    c.seen = cJSON_CreateArray();
    long rss = lsp_client_rss_kb(&c);
    assert_true(rss > 0);
    if (v == WARMUP) rss_warm = rss;
    if (v > WARMUP && rss > rss_max) rss_max = rss;
  }
  fprintf(stderr, "%s: server RSS: %ld KiB after %d edits, at most %ld KiB up to %d edits (+%ld KiB)\n",
          what, rss_warm, WARMUP, rss_max, EDITS, rss_max - rss_warm);
  assert_true(rss_max - rss_warm < RSS_SLACK_KB);

  /* Still responsive: a request is answered at once, and the session ends cleanly. */
  double t0 = lsp_client_now_ms();
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
  assert_non_null(lsp_client_response(&c, 2, WAIT_MS));
  fprintf(stderr, "shutdown answered in %.1f ms\n", lsp_client_now_ms() - t0);
  assert_true(lsp_client_now_ms() - t0 < 5000);
  lsp_client_sendf(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  assert_int_equal(lsp_client_wait_exit(&c, 0, WAIT_MS), 0);
  lsp_client_free(&c);
}

/* One unit alone. */
static void test_thousand_edits(void **state) {
  (void)state;
  lsp_workspace ws;
  char path[512];
  assert_int_equal(lsp_workspace_one(&ws, "label_backend_bug.c", path, sizeof path), 0);
  char *buggy = lsp_read_file(path, NULL);
  char *fixed = replaced(buggy, "dt_zeros(dt_cpu(),", "dt_zeros(acc,");
  edit_session(ws.dir, path, buggy, fixed, 1, 0, "one unit");
  free(fixed);
  free(buggy);
  lsp_workspace_remove(&ws);
}

/* The whole program of a five-unit database (tests/wholedb/modes): every edit of main.c lowers
   it again and takes the other units from the session's table, every other analysis differs. */
static void test_thousand_edits_whole_program(void **state) {
  (void)state;
  lsp_workspace ws;
  char src[512], path[512];
  snprintf(src, sizeof src, "%s/tests/wholedb/modes", TC_SOURCE_DIR);
  const char *files[] = {"model.h", "main.c", "weights.c", "config.c", "helpers.c", "other.c", NULL};
  assert_int_equal(lsp_workspace_create_from(&ws, src, files, "."), 0);
  lsp_workspace_path(&ws, "main.c", path, sizeof path);
  char *buggy = lsp_read_file(path, NULL);
  /* x on sim:0 as the weights and g_dev are: only the dt_sub of model.h's sim:1 stays wrong */
  char *fixed = replaced(buggy, "dt_ones(dt_cpu(),", "dt_ones(dt_sim(0),");
  edit_session(ws.dir, path, buggy, fixed, 3, 1, "whole program");
  free(fixed);
  free(buggy);
  lsp_workspace_remove(&ws);
}

int main(void) {
  /* In sanitizer builds AddressSanitizer keeps freed memory in a 256 MiB quarantine, which
     would read as growth; without it the resident set means the same as in a normal build.
     (Ignored by servers built without AddressSanitizer.) */
  const char *asan = getenv("ASAN_OPTIONS");
  char opts[1024];
  snprintf(opts, sizeof opts, "%s%squarantine_size_mb=0", asan ? asan : "", asan && *asan ? ":" : "");
  setenv("ASAN_OPTIONS", opts, 1);
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_thousand_edits),
                                     cmocka_unit_test(test_thousand_edits_whole_program)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
