/* tests/hostile/test_hostile_sources.c — hostile C sources through the real tagcheck binary, all
 * generated at test time: a one-line file of a megabyte, expressions and blocks nested thousands
 * deep, a function of 20,000 statements, self-including headers, units with compile errors next
 * to good ones (exit 3, the others still reported), paths with spaces and bytes that are not
 * UTF-8 (percent-encoded in SARIF, valid UTF-8 in every report), empty, binary and missing
 * sources. Nothing may crash or hang (each run has a time limit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "hx_util.h"
#include "utf8_valid.h"

/* A growable string for generating sources. */
typedef struct gen {
  char *s;
  size_t len, cap;
} gen;

static void put(gen *g, const char *text) {
  size_t n = strlen(text);
  if (g->len + n + 1 > g->cap) {
    g->cap = (g->len + n + 1) * 2;
    g->s = realloc(g->s, g->cap);
    assert_non_null(g->s);
  }
  memcpy(g->s + g->len, text, n + 1);
  g->len += n;
}

static void put_n(gen *g, const char *text, size_t times) {
  for (size_t i = 0; i < times; i++) put(g, text);
}

#define PROLOGUE                                                                 \
  "#include <dt/dt.h>\n"                                                         \
  "void f(int c) {\n"                                                            \
  "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"                        \
  "  dt_tensor *s = dt_ones(dt_sim(0), DT_FLOAT, 0, 0);\n"

typedef hx_fixture fixture;

/* Writes name with g's text and analyzes it alone (text format). */
static void analyze(fixture *fx, const char *name, gen *g, hx_result *r) {
  char *path = hx_write(fx->dir, name, g->s, g->len);
  hx_tagcheck(r, fx->dir, "--no-cache", path, "--", fx->inc, NULL);
  free(path);
  free(g->s);
  memset(g, 0, sizeof *g);
}

/* Either analyzed (exit 1, the finding reported) or refused by clang (exit 3, the unit named
   with the reason): both are fine answers for a nesting past clang's limits; a crash is not. */
static void assert_found_or_refused(const hx_result *r, const char *name) {
  if (r->status == 1) {
    hx_assert_out_has(r, "[backend-mismatch]");
  } else {
    hx_assert_status(r, 3);
    hx_assert_out_has(r, name);
    hx_assert_out_has(r, "could not analyze");
  }
}

static void test_megabyte_line(void **state) {
  fixture *fx = *state;
  gen g = {0};
  put(&g, "#include <dt/dt.h>\nvoid f(void) { /* ");
  put_n(&g, "0123456789abcdef", 65536); /* 1 MiB of comment on the line */
  put(&g, " */ dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);"
          " dt_tensor *s = dt_ones(dt_sim(0), DT_FLOAT, 0, 0); dt_free(dt_add(a, s)); }\n");
  /* The column of the dt_add call on line 2. */
  const char *call = strstr(g.s, "dt_add(");
  const char *line2 = strchr(g.s, '\n') + 1;
  long col = (long)(call - line2) + 9; /* "dt_free(" precedes the call */
  (void)col;
  char *path = hx_write(fx->dir, "megaline.c", g.s, g.len);
  long add_col = (long)(call - line2) + 1;
  free(g.s);

  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", path, "--", fx->inc, NULL);
  hx_assert_status(&r, 1);
  char *where = hx_fmt("megaline.c:2:%ld: error: dt_add", add_col);
  hx_assert_out_has(&r, where);
  free(where);
  hx_result_free(&r);

  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "sarif", "--root", fx->dir, path, "--",
              fx->inc, NULL);
  hx_assert_status(&r, 1);
  assert_true(utf8_valid(r.out, r.out_len));
  cJSON *log = cJSON_ParseWithLength(r.out, r.out_len);
  assert_non_null(log);
  const cJSON *res = cJSON_GetArrayItem(
      cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0), "results"), 0);
  const cJSON *region = cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "locations"), 0),
                          "physicalLocation"),
      "region");
  assert_int_equal(cJSON_GetObjectItem(region, "startLine")->valueint, 2);
  assert_int_equal(cJSON_GetObjectItem(region, "startColumn")->valueint, add_col);
  cJSON_Delete(log);
  hx_result_free(&r);
  free(path);
}

