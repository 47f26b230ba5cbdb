/* tests/driver/test_config.c — .tagcheck.json: found by walking up, --config, every key,
 * command-line precedence, errors with file:line:col, and rule settings / excluded paths
 * applied to a report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "driver/config.h"
#include "fixtures.h"
#include "report/output.h"

typedef struct cfg_fixture {
  char *dir;
  tc_options o;
  char err[1024];
} cfg_fixture;

static int setup(void **state) {
  cfg_fixture *f = calloc(1, sizeof *f);
  f->dir = fx_mkdtemp();
  fx_options(&f->o, NULL);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  cfg_fixture *f = *state;
  fx_options_free(&f->o);
  fx_rmtree(f->dir);
  free(f->dir);
  free(f);
  return 0;
}

static char *path_in(const char *dir, const char *rel) {
  char *p = NULL;
  if (asprintf(&p, "%s/%s", dir, rel) < 0) abort();
  return p;
}

static void test_walks_up_and_reads_every_key(void **state) {
  cfg_fixture *f = *state;
  free(fx_write(f->dir, ".tagcheck.json",
                "{\n"
                "  \"$schema\": \"ignored\",\n"
                "  \"rules\": [\"rules/dt.json\", \"/abs/other.json\"],\n"
                "  \"disable\": [\"shape\", \"kind-mismatch\"],\n"
                "  \"enable\": [\"backend-unavailable\"],\n"
                "  \"severity\": {\"device-mismatch\": \"warning\", \"autodiff-nested\": \"off\"},\n"
                "  \"exclude\": [\"third_party/**\", \"*.gen.c\", \"build/\"],\n"
                "  \"unavailable\": [\"cuda\"],\n"
                "  \"fail-on\": \"error\",\n"
                "  \"root\": \".\"\n"
                "}\n"));
  char *deep = path_in(f->dir, "src/nested/deeper");
  free(fx_write(f->dir, "src/nested/deeper/x.c", "\n"));
  assert_int_equal(tc_config_load(&f->o, deep, f->err, sizeof f->err), 0);
  char *cfg = path_in(f->dir, ".tagcheck.json");
  assert_string_equal(f->o.config_loaded, cfg);
  assert_int_equal(f->o.n_rules_files, 2);
  char *rules = path_in(f->dir, "rules/dt.json");
  assert_string_equal(f->o.rules_files[0], rules);
  assert_string_equal(f->o.rules_files[1], "/abs/other.json");
  assert_int_equal(f->o.n_disable_rules, 2);
  assert_int_equal(f->o.n_enable_rules, 1);
  assert_int_equal(f->o.n_severity, 2);
  assert_string_equal(f->o.severity_rules[1], "autodiff-nested");
  assert_string_equal(f->o.severity_levels[1], "off");
  assert_int_equal(f->o.n_unavailable, 1);
  assert_string_equal(f->o.unavailable[0], "cuda");
  assert_int_equal(f->o.fail_on, TC_FAIL_ON_ERROR);
  assert_string_equal(f->o.root, f->dir);

  /* excluded paths: a glob under the config's directory, a name anywhere, a directory */
  char *p1 = path_in(f->dir, "third_party/lib/a.c");
  char *p2 = path_in(f->dir, "src/nested/x.gen.c");
  char *p3 = path_in(f->dir, "build/gen/y.c");
  char *p4 = path_in(f->dir, "src/train.c");
  assert_true(tc_path_excluded(&f->o, p1));
  assert_true(tc_path_excluded(&f->o, p2));
  assert_true(tc_path_excluded(&f->o, p3));
  assert_false(tc_path_excluded(&f->o, p4));
  assert_false(tc_path_excluded(&f->o, "/elsewhere/third_party/a.c"));

  /* the settings applied to a report */
  tc_report r;
  tc_report_init(&r);
  tc_report_add_builtin_rules(&r);
  const char *rules_seen[] = {"shape", "kind-mismatch", "device-mismatch", "autodiff-nested",
                              "backend-mismatch", "backend-mismatch"};
  const char *files[] = {p4, p4, p4, p4, p4, p1};
  for (unsigned i = 0; i < 6; i++) {
    tc_loc loc = {(char *)files[i], i + 1, 1, 0, 0};
    tc_report_add(&r, rules_seen[i], TC_LEVEL_ERROR, &loc, "dt_add", "f", "m");
  }
  tc_report_sort(&r);
  tc_apply_rule_settings(&r, &f->o);
  assert_int_equal(r.n_diags, 2);
  assert_string_equal(r.diags[0].rule_id, "device-mismatch");
  assert_int_equal(r.diags[0].level, TC_LEVEL_WARNING);
  assert_string_equal(r.diags[1].rule_id, "backend-mismatch");
  assert_int_equal(r.diags[1].level, TC_LEVEL_ERROR);
  /* fail-on error: the warning alone does not fail */
  assert_int_equal(tc_report_exit_status(&r, &f->o), 1);
  tc_report_free(&r);

  free(p1), free(p2), free(p3), free(p4);
  free(rules);
  free(cfg);
  free(deep);
}

