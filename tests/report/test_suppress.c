/* tests/report/test_suppress.c — suppression comments: the line itself or, for a comment alone
 * on its lines, the line after it (exactly one line), // and block comments, several rules,
 * "*", justifications, and what must NOT suppress (another rule, text in string, character and
 * raw string literals, the line after a trailing comment, two lines below); clang-tidy's NOLINT,
 * NOLINTNEXTLINE and NOLINTBEGIN/END, each covering exactly its lines. */
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

/* Scans text; 1 when a suppression covering `line` names rule (*why: its justification). */
static int match(const char *text, unsigned line, const char *rule, char **why) {
  tc_suppressions s;
  assert_int_equal(tc_suppressions_scan(text, strlen(text), &s), 0);
  const tc_suppression *hit = tc_suppressions_find(&s, line, rule);
  *why = hit ? strdup(hit->justification) : NULL;
  tc_suppressions_free(&s);
  return hit != NULL;
}

/* 1 when some line of text is covered for rule (it must then be `line`). */
static int covers_only(const char *text, unsigned line, const char *rule) {
  char *why;
  for (unsigned l = 1; l <= 8; l++) {
    int hit = match(text, l, rule, &why);
    free(why);
    if (hit && l != line) fail_msg("'%s' covers line %u, expected %u", text, l, line);
  }
  int hit = match(text, line, rule, &why);
  free(why);
  return hit;
}

static void test_comment_forms(void **state) {
  (void)state;
  char *why;
  assert_int_equal(match("x = dt_add(a, b); // tagcheck: ignore[backend-mismatch]", 1,
                         "backend-mismatch", &why), 1);
  assert_string_equal(why, "");
  free(why);
  assert_int_equal(match("  /* tagcheck: ignore[device-mismatch] moved later in the loop */", 2,
                         "device-mismatch", &why), 1);
  assert_string_equal(why, "moved later in the loop");
  free(why);
  assert_int_equal(match("// tagcheck: ignore[ kind-mismatch , device-mismatch ] -- ok", 2,
                         "device-mismatch", &why), 1);
  assert_string_equal(why, "ok");
  free(why);
  assert_int_equal(match("//tagcheck:ignore[*] generated", 2, "autodiff-nested", &why), 1);
  assert_string_equal(why, "generated");
  free(why);
  /* a block comment's continuation line: the comment covers the line after it */
  assert_int_equal(match("/* generated\n * tagcheck: ignore[shape]\n */\nx = dt_add(a, b);", 4,
                         "shape", &why), 1);
  free(why);

  assert_int_equal(match("// tagcheck: ignore[backend-mismatch]", 2, "device-mismatch", &why), 0);
  assert_int_equal(match("// tagcheck: ignore[backend-mismatch-x]", 2, "backend-mismatch", &why),
                   0);
  assert_int_equal(match("// tagcheck: ignore backend-mismatch", 2, "backend-mismatch", &why), 0);
  assert_int_equal(match("// tagcheck: ignore[backend-mismatch", 2, "backend-mismatch", &why), 0);
  assert_int_equal(match("", 1, "shape", &why), 0);
}

/* Markers in literals never count, whatever they contain or follow; comments after literals
   that look like they open one still do. */
static void test_literals_are_not_comments(void **state) {
  (void)state;
  assert_false(covers_only("puts(\"tagcheck: ignore[shape]\");", 1, "shape"));
  assert_false(covers_only("puts(\"// tagcheck: ignore[shape]\");", 1, "shape"));
  assert_false(covers_only("puts(\"/* tagcheck: ignore[shape] */\");", 1, "shape"));
  assert_false(covers_only("puts(\"\\\" // tagcheck: ignore[shape]\");", 1, "shape"));
  assert_false(covers_only("c = '\"'; puts(\"// tagcheck: ignore[shape]\");", 1, "shape"));
  assert_false(covers_only("s = L\"x\" u8\"// tagcheck: ignore[shape]\";", 1, "shape"));
  /* a C++ raw string spanning lines, with comment openers and a quote inside */
  assert_false(covers_only("s = R\"x(\n\" // tagcheck: ignore[shape]\n/* )\" */\n)x\";", 2,
                           "shape"));
  assert_false(covers_only("#define S \"a\\\n// tagcheck: ignore[shape]\"\nf();", 2, "shape"));
  /* real comments after literals */
  assert_true(covers_only("c = '\"'; f(); // tagcheck: ignore[shape]", 1, "shape"));
  assert_true(covers_only("s = \"/*\"; f(); // tagcheck: ignore[shape]", 1, "shape"));
  assert_true(covers_only("s = R\"(\")\"; f(); // tagcheck: ignore[shape]", 1, "shape"));
  /* digit separators (C++14, C23) are not character literals */
  assert_true(covers_only("n = 1'000'000; f(); // tagcheck: ignore[shape]", 1, "shape"));
  assert_true(covers_only("x = 0x1'fp+2'0; // tagcheck: ignore[shape]", 1, "shape"));
  /* an unterminated literal ends with its line, as clang ends it */
  assert_true(covers_only("#error don't\n// tagcheck: ignore[shape]\nf();", 3, "shape"));
  /* a line comment continued by a line splice: still the comment */
  assert_true(covers_only("// note \\\n tagcheck: ignore[shape]\nf();", 3, "shape"));
}

