/* tests/report/test_sarif.c — the SARIF writer against SPEC §5: rule metadata, ruleIndex,
 * %SRCROOT%-relative and percent-encoded URIs, regions, codeFlows and relatedLocations from the
 * notes (linked from the message), suppressions, invocations with failed units, fingerprints
 * that survive inserted lines, GitHub's result limit. The validator test checks the schema. */
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

static cJSON *to_sarif(const tc_report *r, const char *root) {
  tc_options o;
  fx_options(&o, root);
  o.format = TC_FORMAT_SARIF;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(tc_write_report(r, &o, f), 0);
  fclose(f);
  cJSON *log = cJSON_Parse(buf);
  assert_non_null(log);
  free(buf);
  fx_options_free(&o);
  return log;
}

static cJSON *get(const cJSON *o, const char *path) {
  /* "a.b.0.c": object keys and array indices */
  char *copy = fx_strdup(path);
  const cJSON *cur = o;
  for (char *tok = strtok(copy, "."); tok && cur; tok = strtok(NULL, ".")) {
    if (tok[0] >= '0' && tok[0] <= '9') cur = cJSON_GetArrayItem(cur, atoi(tok));
    else cur = cJSON_GetObjectItemCaseSensitive(cur, tok);
  }
  free(copy);
  return (cJSON *)cur;
}

static const char *str(const cJSON *o, const char *path) {
  const cJSON *v = get(o, path);
  assert_true(cJSON_IsString(v));
  return v->valuestring;
}

static int num(const cJSON *o, const char *path) {
  const cJSON *v = get(o, path);
  assert_true(cJSON_IsNumber(v));
  return v->valueint;
}

/* The result whose primary location is at this line of a file whose URI ends in suffix. */
static const cJSON *result_at(const cJSON *log, const char *suffix, int line) {
  const cJSON *res;
  cJSON_ArrayForEach(res, get(log, "runs.0.results")) {
    const char *uri = str(res, "locations.0.physicalLocation.artifactLocation.uri");
    size_t n = strlen(uri), m = strlen(suffix);
    if (n >= m && strcmp(uri + n - m, suffix) == 0 &&
        num(res, "locations.0.physicalLocation.region.startLine") == line)
      return res;
  }
  fail_msg("no result at %s:%d", suffix, line);
  return NULL;
}

typedef struct sample {
  char *dir, *outside;
  tc_report r;
  cJSON *log;
} sample;

static int setup(void **state) {
  sample *s = calloc(1, sizeof *s);
  s->dir = fx_mkdtemp();
  s->outside = fx_mkdtemp();
  fx_sample_report(&s->r, s->dir, s->outside);
  tc_apply_suppressions(&s->r);
  s->log = to_sarif(&s->r, s->dir);
  *state = s;
  return 0;
}

static int teardown(void **state) {
  sample *s = *state;
  cJSON_Delete(s->log);
  tc_report_free(&s->r);
  fx_rmtree(s->dir);
  fx_rmtree(s->outside);
  free(s->dir);
  free(s->outside);
  free(s);
  return 0;
}

static void test_log_and_driver(void **state) {
  sample *s = *state;
  assert_string_equal(str(s->log, "version"), "2.1.0");
  assert_non_null(strstr(str(s->log, "$schema"), "sarif-2.1.0"));
  assert_int_equal(cJSON_GetArraySize(get(s->log, "runs")), 1);
  const cJSON *driver = get(s->log, "runs.0.tool.driver");
  assert_string_equal(str(driver, "name"), "tagcheck");
  assert_true(strlen(str(driver, "version")) > 0);
  assert_string_equal(str(driver, "semanticVersion"), str(driver, "version"));
  assert_true(strncmp(str(driver, "informationUri"), "https://", 8) == 0);
  const cJSON *rule;
  int n = 0;
  cJSON_ArrayForEach(rule, get(driver, "rules")) {
    n++;
    assert_true(strlen(str(rule, "id")) > 0);
    assert_true(strlen(str(rule, "name")) > 0);
    assert_true(strcasecmp(str(rule, "name"), str(rule, "id")) != 0);
    assert_true(strlen(str(rule, "shortDescription.text")) > 0);
    assert_true(strlen(str(rule, "fullDescription.text")) > 0);
    assert_true(strlen(str(rule, "help.text")) > 0);
    assert_true(strlen(str(rule, "help.markdown")) > 0);
    assert_non_null(strstr(str(rule, "helpUri"), str(rule, "id")));
    assert_string_equal(str(rule, "defaultConfiguration.level"), "error");
  }
  assert_int_equal(n, (int)s->r.n_rules);
}

