/* tests/lsp/test_lsp_uri.c — file:// URIs from clients to local paths (percent-decoding,
 * localhost authority, rejected schemes and hosts), and back through the report layer's
 * tc_file_uri, which the server uses for files that are not open. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_uri.h"
#include "base/uri.h"

static void expect_path(const char *uri, const char *want) {
  char *p = tc_lsp_uri_to_path(uri);
  if (!want) {
    assert_null(p);
    return;
  }
  assert_non_null(p);
  assert_string_equal(p, want);
  free(p);
}

static void test_decode(void **state) {
  (void)state;
  expect_path("file:///home/u/a.c", "/home/u/a.c");
  expect_path("file:///home/u/my%20dir/b%23%3F.c", "/home/u/my dir/b#?.c");
  expect_path("file:///tmp/%C3%A9t%c3%a9.c", "/tmp/\xc3\xa9t\xc3\xa9.c");
  expect_path("FILE://localhost/x/y.c", "/x/y.c");
  expect_path("file:///x/y.c?query#frag", "/x/y.c");
  expect_path("untitled:Untitled-1", NULL);
  expect_path("file://server/share/a.c", NULL);
  expect_path("file://relative.c", NULL);
  expect_path("file:///bad%zz.c", NULL);
  expect_path("file:///bad%2", NULL);
  expect_path("file:///nul%00.c", NULL);
  expect_path(NULL, NULL);
}

static void test_roundtrip(void **state) {
  (void)state;
  const char *paths[] = {"/a/b.c", "/with space/x%y.h", "/t/\xc3\xa9#?.c", "/[brackets]/f+g.c"};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    char *uri = tc_file_uri(paths[i]);
    assert_non_null(uri);
    assert_int_equal(strncmp(uri, "file:///", 8), 0);
    assert_null(strchr(uri, ' '));
    expect_path(uri, paths[i]);
    free(uri);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode),
      cmocka_unit_test(test_roundtrip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
