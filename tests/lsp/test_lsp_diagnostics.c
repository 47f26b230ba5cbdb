/* tests/lsp/test_lsp_diagnostics.c — LSP Diagnostic objects built from a tagcheck report: ranges
 * computed on an open document's unsaved text (UTF-16 by default, UTF-8 when negotiated),
 * severity, code, codeDescription, source, relatedInformation pointing into a header on disk,
 * findings grouped under each file's URI, suppressed findings left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp/lsp_diagnostics.h"
#include "base/uri.h"

typedef struct fixture {
  char dir[64];
  char main_path[128];
  char header_path[128];
  char *main_uri;
  tc_lsp_docs docs;
  tc_report report;
} fixture;

/* On disk the main file differs from the unsaved text: positions must follow the latter. */
static const char k_unsaved[] = "#include \"model.h\"\n"
                                "void f(void) { /* \xf0\x9f\x98\x80 */ dt_add(a, b); }\n";
static const char k_header[] = "static dt_tensor *a, *b; /* \xc3\xa9 */ dt_tensor *c;\n";

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  snprintf(f->dir, sizeof f->dir, "/tmp/tc-lsp-diag-XXXXXX");
  if (!mkdtemp(f->dir)) return -1;
  snprintf(f->main_path, sizeof f->main_path, "%s/main file.c", f->dir);
  snprintf(f->header_path, sizeof f->header_path, "%s/model.h", f->dir);
  FILE *h = fopen(f->header_path, "w");
  fputs(k_header, h);
  fclose(h);
  FILE *m = fopen(f->main_path, "w");
  fputs("/* saved long ago */\n", m);
  fclose(m);
  f->main_uri = tc_file_uri(f->main_path);
  tc_lsp_docs_init(&f->docs);
  tc_lsp_docs_open(&f->docs, f->main_uri, k_unsaved, strlen(k_unsaved), 4);
  tc_report_init(&f->report);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  tc_report_free(&f->report);
  tc_lsp_docs_free(&f->docs);
  free(f->main_uri);
  unlink(f->main_path);
  unlink(f->header_path);
  rmdir(f->dir);
  free(f);
  return 0;
}

static int pos_line(const cJSON *range, const char *which) {
  return cJSON_GetObjectItem(cJSON_GetObjectItem(range, which), "line")->valueint;
}
static int pos_char(const cJSON *range, const char *which) {
  return cJSON_GetObjectItem(cJSON_GetObjectItem(range, which), "character")->valueint;
}

/* One finding on the call in the unsaved main file, noted from the header. */
static void add_findings(fixture *f) {
  unsigned call_col = (unsigned)(strstr(k_unsaved, "dt_add") - strchr(k_unsaved, '\n'));
  tc_loc at = {f->main_path, 2, call_col, 0, 0};
  tc_diag *d = tc_report_add(&f->report, "backend-mismatch", TC_LEVEL_ERROR, &at, "dt_add", "f",
                             "dt_add: a is on cpu, b is on sim:0");
  unsigned col_c = (unsigned)(strstr(k_header, "dt_tensor *c") - k_header) + 1;
  tc_loc origin = {f->header_path, 1, col_c, 1, col_c + 12};
  tc_diag_add_note(d, &origin, "tag sim:0 comes from here");
  tc_loc in_header = {f->header_path, 1, col_c, 0, 0};
  tc_report_add(&f->report, "device-mismatch", TC_LEVEL_WARNING, &in_header, "dt_sub", "g", "in header");
  tc_diag *s = tc_report_add(&f->report, "kind-mismatch", TC_LEVEL_ERROR, &at, "dt_add", "f", "suppressed");
  s->suppressed = 1;
}

