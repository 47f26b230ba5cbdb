/* tests/lsp/test_lsp_docs.c — the document store: open / reopen / find by URI and by path /
 * close, full-text replacement and ranged edits in UTF-16 and UTF-8 positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_docs.h"

static void test_open_find_close(void **state) {
  (void)state;
  tc_lsp_docs d;
  tc_lsp_docs_init(&d);
  tc_lsp_doc *a = tc_lsp_docs_open(&d, "file:///nonexistent/dir/a%20b.c", "int a;", 6, 1);
  tc_lsp_doc *b = tc_lsp_docs_open(&d, "untitled:1", "x", 1, 3);
  assert_non_null(a);
  assert_non_null(b);
  assert_string_equal(a->path, "/nonexistent/dir/a b.c");
  assert_string_equal(a->real, "/nonexistent/dir/a b.c"); /* not on disk: the path itself */
  assert_null(b->path);
  assert_ptr_equal(tc_lsp_docs_find(&d, "untitled:1"), b);
  assert_ptr_equal(tc_lsp_docs_find_path(&d, "/nonexistent/dir/a b.c"), a);
  assert_null(tc_lsp_docs_find_path(&d, "/nonexistent/dir/a.c"));
  /* Reopening replaces the text and keeps one entry. */
  assert_ptr_equal(tc_lsp_docs_open(&d, "file:///nonexistent/dir/a%20b.c", "int aa;", 7, 2), a);
  assert_int_equal(d.n, 2);
  assert_string_equal(a->text, "int aa;");
  assert_int_equal(a->version, 2);
  cJSON_AddArrayToObject(a->published, "file:///nonexistent/dir/a%20b.c");
  cJSON *pub = tc_lsp_docs_close(&d, "file:///nonexistent/dir/a%20b.c");
  assert_non_null(cJSON_GetObjectItem(pub, "file:///nonexistent/dir/a%20b.c"));
  cJSON_Delete(pub);
  assert_int_equal(d.n, 1);
  assert_null(tc_lsp_docs_find(&d, "file:///nonexistent/dir/a%20b.c"));
  assert_null(tc_lsp_docs_close(&d, "file:///never-opened.c"));
  tc_lsp_docs_free(&d);
}

static void test_edits(void **state) {
  (void)state;
  tc_lsp_docs d;
  tc_lsp_docs_init(&d);
  const char *text = "a = \xf0\x9f\x98\x80 + b;\nnext\n";
  tc_lsp_doc *doc = tc_lsp_docs_open(&d, "file:///e.c", text, strlen(text), 1);
  /* Replace "b" (UTF-16 character 9: "a = " 4, emoji 2, " + " 3) with "cc". */
  assert_int_equal(tc_lsp_doc_apply_edit(doc, 0, 9, 0, 10, "cc", 2, 0), 0);
  assert_string_equal(doc->text, "a = \xf0\x9f\x98\x80 + cc;\nnext\n");
  /* The same spot in UTF-8 bytes: "a = " 4, emoji 4, " + " 3 -> 11. */
  assert_int_equal(tc_lsp_doc_apply_edit(doc, 0, 11, 0, 13, "b", 1, 1), 0);
  assert_string_equal(doc->text, "a = \xf0\x9f\x98\x80 + b;\nnext\n");
  /* Across lines, and an insertion at the very end (positions past the end clamp). */
  assert_int_equal(tc_lsp_doc_apply_edit(doc, 0, 11, 1, 2, "X", 1, 1), 0);
  assert_string_equal(doc->text, "a = \xf0\x9f\x98\x80 + Xxt\n");
  assert_int_equal(tc_lsp_doc_apply_edit(doc, 9, 0, 9, 0, "end", 3, 0), 0);
  assert_string_equal(doc->text, "a = \xf0\x9f\x98\x80 + Xxt\nend");
  assert_int_equal(doc->len, strlen(doc->text));
  assert_int_equal(tc_lsp_doc_set_text(doc, "", 0, 5), 0);
  assert_int_equal(doc->len, 0);
  assert_int_equal(doc->version, 5);
  tc_lsp_docs_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_open_find_close),
      cmocka_unit_test(test_edits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
