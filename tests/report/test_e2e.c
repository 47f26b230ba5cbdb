/* tests/report/test_e2e.c — the report layer through the real tagcheck binary (environment:
 * TAGCHECK, the binary; TC_SOURCE_DIR, the source tree): text with carets and the summary on
 * stderr, JSON, SARIF with %SRCROOT%-relative URIs, suppression comments, baselines that
 * survive inserted lines, .tagcheck.json (severity, fail-on, errors with positions),
 * --fail-on, a unit that fails (exit 3), --shard over a compile database and `tagcheck merge`;
 * fix-its in text, JSON, SARIF and --export-fixes, applied by --fix (and by
 * clang-apply-replacements when it is installed), and withheld where they are not certain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "fixtures.h"

/* A program with one backend mismatch: the dt_add call at line 9, column 18. */
static const char *BUGGY =
    "#include <stdint.h>\n"
    "#include <dt/dt.h>\n"
    "\n"
    "void step(void) {\n"
    "  static const int64_t shape[1] = {4};\n"
    "  dt_tensor *a = dt_zeros(dt_cpu(), DT_FLOAT, 1, shape);\n"
    "  dt_tensor *b = dt_zeros(dt_sim(0), DT_FLOAT, 1, shape);\n"
    "  /* the next call mixes cpu and sim:0 */\n"
    "  dt_tensor *c = dt_add(a, b);\n"
    "  dt_free(c);\n"
    "}\n";

static const char *CLEAN =
    "#include <stdint.h>\n"
    "#include <dt/dt.h>\n"
    "\n"
    "void ok(void) {\n"
    "  static const int64_t shape[1] = {4};\n"
    "  dt_tensor *a = dt_zeros(dt_cpu(), DT_FLOAT, 1, shape);\n"
    "  dt_tensor *b = dt_ones(dt_cpu(), DT_FLOAT, 1, shape);\n"
    "  dt_tensor *c = dt_add(a, b);\n"
    "  dt_free(c);\n"
    "}\n";

typedef struct e2e {
  const char *tagcheck, *src;
  char *dir;
  char *out, *err; /* the last run's stdout and stderr */
} e2e;

static int setup(void **state) {
  e2e *e = calloc(1, sizeof *e);
  e->tagcheck = getenv("TAGCHECK");
  e->src = getenv("TC_SOURCE_DIR");
  if (!e->tagcheck || !e->src) fail_msg("TAGCHECK and TC_SOURCE_DIR must be set");
  e->dir = fx_mkdtemp();
  *state = e;
  return 0;
}

static int teardown(void **state) {
  e2e *e = *state;
  fx_rmtree(e->dir);
  free(e->dir);
  free(e->out);
  free(e->err);
  free(e);
  return 0;
}

/* Runs `tagcheck ARGS` in e->dir (ARGS is shell text); returns the exit status. */
static int run(e2e *e, const char *fmt, ...) {
  char args[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  char *cmd = NULL;
  if (asprintf(&cmd, "cd '%s' && '%s' %s >stdout.txt 2>stderr.txt", e->dir, e->tagcheck, args) < 0)
    abort();
  int st = system(cmd);
  free(cmd);
  free(e->out);
  free(e->err);
  char *p = NULL;
  if (asprintf(&p, "%s/stdout.txt", e->dir) < 0) abort();
  e->out = fx_read(p);
  free(p);
  if (asprintf(&p, "%s/stderr.txt", e->dir) < 0) abort();
  e->err = fx_read(p);
  free(p);
  assert_true(WIFEXITED(st));
  return WEXITSTATUS(st);
}

/* text with the first `from` replaced by `to` (a new string). */
static char *replaced(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  assert_non_null(at);
  char *s = NULL;
  if (asprintf(&s, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) < 0) abort();
  return s;
}

static char *inc(const e2e *e) {
  char *s = NULL;
  if (asprintf(&s, "-- -I'%s/runtime/include'", e->src) < 0) abort();
  return s;
}

static cJSON *read_json(const e2e *e, const char *name) {
  char *p = NULL;
  if (asprintf(&p, "%s/%s", e->dir, name) < 0) abort();
  char *text = fx_read(p);
  free(p);
  assert_non_null(text);
  cJSON *j = cJSON_Parse(text);
  free(text);
  assert_non_null(j);
  return j;
}

static const cJSON *sarif_results(const cJSON *log) {
  return cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0), "results");
}