static void test_results_locations(void **state) {
  sample *s = *state;
  const cJSON *results = get(s->log, "runs.0.results");
  assert_int_equal(cJSON_GetArraySize(results), (int)s->r.n_diags);
  const cJSON *rules = get(s->log, "runs.0.tool.driver.rules");
  const cJSON *res;
  cJSON_ArrayForEach(res, results) {
    int idx = num(res, "ruleIndex");
    assert_string_equal(str(cJSON_GetArrayItem(rules, idx), "id"), str(res, "ruleId"));
    assert_int_equal(cJSON_GetArraySize(get(res, "locations")), 1);
    assert_true(strlen(str(res, "message.text")) > 0);
    assert_true(strlen(str(res, "partialFingerprints.tagcheckFingerprint/v1")) == 32);
  }
  const cJSON *r = result_at(s->log, "src/train.c", 7);
  assert_string_equal(str(r, "locations.0.physicalLocation.artifactLocation.uri"), "src/train.c");
  assert_string_equal(str(r, "locations.0.physicalLocation.artifactLocation.uriBaseId"),
                      "%SRCROOT%");
  assert_int_equal(num(r, "locations.0.physicalLocation.region.startColumn"), 18);
  assert_int_equal(num(r, "locations.0.physicalLocation.region.endLine"), 7);
  assert_int_equal(num(r, "locations.0.physicalLocation.region.endColumn"), 30);
  assert_string_equal(str(r, "locations.0.physicalLocation.region.snippet.text"),
                      "  dt_tensor *y = dt_add(w, x);");
  assert_string_equal(str(r, "locations.0.logicalLocations.0.name"), "train");
  assert_string_equal(str(r, "level"), "error");

  /* spaces, '#', '%' and a non-UTF-8 byte are percent-encoded */
  r = result_at(s->log, ".c", 1);
  const cJSON *res2;
  int found_odd = 0, found_outside = 0;
  cJSON_ArrayForEach(res2, results) {
    const char *uri = str(res2, "locations.0.physicalLocation.artifactLocation.uri");
    if (strstr(uri, "odd")) {
      found_odd = 1;
      assert_string_equal(uri, "src/odd%20name%20%231%20100%25%FF.c");
    }
    if (strstr(uri, "helper.c")) {
      found_outside = 1;
      assert_null(get(res2, "locations.0.physicalLocation.artifactLocation.uriBaseId"));
      assert_true(strncmp(uri, "file:///", 8) == 0);
      assert_non_null(strstr(uri, s->outside));
    }
  }
  assert_true(found_odd && found_outside);
  (void)r;

  char expect[4096];
  snprintf(expect, sizeof expect, "file://%s/", s->dir);
  assert_string_equal(str(s->log, "runs.0.originalUriBaseIds.%SRCROOT%.uri"), expect);
}

static void test_flows_and_related(void **state) {
  sample *s = *state;
  const cJSON *r = result_at(s->log, "src/train.c", 7);
  const cJSON *steps = get(r, "codeFlows.0.threadFlows.0.locations");
  assert_int_equal(cJSON_GetArraySize(steps), 4); /* three notes, then the call */
  assert_int_equal(num(steps, "0.location.physicalLocation.region.startLine"), 4);
  assert_int_equal(num(steps, "2.location.physicalLocation.region.startLine"), 6);
  assert_int_equal(num(steps, "3.location.physicalLocation.region.startLine"), 7);
  assert_non_null(strstr(str(steps, "0.location.message.text"), "dt_sim(1)"));
  const cJSON *related = get(r, "relatedLocations");
  assert_int_equal(cJSON_GetArraySize(related), 3);
  for (int i = 0; i < 3; i++) {
    char path[32];
    snprintf(path, sizeof path, "%d.id", i);
    assert_int_equal(num(related, path), i + 1);
  }
  const char *msg = str(r, "message.text");
  assert_non_null(strstr(msg, "[train.c:4](1)"));
  assert_non_null(strstr(msg, "[train.c:6](3)"));
  /* literal brackets in the engine's message are escaped so they do not read as links */
  const cJSON *k = result_at(s->log, "src/train.c", 9);
  assert_non_null(strstr(str(k, "message.text"), "\\[float\\]"));
}

