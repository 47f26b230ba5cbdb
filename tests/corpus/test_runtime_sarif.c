/* tests/corpus/test_runtime_sarif.c — the runtime's DT_REPORT SARIF log (runtime/src/
 * report_sarif.c): runs runtime_sarif_sample in child processes (return mode with several
 * failures, abort mode, a clean run, a "%p" path), reads each log back with cJSON and checks
 * it against the failures the sample announces on stdout: SARIF 2.1.0 structure, every rule of
 * dt/rules.def, one result per call site with ruleId/ruleIndex/level/message, the %SRCROOT%
 * relative location and line, the enclosing function, occurrence counts, and fingerprints
 * recomputed independently with dt/fingerprint.h. Also unit-tests the source scanner that
 * finds enclosing functions.
 * usage: test_runtime_sarif SAMPLE_BIN SOURCE_ROOT WORK_DIR */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "dt/dt.h"
#include "dt/fingerprint.h"

/* The scanner is internal to libdt (runtime/src/report_source.h). */
void dt__src_function_in(const char *text, size_t len, int line, int col, char *buf, size_t n);
int dt__src_call_column(const char *line, size_t len, const char *name);

static const char *g_sample, *g_root, *g_work;

typedef struct expected {
  char rule[64];
  int line;
  char func[128];
  char op[64];
} expected;

typedef struct run_result {
  int status; /* waitpid status */
  pid_t pid;
  expected exp[16];
  int n_exp;
  cJSON *log; /* NULL when no log was written */
} run_result;

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  if (buf) buf[n] = '\0';
  fclose(f);
  return buf;
}

/* Runs the sample with DT_REPORT=report_spec and reads report_path back. */
static void run_sample(const char *mode, const char *report_spec, const char *report_path,
                       run_result *r) {
  memset(r, 0, sizeof *r);
  remove(report_path);
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    setenv("DT_REPORT", report_spec, 1);
    setenv("DT_REPORT_ROOT", g_root, 1);
    unsetenv("DT_ON_ERROR");
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2); /* the abort run prints its failure */
    execl(g_sample, g_sample, mode, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  FILE *out = fdopen(fds[0], "r");
  char line[512];
  while (out && fgets(line, sizeof line, out)) {
    expected *e = &r->exp[r->n_exp];
    if (r->n_exp < 16 &&
        sscanf(line, "expect %63s %d %127s %63s", e->rule, &e->line, e->func, e->op) == 4)
      r->n_exp++;
  }
  if (out) fclose(out);
  assert_int_equal(waitpid(pid, &r->status, 0), pid);
  r->pid = pid;
  char *text = read_file(report_path);
  if (text) {
    r->log = cJSON_Parse(text);
    assert_non_null(r->log); /* written, so it must be JSON */
    free(text);
  }
}

static const char *str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *get(const cJSON *o, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const cJSON *the_run(const cJSON *log) {
  assert_string_equal(str(log, "version"), "2.1.0");
  assert_non_null(strstr(str(log, "$schema"), "sarif-2.1.0"));
  const cJSON *runs = get(log, "runs");
  assert_int_equal(cJSON_GetArraySize(runs), 1);
  return cJSON_GetArrayItem(runs, 0);
}

/* The driver lists every rule of dt/rules.def, in table order, with the fields SARIF needs. */
static void check_rules(const cJSON *run) {
  const cJSON *driver = get(get(run, "tool"), "driver");
  assert_string_equal(str(driver, "name"), "dt");
  assert_string_equal(str(driver, "version"), DT_VERSION_STRING);
  assert_non_null(str(driver, "informationUri"));
  const cJSON *rules = get(driver, "rules");
  int i = 0;
  for (dt_status s = DT_ERR_BACKEND_MISMATCH; s <= DT_ERR_DEVICE; s++, i++) {
    const cJSON *rule = cJSON_GetArrayItem(rules, i);
    assert_non_null(rule);
    assert_string_equal(str(rule, "id"), dt_status_rule_id(s));
    assert_non_null(str(rule, "name"));
    assert_non_null(str(get(rule, "shortDescription"), "text"));
    assert_non_null(str(get(rule, "fullDescription"), "text"));
    assert_non_null(str(get(rule, "help"), "text"));
    assert_string_equal(str(get(rule, "defaultConfiguration"), "level"), "error");
  }
  assert_int_equal(cJSON_GetArraySize(rules), i);
}

/* The fingerprint tagcheck would give a finding at rel_path:line in func, computed here from
   the source text and dt/fingerprint.h. */
static void expected_fingerprint(const char *rule, const char *rel_path, int line,
                                 const char *func, const char *op, char *out) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", g_root, rel_path);
  char *text = read_file(path);
  assert_non_null(text);
  const char *p = text;
  for (int l = 1; l < line && p; l++) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  assert_non_null(p);
  const char *end = strchr(p, '\n');
  size_t len = end ? (size_t)(end - p) : strlen(p);
  char *norm = malloc(len + 1);
  dt_fingerprint_normalize(p, len, norm);
  dt_fingerprint_format(dt_fingerprint_key(rule, rel_path, func, op, norm), 0, out);
  free(norm);
  free(text);
}

