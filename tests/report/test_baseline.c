/* tests/report/test_baseline.c — --baseline: a finding already in an earlier SARIF log is
 * dropped even after lines were inserted above it; new findings stay, with fingerprints of
 * their own (occurrences of one key counted, never renumbered by the filter); unreadable or
 * invalid baselines are errors naming the file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
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

/* The fingerprint written for each finding of r (SARIF, through the writer). */
static void sarif_fingerprints(const tc_report *r, const char *dir, char out[][64], size_t n) {
  char *path = NULL;
  if (asprintf(&path, "%s/fps.sarif", dir) < 0) abort();
  write_sarif(r, dir, path);
  char *text = fx_read(path);
  cJSON *log = cJSON_Parse(text);
  assert_non_null(log);
  size_t k = 0;
  const cJSON *res;
  cJSON_ArrayForEach(res, cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"),
                                                                 0), "results")) {
    const cJSON *fp = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "partialFingerprints"),
                                          "tagcheckFingerprint/v1");
    assert_true(cJSON_IsString(fp) && k < n);
    snprintf(out[k++], 64, "%s", fp->valuestring);
  }
  cJSON_Delete(log);
  assert_int_equal(k, n);
  free(text);
  free(path);
}

/* The same call text twice (then three times) in one function: one key, occurrences 0, 1, 2.
   A baseline that knows the first must leave the second with its own fingerprint (it was
   renumbered to the first one's after the filter, so the next baseline would hide it), and a
   baseline that knows two occurrences hides two, not three. */
static void test_repeated_key_occurrences(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "train.c", "void step(void) {\n  a = dt_add(x, y);\n}\n");
  unsigned l1[] = {2};
  const char *r1[] = {"backend-mismatch"};
  tc_report old;
  build(&old, src, l1, r1, 1);
  char *base = NULL;
  if (asprintf(&base, "%s/base.sarif", dir) < 0) abort();
  write_sarif(&old, dir, base);
  char old_fp[1][64];
  sarif_fingerprints(&old, dir, old_fp, 1);

  free(fx_write(dir, "train.c",
                "void step(void) {\n  a = dt_add(x, y);\n  a = dt_add(x, y);\n}\n"));
  unsigned l2[] = {2, 3};
  const char *r2[] = {"backend-mismatch", "backend-mismatch"};
  tc_report now;
  build(&now, src, l2, r2, 2);
  char all_fp[2][64];
  sarif_fingerprints(&now, dir, all_fp, 2);
  assert_string_equal(all_fp[0], old_fp[0]);
  assert_string_not_equal(all_fp[0], all_fp[1]); /* unique within the run */
  tc_options o;
  fx_options(&o, dir);
  char err[1024];
  assert_int_equal(tc_apply_baseline(&now, base, &o, err, sizeof err), 0);
  assert_int_equal(now.n_diags, 1);
  assert_int_equal(now.diags[0].loc.line, 3);
  char left_fp[1][64];
  sarif_fingerprints(&now, dir, left_fp, 1);
  assert_string_equal(left_fp[0], all_fp[1]); /* its own, not the known finding's */

  /* a baseline with both occurrences, three in the new code: the third alone is new */
  tc_report two;
  build(&two, src, l2, r2, 2);
  write_sarif(&two, dir, base);
  free(fx_write(dir, "train.c",
                "void step(void) {\n  a = dt_add(x, y);\n  a = dt_add(x, y);\n"
                "  a = dt_add(x, y);\n}\n"));
  unsigned l3[] = {2, 3, 4};
  const char *r3[] = {"backend-mismatch", "backend-mismatch", "backend-mismatch"};
  tc_report three;
  build(&three, src, l3, r3, 3);
  assert_int_equal(tc_apply_baseline(&three, base, &o, err, sizeof err), 0);
  assert_int_equal(three.n_diags, 1);
  assert_int_equal(three.diags[0].loc.line, 4);

  tc_report_free(&old);
  tc_report_free(&now);
  tc_report_free(&two);
  tc_report_free(&three);
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
      cmocka_unit_test(test_repeated_key_occurrences),
      cmocka_unit_test(test_bad_baselines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
