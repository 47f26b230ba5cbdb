/* tests/report/test_report.c — the report-building API (report.c): copies, notes, failures,
 * rule metadata from dt/rules.def, take, deterministic sort with de-duplication, filtering,
 * exit status under --fail-on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixtures.h"
#include "report/output.h"
#include "report/report_internal.h"

static void test_add_copies_strings(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  char file[] = "/src/a.c", msg[] = "dt_add: cpu and sim:0";
  tc_loc loc = {file, 3, 7, 3, 19};
  tc_diag *d = tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "main", msg);
  assert_non_null(d);
  file[1] = 'X';
  msg[0] = 'X';
  assert_string_equal(r.diags[0].loc.file, "/src/a.c");
  assert_string_equal(r.diags[0].message, "dt_add: cpu and sim:0");
  assert_int_equal(r.diags[0].loc.end_col, 19);
  tc_loc nloc = {"/src/a.c", 1, 2, 0, 0};
  tc_diag_add_note(d, &nloc, "from here");
  tc_diag_add_note(d, NULL, NULL); /* tolerated: empty location and message */
  assert_int_equal(r.diags[0].n_notes, 2);
  assert_string_equal(r.diags[0].notes[1].message, "");
  /* NULL strings become "" rather than crashing later writers. */
  d = tc_report_add(&r, "kind-mismatch", TC_LEVEL_WARNING, &loc, NULL, NULL, NULL);
  assert_string_equal(d->function, "");
  assert_string_equal(d->operation, "");
  tc_report_free(&r);
  assert_int_equal(r.n_diags, 0);
}

static void test_builtin_rules(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  tc_report_add_builtin_rules(&r);
  tc_report_add_builtin_rules(&r); /* duplicates ignored */
  const char *ids[] = {"backend-mismatch", "autodiff-inner-backend", "autodiff-expected",
                       "autodiff-nested", "device-mismatch", "kind-mismatch",
                       "backend-unavailable"};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    size_t idx;
    const tc_rule_meta *m = tc_report_find_rule(&r, ids[i], &idx);
    assert_non_null(m);
    assert_true(strlen(m->name) > 0);
    assert_true(strlen(m->short_description) > 0);
    assert_true(strlen(m->help) > 0);
    assert_true(strstr(m->full_description, m->short_description) != NULL);
  }
  size_t n = r.n_rules;
  tc_rule_meta extra = {"my-rule", "MyRule", "s", "f", "h", TC_LEVEL_WARNING, NULL, NULL};
  tc_report_add_rule(&r, &extra);
  assert_int_equal(r.n_rules, n + 1);
  assert_int_equal(r.rules[n].default_level, TC_LEVEL_WARNING);
  tc_report_free(&r);
}

static void add(tc_report *r, const char *file, unsigned line, unsigned col, const char *rule,
                tc_level level, const char *msg) {
  tc_loc loc = {(char *)file, line, col, 0, 0};
  assert_non_null(tc_report_add(r, rule, level, &loc, "dt_add", "f", msg));
}

static void test_sort_and_dedupe(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  add(&r, "/b.c", 1, 1, "device-mismatch", TC_LEVEL_ERROR, "m");
  add(&r, "/a.c", 9, 1, "backend-mismatch", TC_LEVEL_WARNING, "m");
  add(&r, "/a.c", 2, 5, "kind-mismatch", TC_LEVEL_ERROR, "m");
  add(&r, "/a.c", 9, 1, "backend-mismatch", TC_LEVEL_ERROR, "m"); /* same finding, stronger */
  add(&r, "/a.c", 2, 3, "kind-mismatch", TC_LEVEL_ERROR, "m");
  tc_report_add_failure(&r, "/z.c", "parse error");
  tc_report_add_failure(&r, "/y.c", "parse error");
  tc_report_add_failure(&r, "/z.c", "parse error");
  tc_report_sort(&r);
  assert_int_equal(r.n_diags, 4);
  assert_string_equal(r.diags[0].loc.file, "/a.c");
  assert_int_equal(r.diags[0].loc.col, 3);
  assert_int_equal(r.diags[1].loc.col, 5);
  assert_int_equal(r.diags[2].loc.line, 9);
  assert_int_equal(r.diags[2].level, TC_LEVEL_ERROR); /* the most severe duplicate is kept */
  assert_string_equal(r.diags[3].loc.file, "/b.c");
  assert_int_equal(r.n_failures, 2);
  assert_string_equal(r.failures[0].file, "/y.c");
  tc_report_free(&r);
}

