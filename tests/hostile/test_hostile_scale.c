/* tests/hostile/test_hostile_scale.c — inputs that were quadratic or exponential, through the
 * real tagcheck binary, each run under a short time limit (a few seconds where the old code took
 * a minute to forever): a rules file describing 20,000 functions, `tagcheck merge` of 50,000
 * results (40,000 of them another tool's, at one place and without fingerprints),
 * an exclude glob with many stars against a long file name, and a compile database of 250,000
 * entries. Inputs are generated here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "hx_util.h"

/* Seconds each run may take: linear work on these inputs takes a few seconds at most (under
   AddressSanitizer, on a loaded machine); the quadratic code took a minute or more. */
#define SCALE_LIMIT 30

static const char k_bug[] =
    "#include <dt/dt.h>\n"
    "void f(void) {\n"
    "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
    "  dt_tensor *s = dt_ones(dt_sim(0), DT_FLOAT, 0, 0);\n"
    "  dt_free(dt_add(a, s));\n"
    "}\n";

static void run_limited(hx_result *r, const char *cwd, const char *const *args) {
  const char *argv[16];
  size_t n = 0;
  argv[n++] = hx_tagcheck_path();
  while (*args && n + 1 < sizeof argv / sizeof *argv) argv[n++] = *args++;
  argv[n] = NULL;
  hx_run_limit(argv, cwd, 0, SCALE_LIMIT, r);
  if (r->timed_out) fail_msg("%s took more than %d s", argv[1], SCALE_LIMIT);
}

/* rules/dt.json with 20,000 more functions (copies of its first one): loading must stay
   linear (10,000 took 11 s before), and the analysis is unchanged. */
static void test_rules_with_20000_functions(void **state) {
  (void)state;
  char dir[256];
  hx_mkdtemp(dir);
  size_t len;
  char *text = hx_read(hx_rules_path(), &len);
  assert_non_null(text);
  cJSON *rules = cJSON_Parse(text);
  assert_non_null(rules);
  cJSON *fns = cJSON_GetObjectItem(rules, "functions");
  assert_non_null(fns);
  for (int i = 0; i < 20000; i++) {
    char name[64];
    snprintf(name, sizeof name, "generated_fn_%d", i);
    cJSON_AddItemToObject(fns, name, cJSON_Duplicate(fns->child, 1));
  }
  char *big = cJSON_Print(rules);
  char *rules_path = hx_write_str(dir, "big.json", big);
  char *bug = hx_write_str(dir, "bug.c", k_bug);
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  hx_result r;
  const char *args[] = {"--no-cache", "--rules", rules_path, bug, "--", inc, NULL};
  run_limited(&r, dir, args);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "bug.c:5:11: error: dt_add:");
  hx_result_free(&r);
  free(inc), free(bug), free(rules_path), free(big), free(text);
  cJSON_Delete(rules);
  hx_rmtree(dir);
}

/* A SARIF log of one run of `tool` with n results; with fingerprints (tagcheck's), each its
   own line; without (another tool), all at one place, differing by message only. */
static char *sarif_log(const char *tool, int n, int fingerprints, int first) {
  cJSON *log = cJSON_CreateObject();
  cJSON_AddStringToObject(log, "version", "2.1.0");
  cJSON *run = cJSON_CreateObject();
  cJSON_AddItemToArray(cJSON_AddArrayToObject(log, "runs"), run);
  cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
  cJSON_AddStringToObject(driver, "name", tool);
  cJSON *rule = cJSON_CreateObject();
  cJSON_AddStringToObject(rule, "id", "some-rule");
  cJSON_AddItemToArray(cJSON_AddArrayToObject(driver, "rules"), rule);
  cJSON *results = cJSON_AddArrayToObject(run, "results");
  for (int i = first; i < first + n; i++) {
    cJSON *res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "ruleId", "some-rule");
    cJSON_AddNumberToObject(res, "ruleIndex", 0);
    char text[64];
    snprintf(text, sizeof text, "finding %d", i);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(res, "message"), "text", text);
    cJSON *loc = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(res, "locations"), loc);
    cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(phys, "artifactLocation"), "uri", "a.c");
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(phys, "region"), "startLine",
                            fingerprints ? i + 1 : 1);
    if (fingerprints) {
      char fp[64];
      snprintf(fp, sizeof fp, "%032x:1", i);
      cJSON_AddStringToObject(cJSON_AddObjectToObject(res, "partialFingerprints"),
                              "tagcheckFingerprint/v1", fp);
    }
    cJSON_AddItemToArray(results, res);
  }
  char *s = cJSON_PrintUnformatted(log);
  cJSON_Delete(log);
  return s;
}

/* 50,000 results: two tagcheck shards of 5,000 sharing 2,500; two logs of another tool of
   20,000 sharing 10,000, all at one place without fingerprints (merging 20,000 like them took
   4.7 s before, pairwise whole-result comparisons; 0.12 s now). */
