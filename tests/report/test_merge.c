/* tests/report/test_merge.c — `tagcheck merge`: one run from several shard logs, rules
 * unioned with ruleIndex renumbered, duplicates (same fingerprint) dropped, invocations
 * combined, other tools' runs kept apart under their own tool, bad inputs rejected with exit
 * status 2. */
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
#include "report/report_internal.h"

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

static char *in(const char *dir, const char *name) {
  char *p = NULL;
  if (asprintf(&p, "%s/%s", dir, name) < 0) abort();
  return p;
}

static void test_merge_shards(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "a.c", "x\n  dt_add(a, b);\n  dt_mul(a, b);\n  dt_sub(a, b);\n");
  /* shard 1: a rule of its own ("custom-rule") and the finding at line 2;
     shard 2: the builtin rules, the same finding at line 2 (a shared header), line 4, and a
     failed unit. */
  tc_report s1, s2;
  tc_report_init(&s1);
  tc_report_init(&s2);
  tc_rule_meta custom = {"custom-rule", "CustomRule", "short", "full", "help", TC_LEVEL_WARNING, NULL, NULL};
  tc_report_add_rule(&s1, &custom);
  tc_report_add_builtin_rules(&s1);
  tc_report_add_builtin_rules(&s2);
  tc_loc l2 = {src, 2, 3, 0, 0}, l3 = {src, 3, 3, 0, 0}, l4 = {src, 4, 3, 0, 0};
  tc_report_add(&s1, "backend-mismatch", TC_LEVEL_ERROR, &l2, "dt_add", "f", "m2");
  tc_report_add(&s1, "custom-rule", TC_LEVEL_WARNING, &l3, "dt_mul", "f", "m3");
  tc_report_add(&s2, "backend-mismatch", TC_LEVEL_ERROR, &l2, "dt_add", "f", "m2");
  tc_report_add(&s2, "device-mismatch", TC_LEVEL_ERROR, &l4, "dt_sub", "f", "m4");
  tc_report_add_failure(&s2, "/x/broken.c", "parse error");
  tc_report_sort(&s1);
  tc_report_sort(&s2);
  char *p1 = in(dir, "s1.sarif"), *p2 = in(dir, "s2.sarif"), *pm = in(dir, "merged.sarif");
  write_sarif(&s1, dir, p1);
  write_sarif(&s2, dir, p2);

  char *argv[] = {"tagcheck", "merge", "-o", pm, p2, p1, NULL};
  assert_int_equal(tc_merge_main(6, argv), 0);
  char *text = fx_read(pm);
  cJSON *log = cJSON_Parse(text);
  assert_non_null(log);
  const cJSON *runs = cJSON_GetObjectItem(log, "runs");
  assert_int_equal(cJSON_GetArraySize(runs), 1);
  const cJSON *run = cJSON_GetArrayItem(runs, 0);
  const cJSON *rules = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "tool"),
                                                               "driver"), "rules");
  const cJSON *results = cJSON_GetObjectItem(run, "results");
  assert_int_equal(cJSON_GetArraySize(results), 3); /* the shared finding once */
  int lines[3] = {0};
  int i = 0;
  const cJSON *res;
  cJSON_ArrayForEach(res, results) {
    const char *id = cJSON_GetObjectItem(res, "ruleId")->valuestring;
    int idx = cJSON_GetObjectItem(res, "ruleIndex")->valueint;
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(rules, idx), "id")->valuestring, id);
    const cJSON *region = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "locations"), 0),
                            "physicalLocation"),
        "region");
    lines[i++] = cJSON_GetObjectItem(region, "startLine")->valueint;
  }
  /* sorted by location whatever the order of the inputs */
  assert_int_equal(lines[0], 2);
  assert_int_equal(lines[1], 3);
  assert_int_equal(lines[2], 4);
  /* the union of the rules, each once */
  int custom_seen = 0, backend_seen = 0;
  const cJSON *rule;
  cJSON_ArrayForEach(rule, rules) {
    const char *id = cJSON_GetObjectItem(rule, "id")->valuestring;
    custom_seen += strcmp(id, "custom-rule") == 0;
    backend_seen += strcmp(id, "backend-mismatch") == 0;
  }
  assert_int_equal(custom_seen, 1);
  assert_int_equal(backend_seen, 1);
  const cJSON *invs = cJSON_GetObjectItem(run, "invocations");
  assert_int_equal(cJSON_GetArraySize(invs), 1);
  const cJSON *inv = cJSON_GetArrayItem(invs, 0);
  assert_true(cJSON_IsFalse(cJSON_GetObjectItem(inv, "executionSuccessful")));
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(inv, "toolExecutionNotifications")), 1);
  assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "originalUriBaseIds"), "%SRCROOT%"));
  cJSON_Delete(log);
  free(text);

  /* merging a log with itself changes nothing but order-independent content */
  char *argv2[] = {"merge", "-o", pm, p1, p1, NULL};
  assert_int_equal(tc_merge_main(5, argv2), 0);
  text = fx_read(pm);
  log = cJSON_Parse(text);
  run = cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(run, "results")), 2);
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(
      cJSON_GetArrayItem(cJSON_GetObjectItem(run, "invocations"), 0), "executionSuccessful")));
  cJSON_Delete(log);
  free(text);

  tc_report_free(&s1);
  tc_report_free(&s2);
  free(p1), free(p2), free(pm);
  free(src);
  fx_rmtree(dir);
  free(dir);
}