static void test_parentheses_thousands_deep(void **state) {
  fixture *fx = *state;
  gen g = {0};
  put(&g, PROLOGUE "  dt_free(dt_add(a, ");
  put_n(&g, "(", 5000);
  put(&g, "s");
  put_n(&g, ")", 5000);
  put(&g, "));\n}\n");
  hx_result r;
  analyze(fx, "parens.c", &g, &r);
  assert_found_or_refused(&r, "parens.c");
  hx_result_free(&r);
}

static void test_braces_thousands_deep(void **state) {
  fixture *fx = *state;
  gen g = {0};
  put(&g, PROLOGUE);
  put_n(&g, "{ ", 4000);
  put(&g, "dt_free(dt_add(a, s));");
  put_n(&g, " }", 4000);
  put(&g, "\n}\n");
  hx_result r;
  analyze(fx, "braces.c", &g, &r);
  assert_found_or_refused(&r, "braces.c");
  hx_result_free(&r);
}

/* Statements nested without brackets go past clang's bracket limit: they reach the analyzer.
   1,400 levels are within the front end's nesting bound (LW_MAX_DEPTH, 1500): the finding must
   be there. 6,000 levels are past it: the subtree becomes unknown (no finding), which is fine,
   but it must not crash or hang. */
static void test_statements_thousands_deep(void **state) {
  fixture *fx = *state;
  gen g = {0};
  put(&g, PROLOGUE);
  put_n(&g, "if (c) ", 1400);
  put(&g, "dt_free(dt_add(a, s));\n}\n");
  hx_result r;
  analyze(fx, "ifs.c", &g, &r);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "ifs.c:5:");
  hx_assert_out_has(&r, "[backend-mismatch]");
  hx_result_free(&r);

  put(&g, PROLOGUE);
  put_n(&g, "while (c) ", 6000);
  put(&g, "dt_free(dt_add(a, s));\n}\n");
  analyze(fx, "whiles.c", &g, &r);
  if (r.status != 0) {
    hx_assert_status(&r, 1);
    hx_assert_out_has(&r, "whiles.c:5:");
  }
  hx_result_free(&r);

  put(&g, PROLOGUE);
  for (int i = 0; i < 2000; i++) {
    char line[96];
    snprintf(line, sizeof line, "  if (c == %d) a = dt_neg(a); else\n", i);
    put(&g, line);
  }
  put(&g, "  a = dt_relu(a);\n  dt_free(dt_add(a, s));\n}\n");
  analyze(fx, "elseif.c", &g, &r);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "elseif.c:2006:");
  hx_result_free(&r);

  put(&g, PROLOGUE "  dt_tensor *r = ");
  put_n(&g, "c ? a : ", 3000);
  put(&g, "a;\n  dt_free(dt_add(r, s));\n}\n");
  analyze(fx, "ternary.c", &g, &r);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "ternary.c:6:");
  hx_result_free(&r);
}

static void test_expression_chain(void **state) {
  fixture *fx = *state;
  gen g = {0};
  put(&g, "int f(int x) { return x");
  put_n(&g, " + x", 20000);
  put(&g, "; }\n");
  hx_result r;
  analyze(fx, "chain.c", &g, &r);
  hx_assert_status(&r, 0);
  hx_result_free(&r);

  /* dt calls nested 200 deep (below clang's bracket limit), the mismatch at the top. */
  put(&g, PROLOGUE "  dt_tensor *n = ");
  put_n(&g, "dt_neg(", 200);
  put(&g, "a");
  put_n(&g, ")", 200);
  put(&g, ";\n  dt_free(dt_add(n, s));\n}\n");
  analyze(fx, "calls.c", &g, &r);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "calls.c:6:11: error: dt_add");
  hx_result_free(&r);
}