static void test_text_and_exit_status(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "buggy.c", BUGGY));
  free(fx_write(e->dir, "clean.c", CLEAN));
  char *I = inc(e);
  assert_int_equal(run(e, "--no-cache clean.c %s", I), 0);
  assert_string_equal(e->out, "");
  assert_int_equal(run(e, "--no-cache buggy.c %s", I), 1);
  if (!strstr(e->out, "buggy.c:9:18: error: ")) fail_msg("text output:\n%s", e->out);
  assert_non_null(strstr(e->out, "[backend-mismatch]\n  dt_tensor *c = dt_add(a, b);\n"
                                 "                 ^"));
  /* the report body on stdout, the driver's summary on stderr (none with -q) */
  assert_non_null(strstr(e->err, "1 error"));
  assert_null(strstr(e->out, "1 error"));
  assert_int_equal(run(e, "--no-cache -q buggy.c %s", I), 1);
  assert_null(strstr(e->err, "1 error"));
  assert_int_equal(run(e, "--no-cache --fail-on never buggy.c %s", I), 0);
  assert_non_null(strstr(e->out, "[backend-mismatch]"));
  free(I);
}

static void test_json_and_sarif(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "src dir/buggy.c", BUGGY));
  char *I = inc(e);
  assert_int_equal(run(e, "--no-cache --format json -o out.json 'src dir/buggy.c' %s", I), 1);
  cJSON *j = read_json(e, "out.json");
  const cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "findings"), 0);
  assert_string_equal(cJSON_GetObjectItem(f, "rule")->valuestring, "backend-mismatch");
  assert_int_equal(cJSON_GetObjectItem(f, "line")->valueint, 9);
  assert_int_equal(cJSON_GetObjectItem(f, "col")->valueint, 18);
  cJSON_Delete(j);

  assert_int_equal(run(e, "--no-cache --format sarif -o out.sarif --root . 'src dir/buggy.c' %s",
                       I), 1);
  cJSON *log = read_json(e, "out.sarif");
  const cJSON *res = cJSON_GetArrayItem(sarif_results(log), 0);
  assert_string_equal(cJSON_GetObjectItem(res, "ruleId")->valuestring, "backend-mismatch");
  const cJSON *pl = cJSON_GetObjectItem(
      cJSON_GetArrayItem(cJSON_GetObjectItem(res, "locations"), 0), "physicalLocation");
  const cJSON *al = cJSON_GetObjectItem(pl, "artifactLocation");
  assert_string_equal(cJSON_GetObjectItem(al, "uri")->valuestring, "src%20dir/buggy.c");
  assert_string_equal(cJSON_GetObjectItem(al, "uriBaseId")->valuestring, "%SRCROOT%");
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(pl, "region"), "startLine")->valueint,
                   9);
  assert_non_null(cJSON_GetObjectItem(res, "partialFingerprints"));
  cJSON_Delete(log);
  free(I);
}

static void test_suppression_comment(void **state) {
  e2e *e = *state;
  char *text = replaced(BUGGY, "/* the next call mixes cpu and sim:0 */",
                        "// tagcheck: ignore[backend-mismatch] mixed on purpose");
  free(fx_write(e->dir, "sup.c", text));
  free(text);
  char *I = inc(e);
  assert_int_equal(run(e, "--no-cache sup.c %s", I), 0);
  assert_string_equal(e->out, "");
  assert_int_equal(run(e, "--no-cache --show-suppressed sup.c %s", I), 0);
  assert_non_null(strstr(e->out, "(suppressed"));
  assert_int_equal(run(e, "--no-cache --format sarif -o s.sarif sup.c %s", I), 0);
  cJSON *log = read_json(e, "s.sarif");
  const cJSON *res = cJSON_GetArrayItem(sarif_results(log), 0);
  assert_non_null(res);
  assert_string_equal(
      cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "suppressions"), 0), "kind")
          ->valuestring,
      "inSource");
  cJSON_Delete(log);
  free(I);
}