static void test_suppression_and_invocation(void **state) {
  sample *s = *state;
  const cJSON *k = result_at(s->log, "src/train.c", 9);
  assert_string_equal(str(k, "suppressions.0.kind"), "inSource");
  assert_string_equal(str(k, "suppressions.0.justification"), "checked by hand");
  assert_null(get(result_at(s->log, "src/train.c", 7), "suppressions"));
  const cJSON *inv = get(s->log, "runs.0.invocations.0");
  assert_true(cJSON_IsFalse(get(inv, "executionSuccessful")));
  const cJSON *n = get(inv, "toolExecutionNotifications.0");
  assert_string_equal(str(n, "level"), "error");
  assert_non_null(strstr(str(n, "message.text"), "unknown type name"));
  assert_non_null(strstr(str(n, "message.text"), "odd name"));
  assert_non_null(get(n, "locations.0.physicalLocation.artifactLocation.uri"));
}

static void test_success_without_failures(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  cJSON *log = to_sarif(&r, "/");
  assert_true(cJSON_IsTrue(get(log, "runs.0.invocations.0.executionSuccessful")));
  assert_null(get(log, "runs.0.invocations.0.toolExecutionNotifications"));
  assert_int_equal(cJSON_GetArraySize(get(log, "runs.0.results")), 0);
  cJSON_Delete(log);
  tc_report_free(&r);
}

/* The fingerprints of a report over `text`, with findings at the given lines of dt_add. */
static void fingerprints_for(const char *dir, const char *text, const unsigned *lines, size_t n,
                             char out[][40]) {
  char *src = fx_write(dir, "fp.c", text);
  tc_report r;
  tc_report_init(&r);
  for (size_t i = 0; i < n; i++) {
    tc_loc loc = {src, lines[i], 3, 0, 0};
    tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "step", "m");
  }
  tc_report_sort(&r);
  cJSON *log = to_sarif(&r, dir);
  for (size_t i = 0; i < n; i++) {
    char path[128];
    snprintf(path, sizeof path, "runs.0.results.%zu.partialFingerprints.tagcheckFingerprint/v1", i);
    snprintf(out[i], 40, "%s", str(log, path));
  }
  cJSON_Delete(log);
  tc_report_free(&r);
  free(src);
}

static void test_fingerprints_stable_under_inserted_lines(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char before[2][40], after[2][40], edited[1][40];
  unsigned l1[] = {2, 3};
  fingerprints_for(dir, "void step(void) {\n  y = dt_add(a, b);\n  y = dt_add(a, b);\n}\n", l1, 2,
                   before);
  /* identical lines get different fingerprints (occurrence index) */
  assert_string_not_equal(before[0], before[1]);
  unsigned l2[] = {5, 6};
  fingerprints_for(dir,
                   "// a new comment\n#include <stdio.h>\n\nvoid step(void) {\n"
                   "    y = dt_add(a,b);   // reindented\n  y = dt_add(a, b);\n}\n",
                   l2, 2, after);
  assert_string_equal(before[0], after[0]);
  assert_string_equal(before[1], after[1]);
  unsigned l3[] = {2};
  fingerprints_for(dir, "void step(void) {\n  y = dt_add(b, a);\n}\n", l3, 1, edited);
  assert_string_not_equal(before[0], edited[0]);
  fx_rmtree(dir);
  free(dir);
}

