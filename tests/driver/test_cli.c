/* tests/driver/test_cli.c — the tagcheck command line end to end (SPEC §5): exit statuses
 * 0/1/2/3, a unit with clang errors reported while the others are still analyzed, a tag that
 * crosses a file boundary, a malformed compile database named with its position, FILE -- ARGS,
 * the same report whatever -j and with or without the cache, --dump-ir, and the merge
 * subcommand's dispatch. Runs the built binary (TC_TEST_TAGCHECK). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fe_util.h"

typedef struct result {
  int status;
  char *out, *err;
} result;

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return strdup("");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

/* Runs tagcheck with args (a shell fragment) in dir. */
static result run(const char *dir, const char *args) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s > out.txt 2> err.txt", dir, TC_TEST_TAGCHECK,
           args);
  int st = system(cmd);
  result r;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  char p[2048];
  snprintf(p, sizeof p, "%s/out.txt", dir);
  r.out = slurp(p);
  snprintf(p, sizeof p, "%s/err.txt", dir);
  r.err = slurp(p);
  return r;
}

static void result_free(result *r) {
  free(r->out);
  free(r->err);
}

static const char helper_c[] =
    "#include <dt/dt.h>\n"
    "#include \"helper.h\"\n"
    "dt_tensor *host_bias(void) {\n"
    "  return dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4});\n"
    "}\n";
static const char helper_h[] = "#include <dt/dt.h>\ndt_tensor *host_bias(void);\n";
static const char main_c[] =
    "#include <dt/dt.h>\n"
    "#include \"helper.h\"\n"
    "int main(void) {\n"
    "  dt_tensor *x = dt_randn(dt_sim(0), 1, 1, (const int64_t[]){4});\n"
    "  dt_tensor *b = host_bias();\n"
    "  dt_tensor *y = dt_add(x, b);\n"
    "  dt_free(y); dt_free(b); dt_free(x);\n"
    "  return 0;\n"
    "}\n";
static const char clean_c[] =
    "#include <dt/dt.h>\n"
    "int clean(void) {\n"
    "  dt_device d = dt_cpu();\n"
    "  dt_tensor *a = dt_ones(d, DT_FLOAT, 1, (const int64_t[]){2});\n"
    "  dt_tensor *s = dt_add(a, a);\n"
    "  dt_free(s); dt_free(a);\n"
    "  return 0;\n"
    "}\n";
static const char broken_c[] = "int broken(void) { return undeclared_variable; }\n";

static void write_db(const char *dir, int with_broken) {
  char text[8192], path[1024];
  snprintf(text, sizeof text,
           "[\n"
           " {\"directory\": \"%s/build\", \"file\": \"../src/main.c\",\n"
           "  \"command\": \"gcc -c -I../include -I%s -O2 -MD -MF main.d ../src/main.c -o main.o\"},\n"
           " {\"directory\": \"%s/build\", \"file\": \"../src/helper.c\",\n"
           "  \"arguments\": [\"cc\", \"-I../include\", \"-I%s\", \"-c\", \"../src/helper.c\"]},\n"
           " {\"directory\": \"%s/build\", \"file\": \"../src/clean.c\",\n"
           "  \"arguments\": [\"cc\", \"-I%s\", \"-c\", \"../src/clean.c\"]}%s\n"
           "]\n",
           dir, TC_TEST_RUNTIME_INCLUDE, dir, TC_TEST_RUNTIME_INCLUDE, dir,
           TC_TEST_RUNTIME_INCLUDE,
           with_broken ? ",\n {\"directory\": \"build\", \"file\": \"../src/broken.c\","
                         " \"command\": \"cc -c ../src/broken.c\"}"
                       : "");
  fe_write(dir, "compile_commands.json", text, path, sizeof path);
}

static void make_project(char *dir, size_t len) {
  char path[1024];
  fe_tmpdir(dir, len);
  fe_write(dir, "src/helper.c", helper_c, path, sizeof path);
  fe_write(dir, "include/helper.h", helper_h, path, sizeof path);
  fe_write(dir, "src/main.c", main_c, path, sizeof path);
  fe_write(dir, "src/clean.c", clean_c, path, sizeof path);
  fe_write(dir, "src/broken.c", broken_c, path, sizeof path);
  fe_write(dir, "build/.keep", "", path, sizeof path);
  write_db(dir, 1);
}