static void test_baseline_survives_inserted_lines(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "b.c", BUGGY));
  char *I = inc(e);
  assert_int_equal(run(e, "--no-cache --format sarif -o base.sarif b.c %s", I), 1);
  char *moved = NULL;
  if (asprintf(&moved, "/* a new header comment */\n\n%s", BUGGY) < 0) abort();
  free(fx_write(e->dir, "b.c", moved));
  free(moved);
  assert_int_equal(run(e, "--no-cache --baseline base.sarif b.c %s", I), 0);
  assert_string_equal(e->out, "");
  if (!strstr(e->err, "; 1 known finding hidden by the baseline")) fail_msg("stderr: %s", e->err);
  /* a second, new mismatch is reported */
  char *more = replaced(BUGGY, "  dt_free(c);\n", "  dt_add(b, a);\n  dt_free(c);\n");
  free(fx_write(e->dir, "b.c", more));
  free(more);
  assert_int_equal(run(e, "--no-cache --baseline base.sarif b.c %s", I), 1);
  assert_non_null(strstr(e->out, "b.c:10:"));
  assert_null(strstr(e->out, "b.c:9:"));
  /* SARIF says what a baseline comparison found: the result left is new */
  assert_int_equal(run(e, "--no-cache --baseline base.sarif --format sarif -o new.sarif b.c %s", I), 1);
  cJSON *log = read_json(e, "new.sarif");
  const cJSON *results = sarif_results(log);
  assert_int_equal(cJSON_GetArraySize(results), 1);
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(results, 0), "baselineState")->valuestring,
                      "new");
  cJSON_Delete(log);
  assert_int_equal(run(e, "--no-cache --format sarif -o full.sarif b.c %s", I), 1);
  log = read_json(e, "full.sarif"); /* no baseline: no baselineState */
  assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(sarif_results(log), 0), "baselineState"));
  cJSON_Delete(log);
  assert_int_equal(run(e, "--no-cache --baseline missing.sarif b.c %s", I), 2);
  assert_non_null(strstr(e->err, "missing.sarif"));
  free(I);
}

static void test_config_file(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "proj/src/c.c", BUGGY));
  char *I = inc(e);
  free(fx_write(e->dir, "proj/.tagcheck.json",
                "{\"severity\": {\"backend-mismatch\": \"warning\"}, \"fail-on\": \"error\"}"));
  assert_int_equal(run(e, "--no-cache proj/src/c.c %s", I), 0);
  assert_non_null(strstr(e->out, "c.c:9:18: warning: "));
  assert_int_equal(run(e, "--no-cache --fail-on warning proj/src/c.c %s", I), 1);
  free(fx_write(e->dir, "proj/.tagcheck.json", "{\"exclude\": [\"src/**\"]}"));
  assert_int_equal(run(e, "--no-cache proj/src/c.c %s", I), 0);
  free(fx_write(e->dir, "proj/.tagcheck.json", "{\n  \"severity\": {\"backend-mismatch\": 3}\n}"));
  assert_int_equal(run(e, "--no-cache proj/src/c.c %s", I), 2);
  if (!strstr(e->err, ".tagcheck.json:2:")) fail_msg("stderr: %s", e->err);
  free(I);
}

/* Like .clang-tidy: each file's findings are judged by the nearest configuration above it,
   merged over the command line's options; the run's own configuration (found from the first
   file) gives the run-wide settings; --config names one for every file. */