static void test_function_of_20000_statements(void **state) {
  fixture *fx = *state;
  gen g = {0};
  put(&g, PROLOGUE "  dt_tensor *t = a;\n");
  for (int i = 0; i < 20000; i++) put(&g, i % 2 ? "  t = dt_neg(t);\n" : "  c = c * 3 + 1;\n");
  put(&g, "  dt_free(dt_add(t, s));\n}\n");
  hx_result r;
  analyze(fx, "long.c", &g, &r);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "long.c:20006:11: error: dt_add");
  hx_result_free(&r);
}

static void test_self_including_headers(void **state) {
  fixture *fx = *state;
  free(hx_write_str(fx->dir, "self.h", "#include \"self.h\"\nint x;\n"));
  free(hx_write_str(fx->dir, "ping.h", "#include \"pong.h\"\n"));
  free(hx_write_str(fx->dir, "pong.h", "#include \"ping.h\"\n"));
  free(hx_write_str(fx->dir, "once.h", "#pragma once\n#include \"once.h\"\n#include <dt/dt.h>\n"));
  const char *cases[][2] = {{"self.c", "#include \"self.h\"\n"}, {"ping.c", "#include \"ping.h\"\n"}};
  for (size_t i = 0; i < 2; i++) {
    gen g = {0};
    put(&g, cases[i][1]);
    put(&g, "int main(void) { return 0; }\n");
    hx_result r;
    analyze(fx, cases[i][0], &g, &r);
    hx_assert_status(&r, 3);
    hx_assert_out_has(&r, cases[i][0]);
    hx_assert_out_has(&r, "could not analyze");
    hx_result_free(&r);
  }
  /* Guarded self-inclusion is fine: the unit is analyzed. */
  gen g = {0};
  put(&g, "#include \"once.h\"\nvoid f(void) {\n"
          "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
          "  dt_tensor *s = dt_ones(dt_sim(0), DT_FLOAT, 0, 0);\n"
          "  dt_free(dt_add(a, s));\n}\n");
  hx_result r;
  analyze(fx, "guarded.c", &g, &r);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "guarded.c:5:11: error: dt_add");
  hx_result_free(&r);
}

/* A compile database whose units fail in different ways, next to one with a finding. */
static void test_units_with_compile_errors(void **state) {
  fixture *fx = *state;
  free(hx_write_str(fx->dir, "good.c", PROLOGUE "  dt_free(dt_add(a, s));\n}\n"));
  free(hx_write_str(fx->dir, "broken.c", "#include <dt/dt.h>\nvoid g(void) { dt_tensor *x = ; }\n"));
  free(hx_write_str(fx->dir, "noinclude.c", "#include \"no/such/header.h\"\nint h;\n"));
  char *dir_c = hx_fmt("%s/dir.c", fx->dir);
  assert_int_equal(mkdir(dir_c, 0755), 0); /* a directory where a source file is expected */
  free(dir_c);
  const char *units[] = {"broken.c", "good.c", "missing.c", "noinclude.c", "dir.c"};
  gen db = {0};
  put(&db, "[");
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    char *entry = hx_fmt("%s{\"directory\": \"%s\", \"arguments\": [\"cc\", \"%s\", \"-c\", \"%s\"],"
                         " \"file\": \"%s\"}\n",
                         i ? "," : "", fx->dir, fx->inc, units[i], units[i]);
    put(&db, entry);
    free(entry);
  }
  put(&db, "]\n");
  char *dbdir = hx_fmt("%s/build", fx->dir);
  free(hx_write(dbdir, "compile_commands.json", db.s, db.len));
  free(db.s);

  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "-j", "2", "-p", dbdir, NULL);
  hx_assert_status(&r, 3);
  hx_assert_out_has(&r, "good.c:5:11: error: dt_add");
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcmp(units[i], "good.c") == 0) continue;
    char *failed = hx_fmt("%s: error: could not analyze", units[i]);
    hx_assert_out_has(&r, failed);
    free(failed);
  }
  hx_result_free(&r);

  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "sarif", "-p", dbdir, NULL);
  hx_assert_status(&r, 3);
  cJSON *log = cJSON_ParseWithLength(r.out, r.out_len);
  assert_non_null(log);
  const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(run, "results")), 1);
  const cJSON *inv = cJSON_GetArrayItem(cJSON_GetObjectItem(run, "invocations"), 0);
  assert_true(cJSON_IsFalse(cJSON_GetObjectItem(inv, "executionSuccessful")));
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(inv, "toolExecutionNotifications")), 4);
  cJSON_Delete(log);
  hx_result_free(&r);
  free(dbdir);
}