static const cJSON *find_result(const cJSON *results, const expected *e) {
  const cJSON *res;
  cJSON_ArrayForEach(res, results) {
    if (strcmp(str(res, "ruleId"), e->rule) != 0) continue;
    const cJSON *locs = get(res, "locations");
    const cJSON *pl = get(cJSON_GetArrayItem(locs, 0), "physicalLocation");
    if (e->line == 0) {
      /* no call site: the location is the program itself, without a region */
      const char *uri = str(get(pl, "artifactLocation"), "uri");
      const char *tail = uri ? strrchr(uri, '/') : NULL;
      if (!get(pl, "region") && tail && strcmp(tail, "/runtime_sarif_sample") == 0) return res;
      continue;
    }
    const cJSON *start = get(get(pl, "region"), "startLine");
    if (cJSON_IsNumber(start) && start->valueint == e->line) return res;
  }
  return NULL;
}

static void check_result(const cJSON *run, const cJSON *res, const expected *e) {
  const char *rel = "tests/corpus/runtime_sarif_sample.c";
  assert_string_equal(str(res, "level"), "error");
  const cJSON *idx = get(res, "ruleIndex");
  assert_true(cJSON_IsNumber(idx));
  const cJSON *rule = cJSON_GetArrayItem(get(get(get(run, "tool"), "driver"), "rules"),
                                         idx->valueint);
  assert_string_equal(str(rule, "id"), e->rule);
  const char *msg = str(get(res, "message"), "text");
  assert_non_null(msg);
  assert_non_null(strstr(msg, e->op)); /* names the operation */
  assert_string_equal(str(get(res, "properties"), "operation"), e->op);
  const cJSON *fp = get(get(res, "partialFingerprints"), DT_FINGERPRINT_KEY);
  assert_true(cJSON_IsString(fp));
  assert_int_equal(strlen(fp->valuestring), DT_FINGERPRINT_HEX);
  if (e->line == 0) return;
  const cJSON *loc = cJSON_GetArrayItem(get(res, "locations"), 0);
  const cJSON *al = get(get(loc, "physicalLocation"), "artifactLocation");
  assert_string_equal(str(al, "uri"), rel);
  assert_string_equal(str(al, "uriBaseId"), "%SRCROOT%");
  const cJSON *region = get(get(loc, "physicalLocation"), "region");
  const char *snippet = str(get(region, "snippet"), "text");
  assert_non_null(snippet);
  /* the call's column: where "op(" starts (the sample's lines are ASCII) */
  char call[80];
  snprintf(call, sizeof call, "%s(", e->op);
  const char *at = strstr(snippet, call);
  assert_non_null(at);
  assert_int_equal(get(region, "startColumn")->valueint, (int)(at - snippet) + 1);
  assert_string_equal(str(cJSON_GetArrayItem(get(loc, "logicalLocations"), 0), "name"), e->func);
  assert_non_null(get(res, "codeFlows"));
  char want[DT_FINGERPRINT_HEX + 1];
  expected_fingerprint(e->rule, rel, e->line, e->func, e->op, want);
  assert_string_equal(fp->valuestring, want);
}

static void path_in_work(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s", g_work, name);
}

