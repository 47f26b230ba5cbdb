/* tests/report/test_baseline.c — --baseline: a finding already in an earlier SARIF log is
 * dropped even after lines were inserted above it; new findings stay; unreadable or invalid
 * baselines are errors naming the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixtures.h"
#include "report/output.h"

static void build(tc_report *r, const char *src, const unsigned *lines, const char **rules,
                  size_t n) {
  tc_report_init(r);
  tc_report_add_builtin_rules(r);
  for (size_t i = 0; i < n; i++) {
    tc_loc loc = {(char *)src, lines[i], 7, 0, 0};
    tc_report_add(r, rules[i], TC_LEVEL_ERROR, &loc, "dt_add", "step", "m");
  }
  tc_report_sort(r);
}

static void write_sarif(const tc_report *r, const char *root, const char *path) {
  tc_options o;
  fx_options(&o, root);
  o.format = TC_FORMAT_SARIF;
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(tc_write_report(r, &o, f), 0);
  fclose(f);
  fx_options_free(&o);
}

static void test_only_new_findings_remain(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "train.c",
                       "void step(void) {\n  a = dt_add(x, y);\n  b = dt_mul(x, y);\n}\n");
  unsigned l1[] = {2, 3};
  const char *r1[] = {"backend-mismatch", "device-mismatch"};
  tc_report old;
  build(&old, src, l1, r1, 2);
  char *base = NULL;
  if (asprintf(&base, "%s/base.sarif", dir) < 0) abort();
  write_sarif(&old, dir, base);

  /* Two lines inserted above; one new finding on a new line. */
  free(fx_write(dir, "train.c",
                "#include <stdio.h>\n\nvoid step(void) {\n  a = dt_add(x, y);\n"
                "  b = dt_mul(x, y);\n  c = dt_add(b, y);\n}\n"));
  unsigned l2[] = {4, 5, 6};
  const char *r2[] = {"backend-mismatch", "device-mismatch", "backend-mismatch"};
  tc_report now;
  build(&now, src, l2, r2, 3);
  tc_options o;
  fx_options(&o, dir);
  char err[1024];
  assert_int_equal(tc_apply_baseline(&now, base, &o, err, sizeof err), 0);
  assert_int_equal(now.n_diags, 1);
  assert_int_equal(now.diags[0].loc.line, 6);

  tc_report_free(&old);
  tc_report_free(&now);
  fx_options_free(&o);
  free(base);
  free(src);
  fx_rmtree(dir);
  free(dir);
}

static void test_bad_baselines(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  tc_report r;
  tc_report_init(&r);
  tc_options o;
  fx_options(&o, dir);
  char err[1024];
  struct {
    const char *name, *text, *expect;
  } cases[] = {
      {"syntax.sarif", "{\"version\": \"2.1.0\",\n \"runs\": [}", "syntax.sarif:2:"},
      {"notsarif.sarif", "{\"hello\": 1}", "not a SARIF log"},
      {"v1.sarif", "{\"version\": \"1.0.0\", \"runs\": []}", "2.1.0"},
      {"results.sarif", "{\"version\": \"2.1.0\", \"runs\": [{\"results\": 3}]}", "results"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *p = fx_write(dir, cases[i].name, cases[i].text);
    err[0] = '\0';
    assert_int_equal(tc_apply_baseline(&r, p, &o, err, sizeof err), -1);
    if (!strstr(err, cases[i].expect) || !strstr(err, cases[i].name))
      fail_msg("%s: %s", cases[i].name, err);
    free(p);
  }
  assert_int_equal(tc_apply_baseline(&r, "/no/such/base.sarif", &o, err, sizeof err), -1);
  assert_non_null(strstr(err, "/no/such/base.sarif"));
  /* an empty but valid log drops nothing */
  tc_loc loc = {"/x.c", 1, 1, 0, 0};
  tc_report_add(&r, "shape", TC_LEVEL_ERROR, &loc, "dt_add", "", "m");
  char *p = fx_write(dir, "empty.sarif", "{\"version\": \"2.1.0\", \"runs\": []}");
  assert_int_equal(tc_apply_baseline(&r, p, &o, err, sizeof err), 0);
  assert_int_equal(r.n_diags, 1);
  free(p);
  tc_report_free(&r);
  fx_options_free(&o);
  fx_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_only_new_findings_remain),
      cmocka_unit_test(test_bad_baselines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