static void test_nearest_config_per_file(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "proj/a/c.c", BUGGY));
  free(fx_write(e->dir, "proj/b/d.c", BUGGY));
  free(fx_write(e->dir, "proj/b/deep/e.c", BUGGY));
  free(fx_write(e->dir, "proj/.tagcheck.json", "{\"severity\": {\"backend-mismatch\": \"warning\"}}"));
  free(fx_write(e->dir, "proj/b/.tagcheck.json", "{\"disable\": [\"backend-mismatch\"]}"));
  char *I = inc(e);
  /* The run's configuration is proj/'s (from a/c.c); b/d.c and b/deep/e.c are b's: disabled
     there, and b's file does not inherit proj's severity. */
  assert_int_equal(run(e, "--no-cache proj/a/c.c proj/b/d.c proj/b/deep/e.c %s", I), 1);
  assert_non_null(strstr(e->out, "c.c:9:18: warning: "));
  assert_null(strstr(e->out, "d.c:"));
  assert_null(strstr(e->out, "e.c:"));
  /* Named in another order, the same verdicts. */
  assert_int_equal(run(e, "--no-cache proj/b/d.c proj/a/c.c %s", I), 1);
  assert_non_null(strstr(e->out, "c.c:9:18: warning: "));
  assert_null(strstr(e->out, "d.c:"));
  /* The command line wins over every configuration. */
  assert_int_equal(run(e, "--no-cache --enable backend-mismatch proj/b/d.c %s", I), 1);
  assert_non_null(strstr(e->out, "d.c:9:18: error: "));
  /* --config: one configuration for every file. */
  assert_int_equal(run(e, "--no-cache --config proj/.tagcheck.json proj/a/c.c proj/b/d.c %s", I), 1);
  assert_non_null(strstr(e->out, "c.c:9:18: warning: "));
  assert_non_null(strstr(e->out, "d.c:9:18: warning: "));
  /* A nested configuration that cannot be read: named with its position, its files judged by
     the run's configuration, the report still written, exit status 2. */
  free(fx_write(e->dir, "proj/b/.tagcheck.json", "{\n  \"disabel\": []\n}"));
  assert_int_equal(run(e, "--no-cache proj/a/c.c proj/b/d.c %s", I), 2);
  if (!strstr(e->err, "b/.tagcheck.json:2:")) fail_msg("stderr: %s", e->err);
  assert_non_null(strstr(e->out, "d.c:9:18: warning: "));
  free(I);
}

/* An out-of-tree build folder (-p ../build) has no configuration above it: the project's
   .tagcheck.json, above the sources, still sets the run's settings (fail-on here) and judges
   the files (severity). */
static void test_out_of_tree_build_finds_the_project_config(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "proj/src/c.c", BUGGY));
  free(fx_write(e->dir, "proj/.tagcheck.json",
                "{\"severity\": {\"backend-mismatch\": \"warning\"}, \"fail-on\": \"error\"}"));
  char *db = NULL;
  if (asprintf(&db,
               "[{\"directory\": \"%s/build\", \"file\": \"%s/proj/src/c.c\", \"arguments\": "
               "[\"cc\", \"-c\", \"-I%s/runtime/include\", \"%s/proj/src/c.c\"]}]\n",
               e->dir, e->dir, e->src, e->dir) < 0)
    abort();
  free(fx_write(e->dir, "build/compile_commands.json", db));
  free(db);
  assert_int_equal(run(e, "--no-cache -p build"), 0); /* fail-on error: a warning passes */
  if (!strstr(e->out, "c.c:9:18: warning: ")) fail_msg("stdout:\n%s", e->out);
}

static void test_failed_unit(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "good.c", BUGGY));
  free(fx_write(e->dir, "broken.c", "#include \"no_such_header.h\"\nint x = ;\n"));
  char *I = inc(e);
  assert_int_equal(run(e, "--no-cache --format sarif -o f.sarif good.c broken.c %s", I), 3);
  cJSON *log = read_json(e, "f.sarif");
  const cJSON *inv =
      cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0),
                                             "invocations"),
                         0);
  assert_true(cJSON_IsFalse(cJSON_GetObjectItem(inv, "executionSuccessful")));
  const cJSON *n = cJSON_GetArrayItem(cJSON_GetObjectItem(inv, "toolExecutionNotifications"), 0);
  assert_non_null(strstr(cJSON_GetObjectItem(cJSON_GetObjectItem(n, "message"), "text")->valuestring,
                         "broken.c"));
  assert_true(cJSON_GetArraySize(sarif_results(log)) >= 1); /* good.c still analyzed */
  cJSON_Delete(log);
  free(I);
}

static char *rules_of(const e2e *e) {
  char *s = NULL;
  if (asprintf(&s, "--rules '%s/rules/dt.json'", e->src) < 0) abort();
  return s;
}

/* 1 when some line of text starts with prefix. */
static int has_line(const char *text, const char *prefix) {
  for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (strncmp(l, prefix, strlen(prefix)) == 0) return 1;
  return 0;
}

/* Every line about a file starts FILE:LINE:COL: or FILE: (problem matchers), with the file as
   the command line names it (like clang): findings, notes and fix-its; a unit that fails, on
   stdout and in the summary on stderr; a broken configuration, rules file or baseline. */
