/* tests/hostile/test_hostile_isolation.c — one unit cannot sink the run (SPEC §7), through the
 * real tagcheck binary: units that crash libclang (2,000 unary signs, deep chains) or run past
 * --unit-timeout beside a good unit (exit 3, the good unit's finding reported, the reason in
 * text, JSON and SARIF); the cache against --no-cache when a missing header appears, a new
 * header shadows one earlier on the include path, CPATH changes, rules come from a pipe; -o and
 * merge -o replaced atomically when the disk is full (RLIMIT_FSIZE stands in for a full disk). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "hx_util.h"

#define GOOD                                                                     \
  "#include <dt/dt.h>\n"                                                         \
  "void f(void) {\n"                                                             \
  "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"                        \
  "  dt_tensor *s = dt_ones(dt_sim(0), DT_FLOAT, 0, 0);\n"                       \
  "  dt_free(dt_add(a, s));\n"                                                   \
  "}\n"

typedef hx_fixture fixture;

/* A source of `head`, then `unit` repeated n times, then `tail` (heap). */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail) {
  size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
  char *s = malloc(hl + ul * n + tl + 1);
  assert_non_null(s);
  memcpy(s, head, hl);
  for (size_t i = 0; i < n; i++) memcpy(s + hl + i * ul, unit, ul);
  memcpy(s + hl + ul * n, tail, tl + 1);
  return s;
}

/* The good unit's finding is reported whatever the hostile unit did; the hostile one, when it
   failed, is named with a reason. */
static void run_beside_good(fixture *fx, const char *name, const char *text, int must_fail) {
  free(hx_write_str(fx->dir, "good.c", GOOD));
  free(hx_write_str(fx->dir, name, text));
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "-j", "2", name, "good.c", "--", fx->inc, NULL);
  assert_false(r.timed_out);
  assert_true(r.status == 1 || r.status == 3);
  if (must_fail) assert_int_equal(r.status, 3);
  hx_assert_out_has(&r, "good.c:5:11: error: dt_add");
  if (r.status == 3) {
    char *failed = hx_fmt("%s: error: could not analyze", name);
    hx_assert_out_has(&r, failed);
    free(failed);
  }
  hx_result_free(&r);
}

static void test_deep_unary_crashes_only_its_unit(void **state) {
  fixture *fx = *state;
  char *src = repeat("int x = ", "- ", 2000, "1;\n");
  run_beside_good(fx, "deep.c", src, 1);
  hx_result r;
  hx_tagcheck(&r, fx->dir, "--no-cache", "deep.c", "good.c", "--", fx->inc, NULL);
  hx_assert_status(&r, 3);
  hx_assert_out_has(&r, "deep.c: error: could not analyze this translation unit: the parser crashed");
  hx_result_free(&r);
  /* the same in SARIF (a notification) and JSON (a failure) */
  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "sarif", "deep.c", "good.c", "--", fx->inc,
              NULL);
  hx_assert_status(&r, 3);
  cJSON *log = cJSON_ParseWithLength(r.out, r.out_len);
  assert_non_null(log);
  const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(log, "runs"), 0);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(run, "results")), 1);
  const cJSON *inv = cJSON_GetArrayItem(cJSON_GetObjectItem(run, "invocations"), 0);
  assert_true(cJSON_IsFalse(cJSON_GetObjectItem(inv, "executionSuccessful")));
  const cJSON *notes = cJSON_GetObjectItem(inv, "toolExecutionNotifications");
  assert_int_equal(cJSON_GetArraySize(notes), 1);
  char *printed = cJSON_PrintUnformatted(notes);
  assert_non_null(strstr(printed, "the parser crashed"));
  free(printed);
  cJSON_Delete(log);
  hx_result_free(&r);
  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "json", "deep.c", "good.c", "--", fx->inc,
              NULL);
  hx_assert_status(&r, 3);
  hx_assert_out_has(&r, "the parser crashed");
  hx_result_free(&r);
  free(src);
}

static void test_deep_chains(void **state) {
  fixture *fx = *state;
  char *assign = repeat("int x0;\nvoid g(void) { int v; v = ", "v = ", 10000, "1; (void)v; }\n");
  run_beside_good(fx, "assign.c", assign, 0);
  free(assign);
  char *sum = repeat("int g(int v) { return 0", " + v", 100000, "; }\n");
  run_beside_good(fx, "sum.c", sum, 0);
  free(sum);
  char *chain = repeat("struct n { struct n *n; int v; };\nint g(struct n *p) { return p", "->n",
                       20000, "->v; }\n");
  run_beside_good(fx, "chain.c", chain, 0);
  free(chain);
}