static void test_fingerprints_do_not_depend_on_report_order(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "o.c", "void g(void) {\n  y = dt_add(a, b);\n  y = dt_add(a, b);\n}\n");
  char fp[2][2][40]; /* [order][line 2 or 3] */
  for (int order = 0; order < 2; order++) {
    tc_report r;
    tc_report_init(&r);
    for (int k = 0; k < 2; k++) {
      unsigned line = order == 0 ? 2 + (unsigned)k : 3 - (unsigned)k; /* unsorted the 2nd time */
      tc_loc loc = {src, line, 3, 0, 0};
      tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "g", "m");
    }
    cJSON *log = to_sarif(&r, dir);
    const cJSON *res;
    cJSON_ArrayForEach(res, get(log, "runs.0.results")) {
      int line = num(res, "locations.0.physicalLocation.region.startLine");
      snprintf(fp[order][line - 2], 40, "%s", str(res, "partialFingerprints.tagcheckFingerprint/v1"));
    }
    cJSON_Delete(log);
    tc_report_free(&r);
  }
  assert_string_equal(fp[0][0], fp[1][0]);
  assert_string_equal(fp[0][1], fp[1][1]);
  assert_string_not_equal(fp[0][0], fp[0][1]);
  free(src);
  fx_rmtree(dir);
  free(dir);
}

static void test_result_limit(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  tc_report_add_builtin_rules(&r);
  for (unsigned i = 0; i < 25003; i++) {
    tc_loc loc = {"/nonexistent/many.c", i + 1, 1, 0, 0};
    tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "f", "m");
  }
  tc_report_sort(&r);
  cJSON *log = to_sarif(&r, "/nonexistent");
  assert_int_equal(cJSON_GetArraySize(get(log, "runs.0.results")), 25000);
  assert_int_equal(num(log, "runs.0.results.24999.locations.0.physicalLocation.region.startLine"),
                   25000);
  const char *note = str(log, "runs.0.invocations.0.toolExecutionNotifications.0.message.text");
  assert_non_null(strstr(note, "25003"));
  assert_string_equal(str(log, "runs.0.invocations.0.toolExecutionNotifications.0.level"),
                      "warning");
  cJSON_Delete(log);
  tc_report_free(&r);
}

static void test_odd_strings(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  tc_loc loc = {"/x/bad\xfe\xff name.c", 1, 1, 0, 0};
  tc_diag *d = tc_report_add(&r, "rule-from-a-rules-file", TC_LEVEL_WARNING, &loc, "op\xc3",
                             "fn", "bad \xc3\x28 utf8 [x]");
  tc_diag_add_note(d, &loc, "\xff");
  size_t big = (size_t)1 << 20;
  char *huge = malloc(big + 1);
  memset(huge, 'z', big);
  huge[big] = '\0';
  tc_loc loc2 = {"/x/huge.c", 3, 1, 0, 0};
  tc_report_add(&r, "rule-from-a-rules-file", TC_LEVEL_WARNING, &loc2, "op", "fn", huge);
  free(huge);
  cJSON *log = to_sarif(&r, "/x");
  /* a huge message is cut (at a character boundary) and ends with an ellipsis */
  const char *cut = str(log, "runs.0.results.1.message.text");
  assert_true(strlen(cut) <= 32768);
  assert_true(strlen(cut) > 30000);
  assert_string_equal(cut + strlen(cut) - 3, "\xE2\x80\xA6");
  /* an unknown rule id still gets a rules entry so that ruleIndex is valid */
  assert_string_equal(str(log, "runs.0.tool.driver.rules.0.id"), "rule-from-a-rules-file");
  assert_int_equal(num(log, "runs.0.results.0.ruleIndex"), 0);
  assert_string_equal(str(log, "runs.0.results.0.level"), "warning");
  assert_non_null(strstr(str(log, "runs.0.results.0.message.text"), "\xEF\xBF\xBD"));
  assert_string_equal(str(log, "runs.0.results.0.locations.0.physicalLocation.artifactLocation.uri"),
                      "bad%FE%FF%20name.c");
  cJSON_Delete(log);
  tc_report_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_log_and_driver, setup, teardown),
      cmocka_unit_test_setup_teardown(test_results_locations, setup, teardown),
      cmocka_unit_test_setup_teardown(test_flows_and_related, setup, teardown),
      cmocka_unit_test_setup_teardown(test_suppression_and_invocation, setup, teardown),
      cmocka_unit_test(test_success_without_failures),
      cmocka_unit_test(test_fingerprints_stable_under_inserted_lines),
      cmocka_unit_test(test_fingerprints_do_not_depend_on_report_order),
      cmocka_unit_test(test_result_limit),
      cmocka_unit_test(test_odd_strings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