static void test_file_lines_start_with_the_file(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "sub/buggy.c", BUGGY));
  free(fx_write(e->dir, "broken.c", "int x = ;\n"));
  char *I = inc(e), *R = rules_of(e);
  assert_int_equal(run(e, "--no-cache %s ./sub/buggy.c broken.c %s", R, I), 3);
  if (!has_line(e->out, "./sub/buggy.c:9:18: error: ")) fail_msg("stdout:\n%s", e->out);
  assert_true(has_line(e->out, "./sub/buggy.c:7:")); /* a note */
  assert_true(has_line(e->out, "fix-it:\"./sub/buggy.c\":{9:"));
  assert_true(has_line(e->out, "broken.c: error: could not analyze this translation unit: "));
  if (!has_line(e->err, "broken.c: note: not analyzed completely: ")) fail_msg("stderr:\n%s", e->err);
  assert_null(strstr(e->out, e->dir)); /* no absolute path for a file given relatively */

  free(fx_write(e->dir, "cfg/.tagcheck.json", "{\n  \"disable\": [1]\n}\n"));
  free(fx_write(e->dir, "cfg/c.c", BUGGY));
  assert_int_equal(run(e, "--no-cache cfg/c.c %s", I), 2);
  char *want = NULL;
  if (asprintf(&want, "%s/cfg/.tagcheck.json:2:", e->dir) < 0) abort();
  if (!has_line(e->err, want)) fail_msg("stderr:\n%s", e->err);
  assert_non_null(strstr(e->err, ": error: "));
  free(want);

  free(fx_write(e->dir, "half.json", "{\"tagcheck_rules\": 1,"));
  assert_int_equal(run(e, "--no-cache --rules half.json sub/buggy.c %s", I), 2);
  if (!has_line(e->err, "half.json:1:")) fail_msg("stderr:\n%s", e->err);
  assert_int_equal(run(e, "--no-cache --baseline gone.sarif sub/buggy.c %s", I), 2);
  if (!has_line(e->err, "gone.sarif: error: ")) fail_msg("stderr:\n%s", e->err);
  free(I);
  free(R);
}

static void test_shards_and_merge(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "db/one.c", BUGGY));
  free(fx_write(e->dir, "db/two.c", BUGGY));
  char *db = NULL;
  if (asprintf(&db,
               "[{\"directory\": \"%s/db\", \"file\": \"one.c\", \"arguments\": [\"cc\", \"-c\", "
               "\"-I%s/runtime/include\", \"one.c\"]},\n"
               " {\"directory\": \"%s/db\", \"file\": \"two.c\", \"arguments\": [\"cc\", \"-c\", "
               "\"-I%s/runtime/include\", \"two.c\"]}]\n",
               e->dir, e->src, e->dir, e->src) < 0)
    abort();
  free(fx_write(e->dir, "db/compile_commands.json", db));
  free(db);
  assert_int_equal(run(e, "--no-cache -p db --shard 1/2 --format sarif -o s1.sarif"), 1);
  assert_int_equal(run(e, "--no-cache -p db --shard 2/2 --format sarif -o s2.sarif"), 1);
  cJSON *l1 = read_json(e, "s1.sarif"), *l2 = read_json(e, "s2.sarif");
  assert_int_equal(cJSON_GetArraySize(sarif_results(l1)), 1);
  assert_int_equal(cJSON_GetArraySize(sarif_results(l2)), 1);
  cJSON_Delete(l1);
  cJSON_Delete(l2);
  assert_int_equal(run(e, "merge -o m.sarif s1.sarif s2.sarif s1.sarif"), 0);
  cJSON *m = read_json(e, "m.sarif");
  assert_int_equal(cJSON_GetArraySize(sarif_results(m)), 2);
  cJSON_Delete(m);
}


/* The fix of BUGGY: its argument `b` (line 9, columns 28-29) moved to a's device. */
#define BUGGY_FIX "dt_to_device(b, dt_device_of(a))"

/* The source tree's rules (an installed, older rules/dt.json would be the default). */
static size_t offset_of_b(void) { return (size_t)(strstr(BUGGY, "dt_add(a, b)") + 10 - BUGGY); }