static void test_unit_timeout(void **state) {
  fixture *fx = *state;
  /* a constant expression clang evaluates for seconds (2^31 steps allowed) */
  free(hx_write_str(fx->dir, "slow.cpp",
                    "#include <dt/dt.h>\n"
                    "constexpr long f(int n) { return n == 0 ? 1 : f(n - 1) + f(n - 1); }\n"
                    "static_assert(f(62) > 0, \"\");\n"));
  free(hx_write_str(fx->dir, "good.c", GOOD));
  char *db = hx_fmt("[{\"directory\": \"%s\", \"arguments\": [\"c++\", \"-std=c++17\", "
                    "\"-fconstexpr-steps=2147483647\", \"%s\", \"-c\", \"slow.cpp\"], \"file\": \"slow.cpp\"},"
                    "{\"directory\": \"%s\", \"arguments\": [\"cc\", \"%s\", \"-c\", \"good.c\"], "
                    "\"file\": \"good.c\"}]\n",
                    fx->dir, fx->inc, fx->dir, fx->inc);
  char *dbdir = hx_fmt("%s/build", fx->dir);
  free(hx_write(dbdir, "compile_commands.json", db, strlen(db)));
  hx_result r;
  time_t t0 = time(NULL);
  hx_tagcheck(&r, fx->dir, "--no-cache", "-j", "1", "--unit-timeout", "1", "-p", dbdir, NULL);
  assert_true(time(NULL) - t0 < 30);
  hx_assert_status(&r, 3);
  hx_assert_out_has(&r, "good.c:5:11: error: dt_add");
  hx_assert_out_has(&r, "slow.cpp: error: could not analyze this translation unit: parsing ran "
                        "past --unit-timeout 1 s");
  hx_result_free(&r);
  /* a bad value is bad usage */
  hx_tagcheck(&r, fx->dir, "--unit-timeout", "soon", "-p", dbdir, NULL);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "--unit-timeout");
  hx_result_free(&r);
  free(db);
  free(dbdir);
}

/* Runs tagcheck on dir's database with the cache and without it; asserts both print the same
   report and returns the cached run's standard output (heap). */
static char *cached_equals_fresh(const char *dir, const char *dbdir) {
  hx_result cached, fresh;
  hx_tagcheck(&cached, dir, "-q", "-p", dbdir, NULL);
  hx_tagcheck(&fresh, dir, "-q", "--no-cache", "-p", dbdir, NULL);
  assert_int_equal(cached.status, fresh.status);
  assert_string_equal(cached.out, fresh.out);
  char *out = strdup(cached.out);
  hx_result_free(&cached);
  hx_result_free(&fresh);
  return out;
}

static char *one_unit_db(fixture *fx, const char *extra) {
  char *db = hx_fmt("[{\"directory\": \"%s\", \"arguments\": [\"cc\", %s\"%s\", \"-c\", "
                    "\"main.c\"], \"file\": \"main.c\"}]\n",
                    fx->dir, extra, fx->inc);
  char *dbdir = hx_fmt("%s/build", fx->dir);
  free(hx_write(dbdir, "compile_commands.json", db, strlen(db)));
  free(db);
  return dbdir;
}

#define MAIN_WITH(inc)                                                           \
  "#include <dt/dt.h>\n"                                                         \
  "#include " inc "\n"                                                           \
  "void f(void) {\n"                                                             \
  "  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"                        \
  "  dt_tensor *s = dt_ones(OTHER, DT_FLOAT, 0, 0);\n"                           \
  "  dt_free(dt_add(a, s));\n"                                                   \
  "}\n"

static void test_cache_missing_header_appears(void **state) {
  fixture *fx = *state;
  free(hx_write_str(fx->dir, "main.c", MAIN_WITH("\"gen/other.h\"")));
  char *dbdir = one_unit_db(fx, "");
  char *out = cached_equals_fresh(fx->dir, dbdir);
  assert_non_null(strstr(out, "could not analyze"));
  free(out);
  free(hx_write_str(fx->dir, "gen/other.h", "#define OTHER dt_sim(0)\n"));
  out = cached_equals_fresh(fx->dir, dbdir);
  assert_non_null(strstr(out, "main.c:6:11: error: dt_add"));
  free(out);
  free(dbdir);
}

static void test_cache_header_shadowed_earlier_on_path(void **state) {
  fixture *fx = *state;
  free(hx_write_str(fx->dir, "main.c", MAIN_WITH("<other.h>")));
  free(hx_write_str(fx->dir, "b/other.h", "#define OTHER dt_cpu()\n"));
  char *extra = hx_fmt("\"-I%s/a\", \"-I%s/b\", ", fx->dir, fx->dir);
  char *dbdir = one_unit_db(fx, extra);
  char *out = cached_equals_fresh(fx->dir, dbdir);
  assert_null(strstr(out, "error"));
  free(out);
  free(hx_write_str(fx->dir, "a/other.h", "#define OTHER dt_sim(0)\n"));
  out = cached_equals_fresh(fx->dir, dbdir);
  assert_non_null(strstr(out, "main.c:6:11: error: dt_add"));
  free(out);
  free(extra);
  free(dbdir);
}

