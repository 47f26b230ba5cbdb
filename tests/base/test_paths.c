/* tests/base/test_paths.c — path and URI helpers (uri.c, glob.c, utf8.c): normalization,
 * root-relative paths, percent-encoding, globs with * ? [] and double stars, UTF-8 repair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/glob.h"
#include "base/uri.h"
#include "base/utf8.h"
#include "base/path.h"

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
  assert_true(tc_glob_match("/r/**/x.c", "/r/x.c"));   /* zero directories */
  assert_false(tc_glob_match("/r/**/x.c", "/r/ax.c")); /* whole directories only */
  assert_true(tc_glob_match("/r/\\*.c", "/r/*.c"));    /* an escaped star is literal */
  assert_false(tc_glob_match("/r/\\*.c", "/r/a.c"));
  assert_false(tc_glob_match("/r/[a-z]", "/r//"));     /* classes never match '/' */
  assert_true(tc_glob_match("/r/**", "/r/"));
  assert_true(tc_glob_match("", ""));
  assert_false(tc_glob_match("", "x"));
}

/* The matcher before it became an automaton: recursive backtracking, exponential on some
   patterns, kept here as the reference for tiny random patterns and paths (its classes are
   the matcher's own, tc_glob_class). */
static int reference_match(const char *p, const char *s) {
  while (*p) {
    if (p[0] == '*' && p[1] == '*') {
      p += 2;
      if (*p == '/') {
        p++;
        if (reference_match(p, s)) return 1;
        for (; *s; s++)
          if (*s == '/' && reference_match(p, s + 1)) return 1;
        return 0;
      }
      for (;; s++) {
        if (reference_match(p, s)) return 1;
        if (!*s) return 0;
      }
    }
    if (*p == '*') {
      p++;
      for (;; s++) {
        if (reference_match(p, s)) return 1;
        if (!*s || *s == '/') return 0;
      }
    }
    if (!*s) return 0;
    if (*p == '?') {
      if (*s == '/') return 0;
      p++, s++;
      continue;
    }
    if (*p == '[') {
      const char *q = p;
      int m = *s == '/' ? 0 : tc_glob_class(&q, *s);
      if (m == 0) return 0;
      if (m == 1) {
        p = q, s++;
        continue;
      }
    }
    if (*p == '\\' && p[1]) p++;
    if (*p != *s) return 0;
    p++, s++;
  }
  return *s == '\0';
}

static void test_globs_agree_with_reference(void **state) {
  (void)state;
  static const char pat_chars[] = "ab/*?[]!-\\";
  static const char path_chars[] = "ab/-[]";
  unsigned seed = 12345;
  for (int round = 0; round < 200000; round++) {
    char pat[10], path[10];
    seed = seed * 1103515245u + 12345u;
    size_t np = (seed >> 16) % 9, ns = (seed >> 8) % 9;
    for (size_t i = 0; i < np; i++) {
      seed = seed * 1103515245u + 12345u;
      pat[i] = pat_chars[(seed >> 16) % (sizeof pat_chars - 1)];
    }
    for (size_t i = 0; i < ns; i++) {
      seed = seed * 1103515245u + 12345u;
      path[i] = path_chars[(seed >> 16) % (sizeof path_chars - 1)];
    }
    pat[np] = path[ns] = '\0';
    if (tc_glob_match(pat, path) != reference_match(pat, path))
      fail_msg("'%s' against '%s': %d, the reference says %d", pat, path,
               tc_glob_match(pat, path), reference_match(pat, path));
  }
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
      cmocka_unit_test(test_globs_agree_with_reference),
      cmocka_unit_test(test_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