static void test_return_mode_records_every_site(void **state) {
  (void)state;
  char path[4096];
  path_in_work(path, sizeof path, "return.sarif");
  run_result r;
  run_sample("return", path, path, &r);
  assert_true(WIFEXITED(r.status));
  assert_int_equal(WEXITSTATUS(r.status), 0);
  assert_non_null(r.log);
  assert_int_equal(r.n_exp, 5);
  const cJSON *run = the_run(r.log);
  check_rules(run);
  const cJSON *results = get(run, "results");
  assert_int_equal(cJSON_GetArraySize(results), r.n_exp); /* one per call site */
  for (int i = 0; i < r.n_exp; i++) {
    const cJSON *res = find_result(results, &r.exp[i]);
    if (!res) fail_msg("no result for %s at line %d", r.exp[i].rule, r.exp[i].line);
    check_result(run, res, &r.exp[i]);
    const cJSON *count = get(res, "occurrenceCount");
    /* mix_backends(3) fails three times at one site: one result, counted. */
    int want = strcmp(r.exp[i].func, "mix_backends") == 0 ? 3 : 1;
    assert_int_equal(count->valueint, want);
  }
  const cJSON *inv = cJSON_GetArrayItem(get(run, "invocations"), 0);
  assert_true(cJSON_IsTrue(get(inv, "executionSuccessful")));
  char root_uri[4200];
  snprintf(root_uri, sizeof root_uri, "file://%s/", g_root);
  assert_string_equal(str(get(get(run, "originalUriBaseIds"), "%SRCROOT%"), "uri"), root_uri);
  cJSON_Delete(r.log);
}

static void test_abort_mode_writes_before_aborting(void **state) {
  (void)state;
  char path[4096];
  path_in_work(path, sizeof path, "abort.sarif");
  run_result r;
  run_sample("abort", path, path, &r);
  assert_true(WIFSIGNALED(r.status));
  assert_int_equal(WTERMSIG(r.status), SIGABRT);
  assert_non_null(r.log);
  assert_int_equal(r.n_exp, 1);
  const cJSON *run = the_run(r.log);
  const cJSON *results = get(run, "results");
  assert_int_equal(cJSON_GetArraySize(results), 1);
  check_result(run, find_result(results, &r.exp[0]), &r.exp[0]);
  const cJSON *inv = cJSON_GetArrayItem(get(run, "invocations"), 0);
  assert_true(cJSON_IsFalse(get(inv, "executionSuccessful")));
  cJSON_Delete(r.log);
}

static void test_clean_run_writes_an_empty_log(void **state) {
  (void)state;
  char path[4096];
  path_in_work(path, sizeof path, "clean.sarif");
  run_result r;
  run_sample("clean", path, path, &r);
  assert_true(WIFEXITED(r.status));
  assert_int_equal(WEXITSTATUS(r.status), 0);
  assert_non_null(r.log);
  const cJSON *run = the_run(r.log);
  check_rules(run);
  assert_true(cJSON_IsArray(get(run, "results")));
  assert_int_equal(cJSON_GetArraySize(get(run, "results")), 0);
  cJSON_Delete(r.log);
}

static void test_pid_in_report_path(void **state) {
  (void)state;
  char spec[4096];
  path_in_work(spec, sizeof spec, "pid-%p.sarif");
  char unused[4096];
  path_in_work(unused, sizeof unused, "pid-unused.sarif");
  run_result r;
  run_sample("clean", spec, unused, &r);
  assert_null(r.log); /* the literal "%p" name was not used */
  char path[4200];
  snprintf(path, sizeof path, "%s/pid-%ld.sarif", g_work, (long)r.pid);
  struct stat st;
  int found = stat(path, &st) == 0 && st.st_size > 0;
  remove(path);
  assert_true(found);
}

/* ---- the enclosing-function scanner ---- */

static void expect_function(const char *text, int line, const char *want) {
  char buf[64];
  dt__src_function_in(text, strlen(text), line, 0, buf, sizeof buf);
  assert_string_equal(buf, want);
}