static void test_merge_50000_results(void **state) {
  (void)state;
  char dir[256];
  hx_mkdtemp(dir);
  char *l1 = sarif_log("tagcheck", 5000, 1, 0), *l2 = sarif_log("tagcheck", 5000, 1, 2500);
  char *l3 = sarif_log("other-tool", 20000, 0, 0), *l4 = sarif_log("other-tool", 20000, 0, 10000);
  char *p1 = hx_write_str(dir, "1.sarif", l1), *p2 = hx_write_str(dir, "2.sarif", l2);
  char *p3 = hx_write_str(dir, "3.sarif", l3), *p4 = hx_write_str(dir, "4.sarif", l4);
  char *out = hx_fmt("%s/merged.sarif", dir);
  hx_result r;
  const char *args[] = {"merge", "-o", out, p1, p2, p3, p4, NULL};
  run_limited(&r, dir, args);
  hx_assert_status(&r, 0);
  hx_result_free(&r);
  size_t len;
  char *merged = hx_read(out, &len);
  cJSON *log = cJSON_Parse(merged);
  assert_non_null(log);
  /* one run per tool; the results two logs share are kept once */
  const cJSON *runs = cJSON_GetObjectItem(log, "runs");
  assert_int_equal(cJSON_GetArraySize(runs), 2);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 0), "results")),
                   7500);
  /* 30,000 distinct: the first 25,000 kept (GitHub's limit per run), and a notification says so */
  const cJSON *other = cJSON_GetArrayItem(runs, 1);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(other, "results")), 25000);
  assert_non_null(strstr(merged, "hold 30000 results; this log keeps the first 25000"));
  cJSON_Delete(log);
  free(merged), free(out);
  free(p1), free(p2), free(p3), free(p4);
  cJSON_free(l1), cJSON_free(l2), cJSON_free(l3), cJSON_free(l4);
  hx_rmtree(dir);
}

/* "*a*a…*a*b.c" (20 stars) against a 60-letter name that ends otherwise: a backtracking
   matcher tries every way to split the name among the stars. The finding stays reported. */
static void test_exponential_exclude_glob(void **state) {
  (void)state;
  char dir[256];
  hx_mkdtemp(dir);
  char pattern[128] = "", name[128] = "";
  for (int i = 0; i < 20; i++) strcat(pattern, "*a");
  strcat(pattern, "*b.c");
  for (int i = 0; i < 60; i++) strcat(name, "a");
  strcat(name, ".c");
  char *config = hx_fmt("{\"exclude\": [\"%s\", \"**/%s\", \"/**/**/**/**/**/**/**/**/**/x\"]}",
                        pattern, pattern);
  free(hx_write_str(dir, ".tagcheck.json", config));
  char *bug = hx_write_str(dir, name, k_bug);
  char *inc = hx_fmt("-I%s", hx_runtime_include());
  hx_result r;
  const char *args[] = {"--no-cache", bug, "--", inc, NULL};
  run_limited(&r, dir, args);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, ":5:11: error: dt_add:");
  hx_result_free(&r);
  free(inc), free(bug), free(config);
  hx_rmtree(dir);
}

/* A compile database of 250,000 entries (the last ones repeating the first): finding the
   repeats compared every pair of entries (7 s for 100,000, six times that for 250,000; 0.4 s
   for 100,000 now). Shard 1 of 250,000 is bug.c alone. */
static void test_compdb_250000_entries(void **state) {
  (void)state;
  char dir[256];
  hx_mkdtemp(dir);
  char *bug = hx_write_str(dir, "bug.c", k_bug);
  size_t cap = 96u << 20, len = 0;
  char *db = malloc(cap);
  assert_non_null(db);
  len += (size_t)snprintf(db + len, cap - len, "[");
  for (int i = 0; i < 250000; i++) {
    const char *file = i == 0 || i >= 249990 ? "bug.c" : NULL;
    char name[32];
    snprintf(name, sizeof name, "f%d.c", i);
    len += (size_t)snprintf(db + len, cap - len,
                            "%s{\"directory\": \"%s\", \"command\": \"cc -I%s -c %s\", "
                            "\"file\": \"%s\"}\n",
                            i ? "," : "", dir, hx_runtime_include(), file ? file : name,
                            file ? file : name);
    assert_true(len < cap);
  }
  len += (size_t)snprintf(db + len, cap - len, "]\n");
  free(hx_write(dir, "compile_commands.json", db, len));
  hx_result r;
  const char *args[] = {"--no-cache", "-p", dir, "--shard", "1/250000", NULL};
  run_limited(&r, dir, args);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "bug.c:5:11: error: dt_add:");
  hx_result_free(&r);
  free(db), free(bug);
  hx_rmtree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rules_with_20000_functions),
      cmocka_unit_test(test_merge_50000_results),
      cmocka_unit_test(test_exponential_exclude_glob),
      cmocka_unit_test(test_compdb_250000_entries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