static void test_fixit_outputs(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "buggy.c", BUGGY));
  char *I = inc(e), *R = rules_of(e);
  assert_int_equal(run(e, "--no-cache %s buggy.c %s", R, I), 1);
  /* clang's hint under the caret line, then its parseable fix-it line */
  if (!strstr(e->out, "  dt_tensor *c = dt_add(a, b);\n                 ^~~~~~~~~~~~\n"
                      "                           " BUGGY_FIX "\n") ||
      !strstr(e->out, "buggy.c\":{9:28-9:29}:\"" BUGGY_FIX "\"\n"))
    fail_msg("text output:\n%s", e->out);

  assert_int_equal(run(e, "--no-cache %s --format json -o out.json buggy.c %s", R, I), 1);
  cJSON *j = read_json(e, "out.json");
  const cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "findings"), 0);
  const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(f, "fixes"), 0);
  assert_non_null(x);
  assert_int_equal(cJSON_GetObjectItem(x, "line")->valueint, 9);
  assert_int_equal(cJSON_GetObjectItem(x, "col")->valueint, 28);
  assert_int_equal(cJSON_GetObjectItem(x, "endLine")->valueint, 9);
  assert_int_equal(cJSON_GetObjectItem(x, "endCol")->valueint, 29);
  assert_int_equal(cJSON_GetObjectItem(x, "offset")->valueint, (int)offset_of_b());
  assert_int_equal(cJSON_GetObjectItem(x, "length")->valueint, 1);
  assert_string_equal(cJSON_GetObjectItem(x, "replacement")->valuestring, BUGGY_FIX);
  cJSON_Delete(j);

  assert_int_equal(run(e, "--no-cache %s --format sarif -o out.sarif --root . buggy.c %s", R, I), 1);
  cJSON *log = read_json(e, "out.sarif");
  const cJSON *fix = cJSON_GetArrayItem(
      cJSON_GetObjectItem(cJSON_GetArrayItem(sarif_results(log), 0), "fixes"), 0);
  const cJSON *change = cJSON_GetArrayItem(cJSON_GetObjectItem(fix, "artifactChanges"), 0);
  assert_string_equal(
      cJSON_GetObjectItem(cJSON_GetObjectItem(change, "artifactLocation"), "uri")->valuestring,
      "buggy.c");
  const cJSON *rp = cJSON_GetArrayItem(cJSON_GetObjectItem(change, "replacements"), 0);
  const cJSON *del = cJSON_GetObjectItem(rp, "deletedRegion");
  assert_int_equal(cJSON_GetObjectItem(del, "startLine")->valueint, 9);
  assert_int_equal(cJSON_GetObjectItem(del, "startColumn")->valueint, 28);
  assert_int_equal(cJSON_GetObjectItem(del, "endColumn")->valueint, 29);
  assert_string_equal(
      cJSON_GetObjectItem(cJSON_GetObjectItem(rp, "insertedContent"), "text")->valuestring,
      BUGGY_FIX);
  assert_non_null(cJSON_GetObjectItem(fix, "description"));
  cJSON_Delete(log);

  /* clang-tidy's YAML: byte offsets into the file */
  assert_int_equal(run(e, "--no-cache %s --export-fixes fixes/fx.yaml buggy.c %s", R, I), 2);
  assert_non_null(strstr(e->err, "fixes/fx.yaml")); /* the folder is not there: named */
  char *mk = NULL;
  if (asprintf(&mk, "mkdir -p '%s/fixes'", e->dir) < 0) abort();
  assert_int_equal(system(mk), 0);
  free(mk);
  assert_int_equal(run(e, "--no-cache %s --export-fixes fixes/fx.yaml buggy.c %s", R, I), 1);
  char *yp = NULL;
  if (asprintf(&yp, "%s/fixes/fx.yaml", e->dir) < 0) abort();
  char *yaml = fx_read(yp);
  free(yp);
  assert_non_null(yaml);
  char want[256];
  snprintf(want, sizeof want,
           "          Offset:          %zu\n          Length:          1\n"
           "          ReplacementText: \"" BUGGY_FIX "\"\n",
           offset_of_b());
  if (strncmp(yaml, "---\nMainSourceFile:", 19) != 0 || !strstr(yaml, want) ||
      !strstr(yaml, "  - DiagnosticName:  \"backend-mismatch\"\n") ||
      !strstr(yaml, "    Level:           Error\n") || !strstr(yaml, "\n...\n"))
    fail_msg("export-fixes YAML:\n%s", yaml);
  free(yaml);
  /* clang-apply-replacements applies it (when installed) exactly as --fix does */
  if (system("command -v clang-apply-replacements >/dev/null 2>&1") == 0) {
    char *cmd = NULL;
    if (asprintf(&cmd, "clang-apply-replacements '%s/fixes'", e->dir) < 0) abort();
    assert_int_equal(system(cmd), 0);
    free(cmd);
    char *bp = NULL;
    if (asprintf(&bp, "%s/buggy.c", e->dir) < 0) abort();
    char *fixed = fx_read(bp);
    free(bp);
    assert_non_null(strstr(fixed, "dt_add(a, " BUGGY_FIX ");\n"));
    free(fixed);
    assert_int_equal(run(e, "--no-cache %s buggy.c %s", R, I), 0);
  }
  free(I);
  free(R);
}