static void test_command_line_wins(void **state) {
  cfg_fixture *f = *state;
  free(fx_write(f->dir, ".tagcheck.json",
                "{\"rules\": \"mine.json\", \"disable\": [\"shape\"], \"enable\": [\"kind-mismatch\"],"
                " \"fail-on\": \"never\", \"root\": \"sub\"}"));
  f->o.rules_files = calloc(1, sizeof(char *));
  f->o.rules_files[0] = fx_strdup("/cli/rules.json");
  f->o.n_rules_files = 1;
  f->o.enable_rules = calloc(1, sizeof(char *));
  f->o.enable_rules[0] = fx_strdup("shape");
  f->o.n_enable_rules = 1;
  f->o.disable_rules = calloc(1, sizeof(char *));
  f->o.disable_rules[0] = fx_strdup("kind-mismatch");
  f->o.n_disable_rules = 1;
  f->o.fail_on = TC_FAIL_ON_WARNING;
  f->o.fail_on_given = 1;
  f->o.root = fx_strdup("/cli/root");
  assert_int_equal(tc_config_load(&f->o, f->dir, f->err, sizeof f->err), 0);
  assert_int_equal(f->o.n_rules_files, 1);
  assert_string_equal(f->o.rules_files[0], "/cli/rules.json");
  assert_int_equal(f->o.n_disable_rules, 1); /* "shape" was enabled on the command line */
  assert_int_equal(f->o.n_enable_rules, 1);  /* "kind-mismatch" was disabled there */
  assert_int_equal(f->o.fail_on, TC_FAIL_ON_WARNING);
  assert_string_equal(f->o.root, "/cli/root");
}

static void test_explicit_config_and_none(void **state) {
  cfg_fixture *f = *state;
  /* no file anywhere above an empty scratch directory (unless / has one) */
  assert_int_equal(tc_config_load(&f->o, f->dir, f->err, sizeof f->err), 0);
  char *other = fx_write(f->dir, "conf/ci.json", "{\"unavailable\": \"sim\"}");
  f->o.config = fx_strdup(other);
  assert_int_equal(tc_config_load(&f->o, "/", f->err, sizeof f->err), 0);
  assert_int_equal(f->o.n_unavailable, 1);
  assert_string_equal(f->o.unavailable[0], "sim");
  free(f->o.config);
  f->o.config = path_in(f->dir, "missing.json");
  assert_int_equal(tc_config_load(&f->o, f->dir, f->err, sizeof f->err), -1);
  assert_non_null(strstr(f->err, "missing.json"));
  assert_non_null(strstr(f->err, "cannot read"));
  free(other);
}

static void test_found_from_the_first_file_and_excluded_failures(void **state) {
  cfg_fixture *f = *state;
  free(fx_write(f->dir, "proj/.tagcheck.json", "{\"exclude\": [\"vendor\"]}"));
  char *file = fx_write(f->dir, "proj/src/a.c", "\n");
  f->o.files = calloc(1, sizeof(char *));
  f->o.files[0] = fx_strdup(file);
  f->o.n_files = 1;
  /* start_dir (say, the current directory) is outside proj/: the file's directory decides */
  assert_int_equal(tc_config_load(&f->o, "/", f->err, sizeof f->err), 0);
  assert_int_equal(f->o.n_exclude, 1);
  tc_report r;
  tc_report_init(&r);
  char *vendored = NULL;
  if (asprintf(&vendored, "%s/proj/vendor/lib.c", f->dir) < 0) abort();
  tc_report_add_failure(&r, vendored, "parse error");
  tc_report_add_failure(&r, file, "parse error");
  tc_apply_rule_settings(&r, &f->o);
  assert_int_equal(r.n_failures, 1);
  assert_string_equal(r.failures[0].file, file);
  tc_report_free(&r);
  free(vendored);
  free(f->o.files[0]);
  free(f->o.files);
  f->o.files = NULL;
  f->o.n_files = 0;
  free(file);
}

static void expect_error(cfg_fixture *f, const char *text, const char *where, const char *what) {
  char *p = fx_write(f->dir, ".tagcheck.json", text);
  free(f->o.config);
  f->o.config = p;
  f->err[0] = '\0';
  assert_int_equal(tc_config_load(&f->o, f->dir, f->err, sizeof f->err), -1);
  char expect[2048];
  snprintf(expect, sizeof expect, "%s%s", p, where);
  if (strncmp(f->err, expect, strlen(expect)) != 0) fail_msg("got: %s, expected %s", f->err, expect);
  if (!strstr(f->err, what)) fail_msg("got: %s, expected to mention %s", f->err, what);
}

static void test_errors_name_file_and_position(void **state) {
  cfg_fixture *f = *state;
  expect_error(f, "{\n  \"disable\": [\"shape\",]\n}\n", ":2:", "syntax");
  expect_error(f, "{\n  \"disabel\": []\n}\n", ":2:3:", "unknown key \"disabel\"");
  expect_error(f, "{\n  \"fail-on\": \"sometimes\"\n}\n", ":2:3:", "fail-on");
  expect_error(f, "{\"severity\": {\n   \"shape\": \"fatal\"}}", ":2:4:", "severity of \"shape\"");
  expect_error(f, "{\"exclude\": [1]}", ":1:2:", "strings");
  expect_error(f, "[1, 2]", ":1:1:", "object");
  expect_error(f, "", ":", "empty");
  expect_error(f, "{} trailing", ":1:4:", "after");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_walks_up_and_reads_every_key, setup, teardown),
      cmocka_unit_test_setup_teardown(test_command_line_wins, setup, teardown),
      cmocka_unit_test_setup_teardown(test_explicit_config_and_none, setup, teardown),
      cmocka_unit_test_setup_teardown(test_errors_name_file_and_position, setup, teardown),
      cmocka_unit_test_setup_teardown(test_found_from_the_first_file_and_excluded_failures, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