static void test_scanner_finds_enclosing_functions(void **state) {
  (void)state;
  const char *src =
      "#include <dt/dt.h>\n"                                          /* 1 */
      "#define BODY { dt_add(a, b); }\n"                              /* 2 */
      "struct cfg { int x; } g = {1};\n"                              /* 3 */
      "static const int tbl[] = {1, 2, 3};\n"                         /* 4 */
      "int proto(int a);\n"                                           /* 5 */
      "static dt_tensor *\n"                                          /* 6 */
      "forward(const dt_tensor *x,\n"                                 /* 7 */
      "        const dt_tensor *w)\n"                                 /* 8 */
      "{\n"                                                           /* 9 */
      "  const char *s = \"}{ not a brace\"; /* } */ // {\n"          /* 10 */
      "  if (s[0] == '}') { return dt_matmul(x, w); }\n"              /* 11 */
      "  return dt_matmul(x, w);\n"                                   /* 12 */
      "}\n"                                                           /* 13 */
      "int g2;\n"                                                     /* 14 */
      "__attribute__((unused)) static int helper(void) __attribute__((cold));\n" /* 15 */
      "static int one(void) { return dt_add(0, 0) != 0; }\n"         /* 16 */
      "int main(int argc, char **argv) __attribute__((unused));\n"    /* 17 */
      "int main(int argc, char **argv)\n"                             /* 18 */
      "{\n"                                                           /* 19 */
      "  struct { int a; } s = {0};\n"                                /* 20 */
      "  return s.a + argc + (argv != 0);\n"                          /* 21 */
      "}\n";                                                          /* 22 */
  expect_function(src, 2, "");
  expect_function(src, 3, "");
  expect_function(src, 4, "");
  expect_function(src, 7, "");
  expect_function(src, 10, "forward");
  expect_function(src, 11, "forward");
  expect_function(src, 12, "forward");
  expect_function(src, 14, "");
  expect_function(src, 16, "one");
  expect_function(src, 20, "main");
  expect_function(src, 21, "main");
}

static void expect_function_at(const char *text, int line, int col, const char *want) {
  char buf[64];
  dt__src_function_in(text, strlen(text), line, col, buf, sizeof buf);
  assert_string_equal(buf, want);
}

/* C++: functions in namespaces and extern "C", members defined in and out of their class,
   constructors with member initializers, destructors, operators, templates, trailing return
   types, attributes, raw strings, lambdas (named operator(), as tagcheck names them). */
static void test_scanner_cxx(void **state) {
  (void)state;
  const char *src =
      "namespace net { namespace detail {\n"                                        /* 1 */
      "dt_tensor *mix(dt_tensor *a) { return dt_add(a, a); }\n"                     /* 2 */
      "} // namespace detail\n"                                                     /* 3 */
      "struct Layer : public Base<int, 2> {\n"                                      /* 4 */
      "  dt_tensor *w = nullptr; int n{3};\n"                                       /* 5 */
      "  explicit Layer(dt_tensor *x) : Base<int, 2>(x), w(f(x, {1, 2})), n{4} {\n" /* 6 */
      "    dt_free(dt_add(x, w));\n"                                                /* 7 */
      "  }\n"                                                                       /* 8 */
      "  ~Layer() { dt_free(w); }\n"                                                /* 9 */
      "  dt_tensor *fwd(dt_tensor *x) const noexcept(true) override { return x; }\n" /* 10 */
      "  dt_tensor *operator()(dt_tensor *x) { return dt_sub(x, w); }\n"           /* 11 */
      "  bool operator==(const Layer &o) const { return w == o.w; }\n"             /* 12 */
      "  template <typename T, int N> T pick(T x) { return x; }\n"                  /* 13 */
      "  [[nodiscard]] dt_tensor *out(dt_tensor *x);\n"                             /* 14 */
      "  enum class Mode { A, B };\n"                                               /* 15 */
      "};\n"                                                                        /* 16 */
      "dt_tensor *Layer::out(dt_tensor *x) { const char *r = R\"(}{)\"; return x; }\n" /* 17 */
      "}\n"                                                                         /* 18 */
      "template <typename T>\n"                                                     /* 19 */
      "auto twice(T x) -> decltype(x) {\n"                                          /* 20 */
      "  return dt_add(x, x);\n"                                                    /* 21 */
      "}\n"                                                                         /* 22 */
      "extern \"C\" {\n"                                                           /* 23 */
      "dt_tensor *c_api(dt_tensor *a) { return a; }\n"                              /* 24 */
      "}\n"                                                                         /* 25 */
      "int main() {\n"                                                              /* 26 */
      "  int v[2] = {0, 1}; v[0] = v[1];\n"                                         /* 27 */
      "  auto run = [&, v](dt_tensor *x) mutable -> dt_tensor * {\n"                /* 28 */
      "    auto inner = [x] { return dt_add(x, x); };\n"                           /* 29 */
      "    return inner();\n"                                                       /* 30 */
      "  };\n"                                                                      /* 31 */
      "  std::sort(v, v + 2, [](int a, int b) { return a < b; }); run(0);\n"        /* 32 */
      "  return 0;\n"                                                               /* 33 */
      "}\n"                                                                         /* 34 */
      "auto g = [](int a) { return a; };\n";                                        /* 35 */
  expect_function(src, 2, "mix");
  expect_function(src, 5, "");
  expect_function(src, 7, "Layer");
  expect_function_at(src, 9, 14, "~Layer");
  expect_function_at(src, 10, 72, "fwd");
  expect_function_at(src, 11, 48, "operator()");
  expect_function_at(src, 12, 45, "operator==");
  expect_function_at(src, 13, 46, "pick");
  expect_function(src, 15, "");
  expect_function_at(src, 17, 68, "out");
  expect_function(src, 21, "twice");
  expect_function_at(src, 24, 35, "c_api");
  expect_function(src, 27, "main");
  expect_function(src, 29, "operator()");
  expect_function_at(src, 29, 5, "operator()"); /* the line's first token is in run's body */
  expect_function_at(src, 29, 32, "operator()");
  expect_function(src, 30, "operator()");
  expect_function_at(src, 32, 3, "main");
  expect_function_at(src, 32, 50, "operator()");
  expect_function_at(src, 32, 62, "main");
  expect_function(src, 33, "main");
  expect_function_at(src, 35, 30, "operator()");
}