static void test_utf16_diagnostics(void **state) {
  fixture *f = *state;
  add_findings(f);
  cJSON *by_uri = tc_lsp_diagnostics_build(&f->report, &f->docs, f->main_uri, 0);
  assert_non_null(by_uri);
  assert_int_equal(cJSON_GetArraySize(by_uri), 2);

  const cJSON *mine = cJSON_GetObjectItem(by_uri, f->main_uri);
  assert_int_equal(cJSON_GetArraySize(mine), 1); /* the suppressed one is left out */
  const cJSON *d = cJSON_GetArrayItem(mine, 0);
  const cJSON *range = cJSON_GetObjectItem(d, "range");
  // "void f(void) { /* " is 18 UTF-16 units, the emoji 2, " */ " 4: dt_add starts at 24.
  assert_int_equal(pos_line(range, "start"), 1);
  assert_int_equal(pos_char(range, "start"), 24);
  assert_int_equal(pos_line(range, "end"), 1);
  assert_int_equal(pos_char(range, "end"), 30); /* the name dt_add, the analyzer gave no end */
  assert_int_equal(cJSON_GetObjectItem(d, "severity")->valueint, 1);
  assert_string_equal(cJSON_GetObjectItem(d, "code")->valuestring, "backend-mismatch");
  assert_string_equal(cJSON_GetObjectItem(d, "source")->valuestring, "tagcheck");
  assert_string_equal(cJSON_GetObjectItem(d, "message")->valuestring, "dt_add: a is on cpu, b is on sim:0");
  const char *href = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "codeDescription"), "href")->valuestring;
  assert_int_equal(strncmp(href, "https://", 8), 0);
  assert_non_null(strstr(href, "#backend-mismatch"));

  const cJSON *rel = cJSON_GetObjectItem(d, "relatedInformation");
  assert_int_equal(cJSON_GetArraySize(rel), 1);
  const cJSON *ri = cJSON_GetArrayItem(rel, 0);
  char *header_uri = tc_file_uri(f->header_path);
  const cJSON *loc = cJSON_GetObjectItem(ri, "location");
  assert_string_equal(cJSON_GetObjectItem(loc, "uri")->valuestring, header_uri);
  const cJSON *nr = cJSON_GetObjectItem(loc, "range");
  // "static dt_tensor *a, *b; /* " is 28 units, é 1, " */ " 4: 33; then 12 ASCII bytes.
  assert_int_equal(pos_char(nr, "start"), 33);
  assert_int_equal(pos_char(nr, "end"), 45);
  assert_string_equal(cJSON_GetObjectItem(ri, "message")->valuestring, "tag sim:0 comes from here");

  const cJSON *theirs = cJSON_GetObjectItem(by_uri, header_uri);
  assert_int_equal(cJSON_GetArraySize(theirs), 1);
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(theirs, 0), "severity")->valueint, 2);
  free(header_uri);
  cJSON_Delete(by_uri);
}

static void test_utf8_diagnostics(void **state) {
  fixture *f = *state;
  add_findings(f);
  cJSON *by_uri = tc_lsp_diagnostics_build(&f->report, &f->docs, f->main_uri, 1);
  const cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItem(by_uri, f->main_uri), 0);
  const cJSON *range = cJSON_GetObjectItem(d, "range");
  assert_int_equal(pos_char(range, "start"), 26); /* bytes: the emoji counts 4 */
  assert_int_equal(pos_char(range, "end"), 32);
  cJSON_Delete(by_uri);
}

static void test_empty_report_still_names_the_document(void **state) {
  fixture *f = *state;
  cJSON *by_uri = tc_lsp_diagnostics_build(&f->report, &f->docs, f->main_uri, 0);
  assert_int_equal(cJSON_GetArraySize(by_uri), 1);
  assert_true(cJSON_IsArray(cJSON_GetObjectItem(by_uri, f->main_uri)));
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(by_uri, f->main_uri)), 0);
  cJSON_Delete(by_uri);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_utf16_diagnostics, setup, teardown),
      cmocka_unit_test_setup_teardown(test_utf8_diagnostics, setup, teardown),
      cmocka_unit_test_setup_teardown(test_empty_report_still_names_the_document, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