/* --fix rewrites the file in place: its text fixed, its mode as it was (an unusual one, so
   neither the temporary's 0600 nor the umask's default can pass for it), and a symbolic link
   to it still a link. */
static void test_fix_in_place(void **state) {
  e2e *e = *state;
  char *p = fx_write(e->dir, "buggy.c", BUGGY);
  assert_int_equal(chmod(p, 0751), 0);
  char *link = NULL;
  if (asprintf(&link, "%s/link.c", e->dir) < 0) abort();
  assert_int_equal(symlink("buggy.c", link), 0);
  char *I = inc(e), *R = rules_of(e);
  assert_int_equal(run(e, "--no-cache %s --fix link.c %s", R, I), 1); /* what was found */
  assert_non_null(strstr(e->err, "applied the fixes of 1 finding"));
  struct stat st;
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  free(link);
  assert_int_equal(stat(p, &st), 0);
  assert_int_equal(st.st_mode & 07777, 0751);
  assert_int_equal(st.st_uid, getuid());
  char *fixed = fx_read(p);
  free(p);
  char *want = replaced(BUGGY, "dt_add(a, b)", "dt_add(a, " BUGGY_FIX ")");
  assert_string_equal(fixed, want);
  free(want);
  free(fixed);
  assert_int_equal(run(e, "--no-cache %s buggy.c %s", R, I), 0); /* nothing left */
  assert_string_equal(e->out, "");
  free(I);
  free(R);
}

/* Every operand that disagrees with the first is moved: one edit each. */
static void test_fix_every_operand(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "where.c",
                "#include <stdint.h>\n#include <dt/dt.h>\n"
                "void pick(void) {\n"
                "  static const int64_t shape[1] = {4};\n"
                "  dt_tensor *x = dt_zeros(dt_cpu(), DT_FLOAT, 1, shape);\n"
                "  dt_tensor *c = dt_greater(x, x);\n"
                "  dt_tensor *a = dt_ones(dt_sim(0), DT_FLOAT, 1, shape);\n"
                "  dt_tensor *b = dt_ones(dt_sim(1), DT_FLOAT, 1, shape);\n"
                "  dt_tensor *w = dt_where(c, a, b);\n"
                "  dt_free(w);\n"
                "}\n"));
  char *I = inc(e), *R = rules_of(e);
  assert_int_equal(run(e, "--no-cache %s --fix where.c %s", R, I), 1);
  char *p = NULL;
  if (asprintf(&p, "%s/where.c", e->dir) < 0) abort();
  char *fixed = fx_read(p);
  free(p);
  if (!strstr(fixed, "dt_where(c, dt_to_device(a, dt_device_of(c)), "
                     "dt_to_device(b, dt_device_of(c)));"))
    fail_msg("fixed:\n%s", fixed);
  free(fixed);
  assert_int_equal(run(e, "--no-cache %s where.c %s", R, I), 0);
  free(I);
  free(R);
}

/* No fix where its text is not the source's (a macro) or where the expectation's argument
   would be evaluated twice with its side effects (a call). */