static int call_column(const char *line, const char *name) {
  return dt__src_call_column(line, strlen(line), name);
}

static void test_call_columns(void **state) {
  (void)state;
  assert_int_equal(call_column("  y = dt_add(a, b);", "dt_add"), 7);
  assert_int_equal(call_column("y = dt_add (a, b);", "dt_add"), 5);
  /* in a literal or a comment, or without a call: not the call */
  assert_int_equal(call_column("log(\"dt_add(\"); z = dt_add(a, b); // dt_add(x)", "dt_add"), 21);
  assert_int_equal(call_column("/* dt_add( */ dt_add(a, b)", "dt_add"), 15);
  assert_int_equal(call_column("f = &dt_add; g = my_dt_add(a);", "dt_add"), 0);
  /* twice on one line, or only through a macro of another name: unknown */
  assert_int_equal(call_column("dt_add(dt_add(a, b), c)", "dt_add"), 0);
  assert_int_equal(call_column("y = LINEAR(x, w, b);", "dt_add"), 0);
  /* columns count code points: "é" is two bytes, one column */
  assert_int_equal(call_column("/*é*/ dt_add(a, b)", "dt_add"), 7);
}

static void test_normalized_line_ignores_layout(void **state) {
  (void)state;
  const char *a = "  dt_tensor *y = dt_add(x, w);   // expect-error: backend-mismatch";
  const char *b = "dt_tensor*y=dt_add( x,  w ) ; /* moved */";
  char na[128], nb[128];
  dt_fingerprint_normalize(a, strlen(a), na);
  dt_fingerprint_normalize(b, strlen(b), nb);
  assert_string_equal(na, nb);
  const char *c = "puts(\"a  b // c\");";
  char nc[64];
  dt_fingerprint_normalize(c, strlen(c), nc);
  assert_string_equal(nc, "puts(\"a  b // c\");");
  char f0[DT_FINGERPRINT_HEX + 1], f1[DT_FINGERPRINT_HEX + 1];
  dt_fingerprint_hash k = dt_fingerprint_key("backend-mismatch", "a.c", "main", "dt_add", na);
  dt_fingerprint_format(k, 0, f0);
  dt_fingerprint_format(k, 1, f1);
  assert_string_not_equal(f0, f1);
  dt_fingerprint_hash k2 = dt_fingerprint_key("device-mismatch", "a.c", "main", "dt_add", na);
  assert_int_not_equal(dt_fingerprint_cmp(k, k2), 0);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s SAMPLE_BIN SOURCE_ROOT WORK_DIR\n", argv[0]);
    return 2;
  }
  g_sample = argv[1];
  static char root[4096];
  if (!realpath(argv[2], root)) {
    perror(argv[2]);
    return 2;
  }
  g_root = root;
  g_work = argv[3];
  if (mkdir(g_work, 0755) != 0 && errno != EEXIST) {
    perror(g_work);
    return 2;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_return_mode_records_every_site),
      cmocka_unit_test(test_abort_mode_writes_before_aborting),
      cmocka_unit_test(test_clean_run_writes_an_empty_log),
      cmocka_unit_test(test_pid_in_report_path),
      cmocka_unit_test(test_scanner_finds_enclosing_functions),
      cmocka_unit_test(test_scanner_cxx),
      cmocka_unit_test(test_call_columns),
      cmocka_unit_test(test_normalized_line_ignores_layout),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