/* A directory with a space, bytes that are not UTF-8, '#' and '%' in the names. */
static void test_odd_paths(void **state) {
  fixture *fx = *state;
  const char *rel = "with space/\xff\xfe caf\xc3\xa9/bug #1%.c";
  const char *encoded = "with%20space/%FF%FE%20caf%C3%A9/bug%20%231%25.c";
  char *path = hx_write_str(fx->dir, rel, PROLOGUE "  dt_free(dt_add(a, s));\n}\n");

  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", path, "--", fx->inc, NULL);
  hx_assert_status(&r, 1);
  /* text output names the file as it is, but for the bytes that are not UTF-8, escaped as
     clang escapes them: the terminal gets valid UTF-8 */
  char *shown = hx_fmt("%s/with space/<FF><FE> caf\xc3\xa9/bug #1%%.c:5:11: error: ", fx->dir);
  hx_assert_out_has(&r, shown);
  assert_true(utf8_valid(r.out, r.out_len));
  free(shown);
  hx_result_free(&r);

  /* SARIF below the root: a relative, percent-encoded URI; valid UTF-8 throughout. */
  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "sarif", "--root", fx->dir, path, "--",
              fx->inc, NULL);
  hx_assert_status(&r, 1);
  assert_true(utf8_valid(r.out, r.out_len));
  cJSON *log = cJSON_ParseWithLength(r.out, r.out_len);
  assert_non_null(log);
  const cJSON *res = cJSON_GetArrayItem(
      cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0), "results"), 0);
  const cJSON *al = cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "locations"), 0),
                          "physicalLocation"),
      "artifactLocation");
  assert_string_equal(cJSON_GetObjectItem(al, "uri")->valuestring, encoded);
  assert_string_equal(cJSON_GetObjectItem(al, "uriBaseId")->valuestring, "%SRCROOT%");
  cJSON_Delete(log);
  hx_result_free(&r);

  /* Outside the root: an absolute file:// URI, percent-encoded too. */
  char *elsewhere = hx_fmt("%s/with space", fx->dir);
  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "sarif", "--root", "/proc", path, "--",
              fx->inc, NULL);
  hx_assert_status(&r, 1);
  assert_true(utf8_valid(r.out, r.out_len));
  hx_assert_out_has(&r, "file:///");
  hx_assert_out_has(&r, encoded);
  free(elsewhere);
  hx_result_free(&r);

  /* JSON output: valid UTF-8 even for a path that is not. */
  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "json", path, "--", fx->inc, NULL);
  hx_assert_status(&r, 1);
  assert_true(utf8_valid(r.out, r.out_len));
  cJSON *json = cJSON_ParseWithLength(r.out, r.out_len);
  assert_non_null(json);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(json, "findings")), 1);
  cJSON_Delete(json);
  hx_result_free(&r);

  /* The same file through a compile database in a directory with a space. */
  char *dbdir = hx_fmt("%s/build dir \xff", fx->dir);
  gen db = {0};
  char *entry = hx_fmt("[{\"directory\": \"%s\", \"command\": \"cc '%s' -c '%s'\", \"file\": \"%s\"}]\n",
                       fx->dir, fx->inc, rel, rel);
  put(&db, entry);
  free(entry);
  free(hx_write(dbdir, "compile_commands.json", db.s, db.len));
  free(db.s);
  hx_tagcheck(&r, fx->dir, "--no-cache", "-p", dbdir, NULL);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "bug #1%.c:5:11: error: dt_add");
  hx_result_free(&r);
  free(dbdir);
  free(path);
}

/* Terminal control sequences in the finding's line (a comment clearing the screen and setting
   the title, a right-to-left override) and in a string (a color, a C1 byte): text output carries
   none of them raw. (A raw carriage return would end the line for clang.) */
