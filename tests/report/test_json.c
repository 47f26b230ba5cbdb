/* tests/report/test_json.c — the --format json report: its documented fields, suppressed
 * findings listed only with --show-suppressed, failures and the summary counts. */
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

static cJSON *to_json(const tc_report *r, tc_options *o) {
  o->format = TC_FORMAT_JSON;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(tc_write_report(r, o, f), 0);
  fclose(f);
  cJSON *doc = cJSON_Parse(buf);
  assert_non_null(doc);
  free(buf);
  return doc;
}

static int num(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  assert_true(cJSON_IsNumber(v));
  return v->valueint;
}

static const char *str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  assert_true(cJSON_IsString(v));
  return v->valuestring;
}

static void test_fields_and_summary(void **state) {
  (void)state;
  char *dir = fx_mkdtemp(), *outside = fx_mkdtemp();
  tc_report r;
  fx_sample_report(&r, dir, outside);
  tc_apply_suppressions(&r);
  tc_options o;
  fx_options(&o, dir);
  cJSON *doc = to_json(&r, &o);
  assert_string_equal(str(cJSON_GetObjectItem(doc, "tool"), "name"), "tagcheck");
  const cJSON *findings = cJSON_GetObjectItem(doc, "findings");
  assert_int_equal(cJSON_GetArraySize(findings), (int)r.n_diags - 1); /* one suppressed */
  const cJSON *f;
  int seen = 0;
  cJSON_ArrayForEach(f, findings) {
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(f, "suppressed")));
    if (num(f, "line") != 7 || strstr(str(f, "file"), "train.c") == NULL) continue;
    seen = 1;
    assert_string_equal(str(f, "rule"), "backend-mismatch");
    assert_string_equal(str(f, "level"), "error");
    assert_int_equal(num(f, "col"), 18);
    assert_int_equal(num(f, "endCol"), 30);
    assert_string_equal(str(f, "operation"), "dt_add");
    assert_string_equal(str(f, "function"), "train");
    assert_int_equal(strlen(str(f, "fingerprint")), 32);
    const cJSON *notes = cJSON_GetObjectItem(f, "notes");
    assert_int_equal(cJSON_GetArraySize(notes), 3);
    assert_int_equal(num(cJSON_GetArrayItem(notes, 0), "line"), 4);
    assert_string_equal(str(cJSON_GetArrayItem(notes, 2), "message"), "x created on cpu here");
  }
  assert_true(seen);
  const cJSON *failures = cJSON_GetObjectItem(doc, "failures");
  assert_int_equal(cJSON_GetArraySize(failures), 1);
  assert_non_null(strstr(str(cJSON_GetArrayItem(failures, 0), "reason"), "unknown type"));
  const cJSON *sum = cJSON_GetObjectItem(doc, "summary");
  assert_int_equal(num(sum, "units"), 4);
  assert_int_equal(num(sum, "errors"), 3);
  assert_int_equal(num(sum, "warnings"), 1);
  assert_int_equal(num(sum, "suppressed"), 1);
  assert_int_equal(num(sum, "findings"), 4);
  assert_int_equal(num(sum, "failures"), 1);
  cJSON_Delete(doc);

  o.show_suppressed = 1;
  doc = to_json(&r, &o);
  findings = cJSON_GetObjectItem(doc, "findings");
  assert_int_equal(cJSON_GetArraySize(findings), (int)r.n_diags);
  int suppressed = 0;
  cJSON_ArrayForEach(f, findings) {
    if (cJSON_IsTrue(cJSON_GetObjectItem(f, "suppressed"))) {
      suppressed++;
      assert_string_equal(str(f, "justification"), "checked by hand");
    }
  }
  assert_int_equal(suppressed, 1);
  cJSON_Delete(doc);

  tc_report_free(&r);
  fx_options_free(&o);
  fx_rmtree(dir);
  fx_rmtree(outside);
  free(dir);
  free(outside);
}

static void test_empty(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  tc_options o;
  fx_options(&o, "/");
  cJSON *doc = to_json(&r, &o);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "findings")), 0);
  assert_int_equal(num(cJSON_GetObjectItem(doc, "summary"), "findings"), 0);
  cJSON_Delete(doc);
  tc_report_free(&r);
  fx_options_free(&o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fields_and_summary),
      cmocka_unit_test(test_empty),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