static void test_take(void **state) {
  (void)state;
  tc_report a, b;
  tc_report_init(&a);
  tc_report_init(&b);
  add(&a, "/a.c", 1, 1, "backend-mismatch", TC_LEVEL_ERROR, "one");
  add(&b, "/b.c", 1, 1, "backend-mismatch", TC_LEVEL_ERROR, "two");
  tc_report_add_failure(&b, "/c.c", "boom");
  tc_report_add_builtin_rules(&b);
  b.n_units = 3;
  tc_report_take(&a, &b);
  assert_int_equal(a.n_diags, 2);
  assert_int_equal(a.n_failures, 1);
  assert_int_equal(a.n_units, 3);
  assert_true(a.n_rules > 0);
  assert_int_equal(b.n_diags, 0);
  assert_int_equal(b.n_failures, 0);
  assert_string_equal(a.diags[1].message, "two");
  tc_report_free(&a);
  tc_report_free(&b);
}

static void test_exit_status(void **state) {
  (void)state;
  tc_options o;
  fx_options(&o, NULL);
  tc_report r;
  tc_report_init(&r);
  assert_int_equal(tc_report_exit_status(&r, &o), 0);
  add(&r, "/a.c", 1, 1, "backend-mismatch", TC_LEVEL_WARNING, "w");
  o.fail_on = TC_FAIL_ON_WARNING;
  assert_int_equal(tc_report_exit_status(&r, &o), 1);
  o.fail_on = TC_FAIL_ON_ERROR;
  assert_int_equal(tc_report_exit_status(&r, &o), 0);
  add(&r, "/a.c", 2, 1, "backend-mismatch", TC_LEVEL_ERROR, "e");
  assert_int_equal(tc_report_exit_status(&r, &o), 1);
  o.fail_on = TC_FAIL_ON_NEVER;
  assert_int_equal(tc_report_exit_status(&r, &o), 0);
  /* Suppressed findings do not count. */
  o.fail_on = TC_FAIL_ON_WARNING;
  r.diags[0].suppressed = r.diags[1].suppressed = 1;
  assert_int_equal(tc_report_exit_status(&r, &o), 0);
  /* A failed unit wins over everything. */
  tc_report_add_failure(&r, "/b.c", "x");
  o.fail_on = TC_FAIL_ON_NEVER;
  assert_int_equal(tc_report_exit_status(&r, &o), 3);
  tc_report_free(&r);
  fx_options_free(&o);
}

static void test_level_names(void **state) {
  (void)state;
  assert_string_equal(tc_level_name(TC_LEVEL_ERROR), "error");
  assert_string_equal(tc_level_name(TC_LEVEL_WARNING), "warning");
  assert_string_equal(tc_level_name(TC_LEVEL_NOTE), "note");
  tc_level l;
  assert_int_equal(tc_level_parse("warning", &l), 0);
  assert_int_equal(l, TC_LEVEL_WARNING);
  assert_int_equal(tc_level_parse("fatal", &l), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add_copies_strings), cmocka_unit_test(test_builtin_rules),
      cmocka_unit_test(test_sort_and_dedupe),    cmocka_unit_test(test_take),
      cmocka_unit_test(test_exit_status),        cmocka_unit_test(test_level_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