static void test_no_uncertain_fix(void **state) {
  e2e *e = *state;
  free(fx_write(e->dir, "unsure.c",
                "#include <stdint.h>\n#include <dt/dt.h>\n"
                "#define ADD(x, y) dt_add(x, y)\n"
                "static const int64_t shape[1] = {4};\n"
                "static dt_tensor *fresh(void) { return dt_zeros(dt_cpu(), DT_FLOAT, 1, shape); }\n"
                "void f(void) {\n"
                "  dt_tensor *b = dt_zeros(dt_sim(0), DT_FLOAT, 1, shape);\n"
                "  dt_tensor *a = dt_zeros(dt_cpu(), DT_FLOAT, 1, shape);\n"
                "  dt_tensor *c = ADD(a, b);\n"
                "  dt_tensor *d = dt_add(fresh(), b);\n"
                "  dt_free(c);\n"
                "  dt_free(d);\n"
                "}\n"));
  char *I = inc(e), *R = rules_of(e);
  assert_int_equal(run(e, "--no-cache %s --format json -o out.json unsure.c %s", R, I), 1);
  cJSON *j = read_json(e, "out.json");
  const cJSON *fs = cJSON_GetObjectItem(j, "findings");
  assert_int_equal(cJSON_GetArraySize(fs), 2);
  const cJSON *f;
  cJSON_ArrayForEach(f, fs) {
    assert_string_equal(cJSON_GetObjectItem(f, "rule")->valuestring, "backend-mismatch");
    assert_null(cJSON_GetObjectItem(f, "fixes"));
  }
  cJSON_Delete(j);
  free(I);
  free(R);
}

/* A whole program of two units: the fix lands in the unit where the call is (the merged
   program's file names are remapped, the argument ranges' with them). */
static void test_fix_across_units(void **state) {
  e2e *e = *state;
  static const char *use_c =
      "#include <dt/dt.h>\n"
      "void use(dt_tensor *a, dt_tensor *b);\n"
      "void use(dt_tensor *a, dt_tensor *b) {\n"
      "  dt_tensor *c = dt_add(a, b);\n"
      "  dt_free(c);\n"
      "}\n";
  static const char *main_c =
      "#include <stdint.h>\n#include <dt/dt.h>\n"
      "void use(dt_tensor *a, dt_tensor *b);\n"
      "int main(void) {\n"
      "  static const int64_t shape[1] = {4};\n"
      "  use(dt_zeros(dt_cpu(), DT_FLOAT, 1, shape), dt_zeros(dt_sim(0), DT_FLOAT, 1, shape));\n"
      "  return 0;\n"
      "}\n";
  free(fx_write(e->dir, "db/use.c", use_c));
  free(fx_write(e->dir, "db/main.c", main_c));
  char *db = NULL;
  if (asprintf(&db,
               "[{\"directory\": \"%s/db\", \"file\": \"main.c\", \"arguments\": [\"cc\", \"-c\", "
               "\"-I%s/runtime/include\", \"main.c\"]},\n"
               " {\"directory\": \"%s/db\", \"file\": \"use.c\", \"arguments\": [\"cc\", \"-c\", "
               "\"-I%s/runtime/include\", \"use.c\"]}]\n",
               e->dir, e->src, e->dir, e->src) < 0)
    abort();
  free(fx_write(e->dir, "db/compile_commands.json", db));
  free(db);
  char *R = rules_of(e);
  assert_int_equal(run(e, "--no-cache %s -p db --fix", R), 1);
  char *p = NULL;
  if (asprintf(&p, "%s/db/use.c", e->dir) < 0) abort();
  char *fixed = fx_read(p);
  free(p);
  if (!strstr(fixed, "dt_add(a, dt_to_device(b, dt_device_of(a)));")) fail_msg("use.c:\n%s", fixed);
  free(fixed);
  if (asprintf(&p, "%s/db/main.c", e->dir) < 0) abort();
  char *untouched = fx_read(p);
  free(p);
  assert_string_equal(untouched, main_c);
  free(untouched);
  assert_int_equal(run(e, "--no-cache %s -p db", R), 0);
  free(R);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_text_and_exit_status, setup, teardown),
      cmocka_unit_test_setup_teardown(test_json_and_sarif, setup, teardown),
      cmocka_unit_test_setup_teardown(test_suppression_comment, setup, teardown),
      cmocka_unit_test_setup_teardown(test_baseline_survives_inserted_lines, setup, teardown),
      cmocka_unit_test_setup_teardown(test_config_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_nearest_config_per_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_out_of_tree_build_finds_the_project_config, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_failed_unit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_file_lines_start_with_the_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_shards_and_merge, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fixit_outputs, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fix_in_place, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fix_every_operand, setup, teardown),
      cmocka_unit_test_setup_teardown(test_no_uncertain_fix, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fix_across_units, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