static void test_cache_cpath(void **state) {
  fixture *fx = *state;
  free(hx_write_str(fx->dir, "main.c", MAIN_WITH("<other.h>")));
  free(hx_write_str(fx->dir, "cpu/other.h", "#define OTHER dt_cpu()\n"));
  free(hx_write_str(fx->dir, "sim/other.h", "#define OTHER dt_sim(0)\n"));
  char *dbdir = one_unit_db(fx, "");
  char *cpu = hx_fmt("%s/cpu", fx->dir), *sim = hx_fmt("%s/sim", fx->dir);
  setenv("CPATH", cpu, 1);
  char *out = cached_equals_fresh(fx->dir, dbdir);
  assert_null(strstr(out, "error"));
  free(out);
  setenv("CPATH", sim, 1);
  out = cached_equals_fresh(fx->dir, dbdir);
  assert_non_null(strstr(out, "main.c:6:11: error: dt_add"));
  free(out);
  unsetenv("CPATH");
  free(cpu);
  free(sim);
  free(dbdir);
}

/* Rules read from a pipe: the cache keys what was read, not the pipe's name. */
static void test_cache_rules_from_pipe(void **state) {
  fixture *fx = *state;
  free(hx_write_str(fx->dir, "main.c", GOOD));
  char *dbdir = one_unit_db(fx, "");
  /* the same rules with dt_add renamed: nothing to report for dt_add */
  char *renamed = hx_fmt("%s/renamed.json", fx->dir);
  char *sed = hx_fmt("sed 's/\"dt_add\"/\"dt_add_not_here\"/' %s > %s", hx_rules_path(), renamed);
  assert_int_equal(system(sed), 0);
  const char *rules[] = {hx_rules_path(), renamed};
  int expect[] = {1, 0};
  for (int i = 0; i < 2; i++) {
    char *cmd = hx_fmt("cat %s | %s -q -p %s --rules /dev/stdin", rules[i], hx_tagcheck_path(),
                       dbdir);
    const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    hx_result r;
    hx_run(argv, fx->dir, 0, &r);
    hx_assert_status(&r, expect[i]);
    hx_result_free(&r);
    free(cmd);
  }
  free(sed);
  free(renamed);
  free(dbdir);
}

/* A write that cannot complete leaves the previous report as it was, and no temporary file. */
static void test_output_replaced_atomically(void **state) {
  fixture *fx = *state;
  free(hx_write_str(fx->dir, "good.c", GOOD));
  free(hx_write_str(fx->dir, "report.sarif", "previous report\n"));
  char *cmd = hx_fmt("ulimit -f 1; trap '' XFSZ; exec %s --no-cache --format sarif -o "
                     "report.sarif good.c -- %s",
                     hx_tagcheck_path(), fx->inc);
  const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
  hx_result r;
  hx_run(argv, fx->dir, 0, &r);
  assert_false(r.timed_out);
  hx_assert_status(&r, 2);
  hx_assert_err_has(&r, "report.sarif: error: cannot write the report");
  hx_result_free(&r);
  char *path = hx_fmt("%s/report.sarif", fx->dir);
  char *kept = hx_read(path, NULL);
  assert_string_equal(kept, "previous report\n");
  free(kept);
  char *ls = hx_fmt("ls -a %s | grep -c 'tagcheck.*tmp'", fx->dir);
  assert_int_not_equal(system(ls), 0); /* grep found nothing */
  free(ls);
  /* and a normal run replaces it whole */
  hx_tagcheck(&r, fx->dir, "--no-cache", "--format", "sarif", "-o", "report.sarif", "good.c",
              "--", fx->inc, NULL);
  hx_assert_status(&r, 1);
  hx_result_free(&r);
  char *now = hx_read(path, NULL);
  cJSON *log = cJSON_Parse(now);
  assert_non_null(log);
  cJSON_Delete(log);
  free(now);
  /* merge -o likewise */
  char *merged = hx_fmt("%s/merged.sarif", fx->dir);
  free(hx_write_str(fx->dir, "merged.sarif", "previous merge\n"));
  char *mcmd = hx_fmt("ulimit -f 1; trap '' XFSZ; exec %s merge -o merged.sarif report.sarif",
                      hx_tagcheck_path());
  const char *margv[] = {"/bin/sh", "-c", mcmd, NULL};
  hx_run(margv, fx->dir, 0, &r);
  assert_int_not_equal(r.status, 0);
  hx_assert_err_has(&r, "merged.sarif: error: cannot write the log");
  hx_result_free(&r);
  char *mkept = hx_read(merged, NULL);
  assert_string_equal(mkept, "previous merge\n");
  free(mkept);
  free(mcmd);
  free(merged);
  free(path);
  free(cmd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_deep_unary_crashes_only_its_unit, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_deep_chains, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_unit_timeout, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_cache_missing_header_appears, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_cache_header_shadowed_earlier_on_path, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_cache_cpath, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_cache_rules_from_pipe, hx_fixture_setup, hx_fixture_teardown),
      cmocka_unit_test_setup_teardown(test_output_replaced_atomically, hx_fixture_setup, hx_fixture_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