static void test_control_characters_in_sources(void **state) {
  fixture *fx = *state;
  char *path = hx_write_str(fx->dir, "ctl.c", PROLOGUE
                            "  dt_free(dt_add(a, s)); /* \x1b[2J\x1b]0;title\x07 \xe2\x80\xae */\n"
                            "  (void)\"\x1b[31m\x9b\";\n}\n");
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", path, "--", fx->inc, NULL);
  hx_assert_status(&r, 1);
  hx_assert_out_has(&r, "/* <U+001B>[2J<U+001B>]0;title<U+0007> <U+202E> */");
  assert_null(memchr(r.out, 0x1b, r.out_len));
  assert_null(memchr(r.out, 0x07, r.out_len));
  assert_null(strstr(r.out, "\xe2\x80\xae"));
  assert_true(utf8_valid(r.out, r.out_len));
  hx_result_free(&r);
  free(path);
}

/* A suppression marker in a string literal suppresses nothing; a trailing suppression covers
   its own line only, not the finding on the next one. */
static void test_suppression_only_in_comments(void **state) {
  fixture *fx = *state;
  char *path = hx_write_str(fx->dir, "sup.c", PROLOGUE
                            "  (void)\"// tagcheck: ignore[backend-mismatch]\"; dt_free(dt_add(a, s));\n"
                            "  dt_free(dt_add(s, a)); // tagcheck: ignore[backend-mismatch] known\n"
                            "  dt_free(dt_add(a, s));\n"
                            "}\n");
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "--show-suppressed", path, "--", fx->inc, NULL);
  hx_assert_status(&r, 1);
  const char *lines[] = {"sup.c:5:58: error: dt_add:", "sup.c:6:11: error: dt_add:",
                         "sup.c:7:11: error: dt_add:"};
  for (int i = 0; i < 3; i++) {
    const char *at = strstr(r.out, lines[i]);
    if (!at) fail_msg("no '%s' in:\n%s", lines[i], r.out);
    size_t n = strcspn(at, "\n");
    int suppressed = memmem(at, n, "(suppressed: known)", 19) != NULL;
    if (suppressed != (i == 1)) fail_msg("line %d: %.*s", 5 + i, (int)n, at);
  }
  hx_result_free(&r);
  free(path);
}

static void test_empty_binary_missing_sources(void **state) {
  fixture *fx = *state;
  hx_result r;
  char *empty = hx_write_str(fx->dir, "empty.c", "");
  hx_tagcheck(&r, fx->dir, "--no-cache", empty, "--", fx->inc, NULL);
  hx_assert_status(&r, 0);
  hx_result_free(&r);
  free(empty);

  char bin[4096];
  unsigned x = 12345;
  for (size_t i = 0; i < sizeof bin; i++) {
    x = x * 1103515245u + 12345u;
    bin[i] = (char)(x >> 16);
  }
  char *binary = hx_write(fx->dir, "binary.c", bin, sizeof bin);
  hx_tagcheck(&r, fx->dir, "--no-cache", binary, "--", fx->inc, NULL);
  hx_assert_status(&r, 3);
  hx_assert_out_has(&r, "binary.c");
  hx_result_free(&r);
  free(binary);

  hx_tagcheck(&r, fx->dir, "--no-cache", "no-such-file.c", "--", fx->inc, NULL);
  hx_assert_status(&r, 3);
  hx_assert_out_has(&r, "no-such-file.c");
  hx_result_free(&r);

  hx_tagcheck(&r, fx->dir, "--no-cache", fx->dir, "--", fx->inc, NULL); /* a directory */
  hx_assert_status(&r, 3);
  hx_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_megabyte_line, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_parentheses_thousands_deep, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_braces_thousands_deep, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_statements_thousands_deep, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_expression_chain, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_function_of_20000_statements, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_self_including_headers, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_units_with_compile_errors, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_odd_paths, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_control_characters_in_sources, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_suppression_only_in_comments, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_empty_binary_missing_sources, hx_fixture_setup, hx_fixture_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
