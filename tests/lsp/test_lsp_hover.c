/* tests/lsp/test_lsp_hover.c — textDocument/hover against the real `tagcheck --lsp`: the tag of
 * the tensor under the cursor as the analysis sees it there — a cpu tensor, a cuda one, an
 * autodiff-wrapped one, one whose device depends on a branch (both tags listed, the joined
 * backend unknown), one in a function of another unit (known from the caller through the
 * compile database: the whole program; as a call's argument and as the parameter in the
 * signature), a ggml tensor before and after its context is
 * allocated, and null where there is no tensor. Positions are found in the fixtures' text
 * (tests/lsp/fixtures/hover_*.c), never hard-coded. */
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

#define WAIT_MS 60000 /* each hover runs one analysis: generous for sanitizer builds */

typedef struct session {
  lsp_workspace ws;
  lsp_client c;
  int next_id;
} session;

static char *uri_of(const char *path) {
  char *u = malloc(strlen(path) + 8);
  sprintf(u, "file://%s", path);
  return u;
}

/* A session in a workspace of the dt hover fixtures with their compile_commands.json. */
static int setup_dt(void **state) {
  session *s = calloc(1, sizeof *s);
  const char *files[] = {"hover.h", "hover_main.c", "hover_other.c", NULL};
  assert_int_equal(lsp_workspace_create(&s->ws, files, "."), 0);
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", "--rules", TC_SOURCE_DIR "/rules/dt.json", NULL};
  assert_int_equal(lsp_client_spawn(&s->c, argv, s->ws.dir, NULL), 0);
  const cJSON *init = lsp_client_initialize(&s->c, 1, 0, WAIT_MS);
  assert_non_null(init);
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(init, "capabilities"),
                                               "hoverProvider")));
  s->next_id = 2;
  *state = s;
  return 0;
}

static int teardown(void **state) {
  session *s = *state;
  assert_int_equal(lsp_client_shutdown(&s->c, 999, WAIT_MS), 0);
  lsp_client_free(&s->c);
  lsp_workspace_remove(&s->ws);
  free(s);
  return 0;
}

/* Opens fixture `name` of the workspace; its text into *text (heap). Returns its URI (heap). */
static char *open_fixture(session *s, const char *name, char **text) {
  char path[512];
  lsp_workspace_path(&s->ws, name, path, sizeof path);
  *text = lsp_read_file(path, NULL);
  assert_non_null(*text);
  char *uri = uri_of(path);
  assert_int_equal(lsp_client_open(&s->c, uri, *text, 1), 0);
  return uri;
}

/* The hover's result at `offset` bytes into the first occurrence of `needle` in text (ASCII
   fixtures: bytes are UTF-16 units). The Markdown into *md (borrowed), NULL for a null result;
   the range's start character into *start (-1 without one). */
static void hover_at(session *s, const char *uri, const char *text, const char *needle,
                     size_t offset, const char **md, int *start) {
  const char *at = strstr(text, needle);
  assert_non_null(at);
  at += offset;
  int line = 0;
  const char *line_start = text;
  for (const char *p = text; p < at; p++)
    if (*p == '\n') {
      line++;
      line_start = p + 1;
    }
  int id = s->next_id++;
  lsp_client_sendf(&s->c,
                   "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"textDocument/hover\",\"params\":"
                   "{\"textDocument\":{\"uri\":\"%s\"},\"position\":{\"line\":%d,\"character\":%d}}}",
                   id, uri, line, (int)(at - line_start));
  const cJSON *r = lsp_client_response(&s->c, id, WAIT_MS);
  assert_non_null(r);
  assert_null(cJSON_GetObjectItem(r, "error"));
  const cJSON *h = cJSON_GetObjectItem(r, "result");
  assert_non_null(h);
  *md = NULL;
  *start = -1;
  if (cJSON_IsNull(h)) return;
  const cJSON *contents = cJSON_GetObjectItem(h, "contents");
  assert_string_equal(cJSON_GetObjectItem(contents, "kind")->valuestring, "markdown");
  *md = cJSON_GetObjectItem(contents, "value")->valuestring;
  const cJSON *range = cJSON_GetObjectItem(h, "range");
  if (range) {
    const cJSON *st = cJSON_GetObjectItem(range, "start");
    assert_int_equal(cJSON_GetObjectItem(st, "line")->valueint, line);
    *start = cJSON_GetObjectItem(st, "character")->valueint;
  }
}

static void assert_has(const char *md, const char *want) {
  assert_non_null(md);
  if (!strstr(md, want)) fail_msg("hover lacks \"%s\":\n%s", want, md);
}

static void assert_lacks(const char *md, const char *unwanted) {
  assert_non_null(md);
  if (strstr(md, unwanted)) fail_msg("hover has \"%s\":\n%s", unwanted, md);
}

/* A cpu tensor (hovering its declared name), a cuda one (as a call's argument), an autodiff
   one; null on an int. */
