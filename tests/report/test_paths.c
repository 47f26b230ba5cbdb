/* tests/report/test_paths.c — path and URI helpers (uri.c, glob.c, utf8.c): normalization,
 * root-relative paths, percent-encoding, globs with * ? [] and double stars, UTF-8 repair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/glob.h"
#include "report/uri.h"
#include "report/utf8.h"

static void check_norm(const char *in, const char *out) {
  char *n = tc_normalize_path(in);
  assert_string_equal(n, out);
  free(n);
}

static void test_normalize(void **state) {
  (void)state;
  check_norm("/a/./b//c/../d", "/a/b/d");
  check_norm("/../..", "/");
  check_norm("/a/b/", "/a/b");
  check_norm("/", "/");
  char *rel = tc_normalize_path("x/y");
  assert_true(rel[0] == '/');
  assert_non_null(strstr(rel, "/x/y"));
  free(rel);
}

static void test_below_root_and_encoding(void **state) {
  (void)state;
  char *r = tc_path_below_root("/repo/", "/repo/src/a.c");
  assert_string_equal(r, "src/a.c");
  free(r);
  assert_null(tc_path_below_root("/repo/", "/repository/a.c"));
  assert_null(tc_path_below_root("/repo/", "/repo/"));
  r = tc_path_below_root("/repo/", "/repo/src/../b.c");
  assert_string_equal(r, "b.c");
  free(r);
  char *e = tc_uri_encode_path("a b/c#d?e%f\xff:g~h.i_j-k");
  assert_string_equal(e, "a%20b/c%23d%3Fe%25f%FF%3Ag~h.i_j-k");
  free(e);
  e = tc_file_uri("/x y/z/");
  assert_string_equal(e, "file:///x%20y/z/");
  free(e);
}

static void test_globs(void **state) {
  (void)state;
  assert_true(tc_glob_match("/r/third_party/**", "/r/third_party/a/b.c"));
  assert_true(tc_glob_match("/r/**/*.gen.c", "/r/x.gen.c"));
  assert_true(tc_glob_match("/r/**/*.gen.c", "/r/a/b/x.gen.c"));
  assert_false(tc_glob_match("/r/*.c", "/r/a/b.c"));
  assert_true(tc_glob_match("/r/?.c", "/r/a.c"));
  assert_false(tc_glob_match("/r/?.c", "/r/ab.c"));
  assert_true(tc_glob_match("/r/[a-c]x.c", "/r/bx.c"));
  assert_false(tc_glob_match("/r/[!a-c]x.c", "/r/bx.c"));
  assert_true(tc_glob_match("/r/build", "/r/build"));
  assert_false(tc_glob_match("/r/build", "/r/build2"));
  assert_true(tc_glob_match("/r/a*b*c", "/r/aXbYc"));
  assert_false(tc_glob_match("/r/a*b*c", "/r/aXbY"));
  assert_true(tc_glob_match("/r/[x", "/r/[x")); /* an unclosed class is a literal */
}

static void test_utf8(void **state) {
  (void)state;
  const char ok[] = "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80";
  char *s = tc_utf8_sanitize(ok, strlen(ok));
  assert_string_equal(s, ok);
  free(s);
  const char bad[] = "a\xff" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82";
  s = tc_utf8_sanitize(bad, sizeof bad - 1);
  /* every invalid byte becomes U+FFFD; valid text around it stays */
  assert_non_null(strstr(s, "a\xEF\xBF\xBD" "b"));
  assert_int_equal(s[strlen(s) - 7], 'd');
  free(s);
  const char nul[] = {'x', 0, 'y'};
  s = tc_utf8_sanitize(nul, 3);
  assert_string_equal(s, "xy");
  free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_normalize),
      cmocka_unit_test(test_below_root_and_encoding),
      cmocka_unit_test(test_globs),
      cmocka_unit_test(test_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