static const cJSON *run_of_tool(const cJSON *log, const char *name) {
  const cJSON *run;
  cJSON_ArrayForEach(run, cJSON_GetObjectItem(log, "runs")) {
    const cJSON *n =
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "tool"), "driver"), "name");
    if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0) return run;
  }
  return NULL;
}

/* A log of another tool (two runs of it, one result repeated) merged with a tagcheck shard:
   each tool keeps its own run, rules and results; nothing is relabelled as tagcheck's. */
static void test_merge_keeps_other_tools(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "a.c", "x\n  dt_add(a, b);\n");
  tc_report s1;
  tc_report_init(&s1);
  tc_report_add_builtin_rules(&s1);
  tc_loc l2 = {src, 2, 3, 0, 0};
  tc_report_add(&s1, "backend-mismatch", TC_LEVEL_ERROR, &l2, "dt_add", "f", "m2");
  s1.baseline_applied = 1; /* a run compared with a baseline: its result is new */
  char *p1 = in(dir, "s1.sarif"), *pm = in(dir, "merged.sarif");
  write_sarif(&s1, dir, p1);
  const char *tidy_run =
      "{\"tool\": {\"driver\": {\"name\": \"clang-tidy\", \"version\": \"19\", \"rules\": ["
      "{\"id\": \"bugprone-sizeof-expression\"}, {\"id\": \"cert-err33-c\"}]}},"
      "\"invocations\": [{\"executionSuccessful\": true}],"
      "\"results\": [{\"ruleId\": \"cert-err33-c\", \"ruleIndex\": 1, \"level\": \"warning\","
      "\"message\": {\"text\": \"unchecked\"}, \"locations\": [{\"physicalLocation\": {"
      "\"artifactLocation\": {\"uri\": \"a.c\"}, \"region\": {\"startLine\": 2}}}]}]}";
  char *tidy_text = NULL;
  assert_true(asprintf(&tidy_text, "{\"version\": \"2.1.0\", \"runs\": [%s, %s]}", tidy_run,
                       tidy_run) > 0);
  char *p2 = fx_write(dir, "tidy.sarif", tidy_text);

  char *argv[] = {"merge", "-o", pm, p2, p1, NULL};
  assert_int_equal(tc_merge_main(5, argv), 0);
  char *text = fx_read(pm);
  cJSON *log = cJSON_Parse(text);
  assert_non_null(log);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(log, "runs")), 2);
  const cJSON *tc = run_of_tool(log, "tagcheck"), *tidy = run_of_tool(log, "clang-tidy");
  assert_non_null(tc);
  assert_non_null(tidy);
  const cJSON *tc_results = cJSON_GetObjectItem(tc, "results");
  assert_int_equal(cJSON_GetArraySize(tc_results), 1);
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(tc_results, 0), "ruleId")->valuestring,
                      "backend-mismatch");
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(tc_results, 0), "baselineState")
                          ->valuestring, "new"); /* kept through the merge */
  const cJSON *tc_rule;
  cJSON_ArrayForEach(tc_rule, cJSON_GetObjectItem(cJSON_GetObjectItem(
                                  cJSON_GetObjectItem(tc, "tool"), "driver"), "rules"))
    assert_null(strstr(cJSON_GetObjectItem(tc_rule, "id")->valuestring, "cert-"));
  /* the other tool's run: its version, its rules, its result once, renumbered into its rules */
  const cJSON *driver = cJSON_GetObjectItem(cJSON_GetObjectItem(tidy, "tool"), "driver");
  assert_string_equal(cJSON_GetObjectItem(driver, "version")->valuestring, "19");
  const cJSON *tidy_results = cJSON_GetObjectItem(tidy, "results");
  assert_int_equal(cJSON_GetArraySize(tidy_results), 1);
  const cJSON *res = cJSON_GetArrayItem(tidy_results, 0);
  int idx = cJSON_GetObjectItem(res, "ruleIndex")->valueint;
  assert_string_equal(
      cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(driver, "rules"), idx), "id")
          ->valuestring,
      "cert-err33-c");
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(
      cJSON_GetArrayItem(cJSON_GetObjectItem(tidy, "invocations"), 0), "executionSuccessful")));
  cJSON_Delete(log);
  free(text);
  free(tidy_text);
  tc_report_free(&s1);
  free(p1), free(p2), free(pm);
  free(src);
  fx_rmtree(dir);
  free(dir);
}