/* Each suppression covers exactly one line: its own when the line holds code, else the next. */
static void test_exactly_one_line(void **state) {
  (void)state;
  /* a trailing comment does not reach the next line's finding */
  assert_true(covers_only("a = dt_add(x, y); // tagcheck: ignore[shape]\nb = dt_add(x, y);", 1,
                          "shape"));
  assert_true(covers_only("a = dt_add(x, y); /* tagcheck: ignore[shape] */\nb = dt_add(x, y);",
                          1, "shape"));
  /* a comment before code on its line covers that line */
  assert_true(covers_only("/* tagcheck: ignore[shape] */ a = dt_add(x, y);\nb();", 1, "shape"));
  /* a standalone comment covers the next line only */
  assert_true(covers_only("// tagcheck: ignore[shape]\na = dt_add(x, y);\nb = dt_add(x, y);", 2,
                          "shape"));
  /* a block comment over several lines, alone: the line after its end */
  assert_true(covers_only("/* tagcheck: ignore[shape]\n   why */\na();\nb();", 3, "shape"));
  /* …ending before code: that line */
  assert_true(covers_only("/* tagcheck: ignore[shape]\n   why */ a();\nb();", 2, "shape"));
  /* two markers in one comment, each counted */
  char *why;
  assert_int_equal(match("f(); // tagcheck: ignore[shape] tagcheck: ignore[kind-mismatch] x", 1,
                         "kind-mismatch", &why), 1);
  assert_string_equal(why, "x");
  free(why);
}

/* clang-tidy's NOLINT forms, each covering exactly the lines it names. */
static void test_nolint(void **state) {
  (void)state;
  char *why;
  /* NOLINT: its own line only; with no list every rule, with a list only those */
  assert_int_equal(covers_only("x = dt_add(a, b); // NOLINT\ny = dt_add(a, b);", 1,
                               "backend-mismatch"), 1);
  assert_int_equal(covers_only("x = dt_add(a, b); // NOLINT(kind-mismatch, backend-mismatch)\n", 1,
                               "backend-mismatch"), 1);
  assert_int_equal(match("x = dt_add(a, b); // NOLINT(kind-mismatch)", 1, "backend-mismatch", &why), 0);
  free(why);
  assert_int_equal(match("x = dt_add(a, b); // NOLINT(device-mismatch) moved later", 1,
                         "device-mismatch", &why), 1);
  assert_string_equal(why, "moved later");
  free(why);
  /* a NOLINT alone on its line covers that line, not the next one (clang-tidy's meaning) */
  assert_int_equal(covers_only("// NOLINT\nx = dt_add(a, b);", 1, "backend-mismatch"), 1);
  /* NOLINTNEXTLINE: the next line only */
  assert_int_equal(covers_only("// NOLINTNEXTLINE(backend-mismatch)\nx = dt_add(a, b);\ny = dt_add(a, b);",
                               2, "backend-mismatch"), 1);
  assert_int_equal(covers_only("/* NOLINTNEXTLINE */ int z;\nx = dt_add(a, b);", 2, "shape"), 1);
  /* NOLINTBEGIN … NOLINTEND: the lines from the one to the other, both included */
  const char *block = "a;\n// NOLINTBEGIN(device-mismatch)\nx = dt_add(a, b);\ny = dt_add(a, b);\n"
                      "// NOLINTEND(device-mismatch)\nz = dt_add(a, b);\n";
  for (unsigned l = 1; l <= 6; l++) {
    assert_int_equal(match(block, l, "device-mismatch", &why), l >= 2 && l <= 5);
    free(why);
  }
  assert_int_equal(match(block, 3, "kind-mismatch", &why), 0);
  free(why);
  /* a BEGIN never ended, an END never begun, a longer word, a string: nothing */
  assert_int_equal(match("// NOLINTBEGIN\nx = dt_add(a, b);\n", 2, "shape", &why), 0);
  free(why);
  assert_int_equal(match("x = dt_add(a, b); // NOLINTEND", 1, "shape", &why), 0);
  free(why);
  assert_int_equal(match("x = dt_add(a, b); // NOLINTX", 1, "shape", &why), 0);
  free(why);
  assert_int_equal(match("x = dt_add(a, b); // XNOLINT", 1, "shape", &why), 0);
  free(why);
  assert_int_equal(match("p(\"// NOLINT\"); x = dt_add(a, b);", 1, "shape", &why), 0);
  free(why);
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
      cmocka_unit_test(test_literals_are_not_comments),
      cmocka_unit_test(test_exactly_one_line),
      cmocka_unit_test(test_nolint),
      cmocka_unit_test(test_apply_to_report),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