static void test_statuses(void **state) {
  (void)state;
  char dir[512];
  make_project(dir, sizeof dir);
  /* the broken unit: exit 3, named with the reason; the others are still analyzed */
  result r = run(dir, "-p . --no-cache -j 2");
  assert_int_equal(r.status, 3);
  assert_non_null(strstr(r.out, "broken.c"));
  assert_non_null(strstr(r.out, "undeclared_variable"));
  /* the tag crossing from helper.c into main.c is followed */
  assert_non_null(strstr(r.out, "main.c:6:"));
  assert_non_null(strstr(r.out, "backend-mismatch"));
  result_free(&r);
  /* only the clean file */
  r = run(dir, "-p . --no-cache src/clean.c");
  assert_int_equal(r.status, 0);
  result_free(&r);
  /* without the broken unit: findings, exit 1 */
  write_db(dir, 0);
  r = run(dir, "-p . --no-cache");
  assert_int_equal(r.status, 1);
  assert_non_null(strstr(r.out, "backend-mismatch"));
  result_free(&r);
  r = run(dir, "-p . --no-cache --fail-on never");
  assert_int_equal(r.status, 0);
  result_free(&r);
  /* FILE -- ARGS */
  char args[2048];
  snprintf(args, sizeof args, "--no-cache src/clean.c -- -I%s", TC_TEST_RUNTIME_INCLUDE);
  r = run(dir, args);
  assert_int_equal(r.status, 0);
  result_free(&r);
  /* a file the database does not know */
  r = run(dir, "-p . --no-cache src/broken.c");
  assert_int_equal(r.status, 3);
  assert_non_null(strstr(r.out, "no compile command"));
  result_free(&r);
  fe_rmdir(dir);
}

static void test_bad_usage(void **state) {
  (void)state;
  char dir[512], path[1024];
  make_project(dir, sizeof dir);
  fe_write(dir, "bad/compile_commands.json", "[\n  {\"directory\": \"/x\",\n   \"file\": }\n]\n",
           path, sizeof path);
  result r = run(dir, "-p bad");
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "bad/compile_commands.json:3:"));
  result_free(&r);
  r = run(dir, "-p . --rules /nonexistent/rules.json");
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "/nonexistent/rules.json"));
  result_free(&r);
  r = run(dir, "--bogus-option");
  assert_int_equal(r.status, 2);
  result_free(&r);
  r = run(dir, "");
  assert_int_equal(r.status, 2);
  result_free(&r);
  r = run(dir, "-p . -j");
  assert_int_equal(r.status, 2);
  result_free(&r);
  r = run(dir, "--help");
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "-p DIR"));
  result_free(&r);
  r = run(dir, "merge --help");
  assert_int_equal(r.status, 0);
  result_free(&r);
  fe_rmdir(dir);
}

/* --unavailable takes the loaded rules' backend names: dt's with dt's rules, ggml's with ggml's;
   any other name is bad usage (exit 2) naming it and the accepted ones. */
static void test_unavailable_backends(void **state) {
  (void)state;
  static const char ggml[] = "--rules '" TC_TEST_RUNTIME_INCLUDE "/../../rules/ggml.json'";
  static const struct {
    const char *rules, *backend;
    const char *error; /* NULL: accepted; else words the error must hold */
    const char *accepted;
  } cases[] = {
      {"", "cuda", NULL, NULL},
      {"", "gpu", "unknown backend 'gpu' in --unavailable", "cpu, sim, cuda"},
      {ggml, "gpu", NULL, NULL},
      {ggml, "cuda", "unknown backend 'cuda' in --unavailable", "cpu, gpu, accel"},
  };
  char dir[512], args[1024];
  make_project(dir, sizeof dir);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(args, sizeof args, "-p . %s --unavailable %s", cases[i].rules, cases[i].backend);
    result r = run(dir, args);
    if (!cases[i].error) {
      assert_int_not_equal(r.status, 2);
      assert_null(strstr(r.err, "unknown backend"));
    } else {
      assert_int_equal(r.status, 2);
      assert_non_null(strstr(r.err, cases[i].error));
      assert_non_null(strstr(r.err, cases[i].accepted));
    }
    result_free(&r);
  }
  fe_rmdir(dir);
}

static void test_deterministic_and_cached(void **state) {
  (void)state;
  char dir[512];
  make_project(dir, sizeof dir);
  write_db(dir, 0);
  result a = run(dir, "-p . --no-cache -j 1 --format json");
  result b = run(dir, "-p . --no-cache -j 3 --format json");
  assert_int_equal(a.status, 1);
  assert_string_equal(a.out, b.out);
  result c = run(dir, "-p . -j 2 --format json"); /* cold cache */
  result d = run(dir, "-p . -j 2 --format json"); /* warm */
  assert_string_equal(a.out, c.out);
  assert_string_equal(a.out, d.out);
  assert_int_equal(d.status, 1);
  assert_non_null(strstr(d.err, "3 from cache"));
  /* an edit to the helper's unit: that unit is parsed again, the finding is still there */
  char path[1024];
  char edited[4096];
  snprintf(edited, sizeof edited, "%s/* edited */\n", helper_c);
  fe_write(dir, "src/helper.c", edited, path, sizeof path);
  result e = run(dir, "-p . -j 2 --format json");
  assert_non_null(strstr(e.err, "2 from cache"));
  assert_string_equal(a.out, e.out);
  /* --dump-ir */
  result f = run(dir, "-p . --no-cache --dump-ir");
  assert_int_equal(f.status, 0);
  assert_non_null(strstr(f.out, "function host_bias"));
  assert_non_null(strstr(f.out, "call dt_add("));
  result_free(&a);
  result_free(&b);
  result_free(&c);
  result_free(&d);
  result_free(&e);
  result_free(&f);
  fe_rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_statuses),
    cmocka_unit_test(test_bad_usage),
    cmocka_unit_test(test_unavailable_backends),
    cmocka_unit_test(test_deterministic_and_cached),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