static void test_hover_cpu_cuda_autodiff(void **state) {
  session *s = *state;
  char *text;
  char *uri = open_fixture(s, "hover_main.c", &text);
  const char *md;
  int start;
  hover_at(s, uri, text, "host = dt_zeros", 1, &md, &start);
  assert_has(md, "**`host`**: tensor on `cpu`");
  assert_has(md, "- backend: `cpu`");
  assert_has(md, "- autodiff wrapper: no");
  assert_has(md, "- kind: `float`");
  assert_lacks(md, "allocation"); /* dt's rules track no buffers */
  const char *decl = strstr(text, "host = dt_zeros");
  const char *ls = decl;
  while (ls > text && ls[-1] != '\n') ls--;
  assert_int_equal(start, (int)(decl - ls)); /* the range is the name */

  hover_at(s, uri, text, "scale(gpu)", 6, &md, &start);
  assert_has(md, "**`gpu`**: tensor on `cuda:0`");
  assert_has(md, "- backend: `cuda`");
  assert_has(md, "- device ordinal: `0`");

  hover_at(s, uri, text, "grad = dt_ones", 0, &md, &start);
  assert_has(md, "tensor on `autodiff<cpu>`");
  assert_has(md, "- autodiff wrapper: yes, around `cpu`");

  hover_at(s, uri, text, "argc > 1", 0, &md, &start);
  assert_null(md); /* an int: nothing to say */
  free(uri);
  free(text);
}

/* The device depends on the branch taken: both tags, joined into an unknown backend (the kind,
   the same on both, stays known). */
static void test_hover_differs_by_branch(void **state) {
  session *s = *state;
  char *text;
  char *uri = open_fixture(s, "hover_main.c", &text);
  const char *md;
  int start;
  hover_at(s, uri, text, "dt_add(either", 7, &md, &start);
  assert_has(md, "**`either`**: tensor, its device depends on the path");
  assert_has(md, "- backend: `unknown`");
  assert_has(md, "- kind: `int`");
  assert_has(md, "`cpu` (int)");
  assert_has(md, "`cuda:0` (int)");
  assert_has(md, "over 2 paths");
  free(uri);
  free(text);
}

/* scale()'s parameter in hover_other.c is what hover_main.c passes: cuda:0, known only from the
   whole program. */
static void test_hover_from_another_unit(void **state) {
  session *s = *state;
  char *main_text, *text;
  char *main_uri = open_fixture(s, "hover_main.c", &main_text);
  char *uri = open_fixture(s, "hover_other.c", &text);
  const char *md;
  int start;
  hover_at(s, uri, text, "dt_mul(t", 7, &md, &start);
  assert_has(md, "**`t`**: tensor on `cuda:0`");
  assert_has(md, "- kind: `float`");
  hover_at(s, uri, text, "dt_tensor *t)", 11, &md, &start); /* the parameter, in the signature */
  assert_has(md, "**`t`**: tensor on `cuda:0`");
  free(uri);
  free(text);
  free(main_uri);
  free(main_text);
}

/* ggml: a tensor of a no_alloc context is unallocated until ggml_backend_alloc_ctx_tensors, then
   in the backend's buffer. Skipped without ggml's headers. */
static void test_hover_ggml_allocation(void **state) {
  (void)state;
#ifndef TC_GGML_INCLUDE
  skip();
#else
  session s;
  memset(&s, 0, sizeof s);
  char path[512];
  assert_int_equal(lsp_workspace_one_with(&s.ws, "hover_ggml.c", TC_GGML_INCLUDE, path, sizeof path), 0);
  char *text = lsp_read_file(path, NULL);
  assert_non_null(text);
  const char *argv[] = {TC_TAGCHECK_BIN, "--lsp", "--rules", TC_SOURCE_DIR "/rules/ggml.json", NULL};
  assert_int_equal(lsp_client_spawn(&s.c, argv, s.ws.dir, NULL), 0);
  assert_non_null(lsp_client_initialize(&s.c, 1, 0, WAIT_MS));
  s.next_id = 2;
  char *uri = uri_of(path);
  assert_int_equal(lsp_client_open(&s.c, uri, text, 1), 0);
  const char *md;
  int start;
  hover_at(&s, uri, text, "weights = ggml_new", 0, &md, &start);
  assert_has(md, "**`weights`**: tensor");
  assert_has(md, "- allocation: unallocated");
  assert_has(md, "- kind: `f32`");
  hover_at(&s, uri, text, "memset(weights", 7, &md, &start);
  assert_has(md, "tensor on `cpu`");
  assert_has(md, "- allocation: allocated in a cpu buffer");
  assert_int_equal(lsp_client_shutdown(&s.c, 999, WAIT_MS), 0);
  lsp_client_free(&s.c);
  lsp_workspace_remove(&s.ws);
  free(uri);
  free(text);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_hover_cpu_cuda_autodiff, setup_dt, teardown),
      cmocka_unit_test_setup_teardown(test_hover_differs_by_branch, setup_dt, teardown),
      cmocka_unit_test_setup_teardown(test_hover_from_another_unit, setup_dt, teardown),
      cmocka_unit_test(test_hover_ggml_allocation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