/* The runtime's log (tool "dt") and tagcheck's share the fingerprint scheme: the bug both
   report is counted once (in the first run), the runtime's other failure stays the runtime's. */
static void test_runtime_log_counts_shared_bug_once(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  const char *fmt =
      "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"%s\","
      " \"rules\": [{\"id\": \"backend-mismatch\"}]}}, \"results\": [%s]}]}";
  const char *res_fmt =
      "{\"ruleId\": \"backend-mismatch\", \"message\": {\"text\": \"m\"}, \"locations\": "
      "[{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"a.c\"}, \"region\": "
      "{\"startLine\": %d}}}], \"partialFingerprints\": {\"tagcheckFingerprint/v1\": \"%s\"}}";
  char *shared = NULL, *own = NULL, *both = NULL, *tc = NULL, *dt = NULL;
  assert_true(asprintf(&shared, res_fmt, 5, "00000000000000000000000000000005") > 0);
  assert_true(asprintf(&own, res_fmt, 9, "00000000000000000000000000000009") > 0);
  assert_true(asprintf(&both, "%s, %s", own, shared) > 0);
  assert_true(asprintf(&tc, fmt, "tagcheck", shared) > 0);
  assert_true(asprintf(&dt, fmt, "dt", both) > 0);
  char *p1 = fx_write(dir, "tc.sarif", tc), *p2 = fx_write(dir, "dt.sarif", dt);
  char *pm = in(dir, "merged.sarif");
  char *argv[] = {"merge", "-o", pm, p1, p2, NULL};
  assert_int_equal(tc_merge_main(5, argv), 0);
  char *text = fx_read(pm);
  cJSON *log = cJSON_Parse(text);
  assert_non_null(log);
  const cJSON *tc_run = run_of_tool(log, "tagcheck"), *dt_run = run_of_tool(log, "dt");
  assert_non_null(tc_run);
  assert_non_null(dt_run);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(tc_run, "results")), 1);
  const cJSON *dt_results = cJSON_GetObjectItem(dt_run, "results");
  assert_int_equal(cJSON_GetArraySize(dt_results), 1);
  const cJSON *region = cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(dt_results, 0),
                                                                 "locations"), 0),
                          "physicalLocation"),
      "region");
  assert_int_equal(cJSON_GetObjectItem(region, "startLine")->valueint, 9);
  cJSON_Delete(log);
  free(text), free(pm), free(p1), free(p2);
  free(shared), free(own), free(both), free(tc), free(dt);
  fx_rmtree(dir);
  free(dir);
}

static void test_bad_inputs(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *bad = fx_write(dir, "bad.sarif", "{\"version\": \"2.1.0\", \"runs\": [ {");
  char *notsarif = fx_write(dir, "n.sarif", "{\"version\": \"2.1.0\"}");
  char *out = in(dir, "o.sarif");
  char *a1[] = {"merge", "-o", out, bad, NULL};
  assert_int_equal(tc_merge_main(4, a1), 2);
  char *a2[] = {"merge", "-o", out, notsarif, NULL};
  assert_int_equal(tc_merge_main(4, a2), 2);
  /* a run that names no tool cannot be kept as its tool's own: refused */
  char *anonymous = fx_write(dir, "anon.sarif", "{\"version\": \"2.1.0\", \"runs\": [{\"results\": []}]}");
  char *a_anon[] = {"merge", "-o", out, anonymous, NULL};
  assert_int_equal(tc_merge_main(4, a_anon), 2);
  free(anonymous);
  char *a3[] = {"merge", "-o", out, NULL};
  assert_int_equal(tc_merge_main(3, a3), 2);
  char *a4[] = {"merge", "--bogus", NULL};
  assert_int_equal(tc_merge_main(2, a4), 2);
  char *a5[] = {"merge", "-o", NULL};
  assert_int_equal(tc_merge_main(2, a5), 2);
  char *a6[] = {"merge", "/no/such/file.sarif", NULL};
  assert_int_equal(tc_merge_main(2, a6), 2);
  free(bad), free(notsarif), free(out);
  fx_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_merge_shards),
      cmocka_unit_test(test_merge_keeps_other_tools),
      cmocka_unit_test(test_runtime_log_counts_shared_bug_once),
      cmocka_unit_test(test_bad_inputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
