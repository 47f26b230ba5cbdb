/* tests/report/test_suppress.c — suppression comments: the line itself or the line before,
 * // and block comments, several rules, "*", justifications, and what must NOT suppress
 * (another rule, text outside comments, two lines above). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixtures.h"
#include "report/output.h"
#include "report/suppress.h"

static int match(const char *line, const char *rule, char **why) {
  *why = NULL;
  return tc_suppression_match(line, strlen(line), rule, why);
}

static void test_comment_forms(void **state) {
  (void)state;
  char *why;
  assert_int_equal(match("x = dt_add(a, b); // tagcheck: ignore[backend-mismatch]",
                         "backend-mismatch", &why), 1);
  assert_string_equal(why, "");
  free(why);
  assert_int_equal(match("  /* tagcheck: ignore[device-mismatch] moved later in the loop */",
                         "device-mismatch", &why), 1);
  assert_string_equal(why, "moved later in the loop");
  free(why);
  assert_int_equal(match("// tagcheck: ignore[ kind-mismatch , device-mismatch ] -- ok",
                         "device-mismatch", &why), 1);
  assert_string_equal(why, "ok");
  free(why);
  assert_int_equal(match("//tagcheck:ignore[*] generated", "autodiff-nested", &why), 1);
  assert_string_equal(why, "generated");
  free(why);
  assert_int_equal(match(" * tagcheck: ignore[shape]", "shape", &why), 1); /* block continues */
  free(why);

  assert_int_equal(match("// tagcheck: ignore[backend-mismatch]", "device-mismatch", &why), 0);
  assert_int_equal(match("// tagcheck: ignore[backend-mismatch-x]", "backend-mismatch", &why), 0);
  assert_int_equal(match("puts(\"tagcheck: ignore[shape]\");", "shape", &why), 0);
  assert_int_equal(match("// tagcheck: ignore backend-mismatch", "backend-mismatch", &why), 0);
  assert_int_equal(match("// tagcheck: ignore[backend-mismatch", "backend-mismatch", &why), 0);
  assert_int_equal(match("", "shape", &why), 0);
}

static void test_apply_to_report(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "s.c",
                       "void f(void) {\n"                                         /* 1 */
                       "  // tagcheck: ignore[backend-mismatch] on purpose\n"     /* 2 */
                       "  a = dt_add(x, y);\n"                                    /* 3 */
                       "  b = dt_add(x, y); /* tagcheck: ignore[*] */\n"          /* 4 */
                       "\n"                                                       /* 5 */
                       "  c = dt_add(x, y);\n"                                    /* 6 */
                       "  // tagcheck: ignore[kind-mismatch]\n"                   /* 7 */
                       "  d = dt_add(x, y);\n"                                    /* 8 */
                       "}\n");
  tc_report r;
  tc_report_init(&r);
  unsigned lines[] = {3, 4, 6, 8};
  for (size_t i = 0; i < 4; i++) {
    tc_loc loc = {src, lines[i], 7, 0, 0};
    tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "f", "m");
  }
  tc_loc first = {src, 1, 1, 0, 0}; /* line 1: there is no line 0 to look at */
  tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &first, "dt_add", "f", "m");
  tc_loc gone = {"/no/such/file.c", 2, 1, 0, 0};
  tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &gone, "dt_add", "f", "m");
  tc_report_sort(&r);
  tc_apply_suppressions(&r);
  /* sorted: /no/such first, then s.c lines 1, 3, 4, 6, 8 */
  assert_int_equal(r.diags[0].suppressed, 0);
  assert_int_equal(r.diags[1].suppressed, 0);
  assert_int_equal(r.diags[2].suppressed, 1);
  assert_string_equal(r.diags[2].suppression_text, "on purpose");
  assert_int_equal(r.diags[3].suppressed, 1);
  assert_int_equal(r.diags[4].suppressed, 0); /* two lines below the comment */
  assert_int_equal(r.diags[5].suppressed, 0); /* names another rule */

  tc_options o;
  fx_options(&o, dir);
  assert_int_equal(tc_report_exit_status(&r, &o), 1);
  tc_report_free(&r);
  fx_options_free(&o);
  free(src);
  fx_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_comment_forms),
      cmocka_unit_test(test_apply_to_report),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
