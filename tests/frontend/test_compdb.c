/* tests/frontend/test_compdb.c — the compile database: shell splitting, both entry forms,
 * relative directories and files, @response files, flag filtering (outputs, dependency files,
 * gcc-only flags dropped; -I/-D/-U/-std/-include/-isystem kept, paths made absolute), the
 * additions every unit gets, duplicates, and clear errors with positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe_util.h"
#include "frontend/compdb.h"
#include "base/path.h"

static int has_arg(const tc_compile_cmd *c, const char *a) {
  for (size_t i = 0; i < c->argc; i++)
    if (strcmp(c->argv[i], a) == 0) return 1;
  return 0;
}

/* The index of a, or -1. */
static int arg_index(char *const *argv, size_t argc, const char *a) {
  for (size_t i = 0; i < argc; i++)
    if (strcmp(argv[i], a) == 0) return (int)i;
  return -1;
}

static void test_shell_split(void **state) {
  (void)state;
  char **v;
  size_t n;
  assert_int_equal(tc_shell_split("cc  -DX='a b' \"-DY=\\\"q\\\"\" a\\ b.c -DZ=\\$ ''", &v, &n), 0);
  assert_int_equal(n, 6);
  assert_string_equal(v[0], "cc");
  assert_string_equal(v[1], "-DX=a b");
  assert_string_equal(v[2], "-DY=\"q\"");
  assert_string_equal(v[3], "a b.c");
  assert_string_equal(v[4], "-DZ=$");
  assert_string_equal(v[5], ""); /* an empty quoted word is an argument */
  tc_argv_free(v, n);
  /* backslash inside double quotes stays unless it escapes a special character */
  assert_int_equal(tc_shell_split("x \"a\\nb\" 'c\\d'", &v, &n), 0);
  assert_int_equal(n, 3);
  assert_string_equal(v[1], "a\\nb");
  assert_string_equal(v[2], "c\\d");
  tc_argv_free(v, n);
  assert_int_equal(tc_shell_split("cc \"unterminated", &v, &n), -1);
  assert_int_equal(tc_shell_split("cc 'open", &v, &n), -1);
  assert_int_equal(tc_shell_split("", &v, &n), 0);
  assert_int_equal(n, 0);
  tc_argv_free(v, n);
}

static void test_filter(void **state) {
  (void)state;
  const char *in[] = {"gcc", "-c", "-o", "out.o", "-MD", "-MF", "deps.d", "-MT", "x.o",
                      "-Iinc", "-I", "../other", "-isystem", "sys", "-DFOO=1", "-D", "BAR",
                      "-UBAZ", "-std=gnu11", "-include", "pre.h", "-O2", "-g", "-Wall",
                      "-Werror", "-Wno-unknown-warning-option", "-fno-tree-loop-distribute-patterns",
                      "-fconserve-stack", "-mno-fp-ret-in-387", "-fno-strict-aliasing",
                      "-funsigned-char", "-m64", "-march=x86-64", "-Wp,-MD,dep.d,-DWP=2",
                      "--param", "max-inline-insns=5", "-lm", "-L/usr/lib", "src/a.c"};
  char **out;
  size_t n;
  assert_int_equal(tc_filter_args(in, sizeof in / sizeof in[0], 1, "/proj/build", &out, &n), 0);
  tc_compile_cmd c = {NULL, NULL, out, n};
  /* kept, with paths made absolute against the directory */
  assert_true(has_arg(&c, "-I/proj/build/inc"));
  int i = arg_index(out, n, "-I");
  assert_true(i >= 0 && (size_t)i + 1 < n);
  assert_string_equal(out[i + 1], "/proj/other");
  i = arg_index(out, n, "-isystem");
  assert_true(i >= 0);
  assert_string_equal(out[i + 1], "/proj/build/sys");
  i = arg_index(out, n, "-include");
  assert_true(i >= 0);
  assert_string_equal(out[i + 1], "/proj/build/pre.h");
  assert_true(has_arg(&c, "-DFOO=1"));
  i = arg_index(out, n, "-D");
  assert_true(i >= 0);
  assert_string_equal(out[i + 1], "BAR");
  assert_true(has_arg(&c, "-UBAZ"));
  assert_true(has_arg(&c, "-std=gnu11"));
  assert_true(has_arg(&c, "-funsigned-char"));
  assert_true(has_arg(&c, "-m64"));
  assert_true(has_arg(&c, "-march=x86-64"));
  assert_true(has_arg(&c, "-DWP=2")); /* from -Wp, */
  /* kept: they may change what the preprocessor defines (-O2: __OPTIMIZE__) or the parser
     sees; what libclang then rejects (-fconserve-stack) is dropped at parse time */
  const char *kept[] = {"-O2", "-g", "-Wall", "-Wno-unknown-warning-option",
                        "-fno-tree-loop-distribute-patterns", "-fconserve-stack",
                        "-mno-fp-ret-in-387", "-fno-strict-aliasing"};
  for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
    if (!has_arg(&c, kept[k])) fail_msg("'%s' should be kept", kept[k]);
  /* dropped: the output's shape, linking, warnings made errors */
  const char *dropped[] = {"gcc", "-c", "-o", "out.o", "-MD", "-MF", "deps.d", "-MT", "x.o",
                           "-Werror", "--param", "max-inline-insns=5", "-lm", "-L/usr/lib",
                           "src/a.c"};
  for (size_t k = 0; k < sizeof dropped / sizeof dropped[0]; k++)
    assert_int_equal(arg_index(out, n, dropped[k]), -1);
  /* added */
  assert_true(has_arg(&c, "-D__TAGCHECK__=1"));
  i = arg_index(out, n, "-resource-dir");
  assert_true(i >= 0 && (size_t)i + 1 < n && out[i + 1][0] == '/');
  tc_argv_free(out, n);
}

static void test_response_file(void **state) {
  (void)state;
  char dir[512], path[1024];
  fe_tmpdir(dir, sizeof dir);
  fe_write(dir, "build/flags.rsp", "-DFROM_RSP=1 \"-I inc dir\" @nested.rsp\n", path,
           sizeof path);
  fe_write(dir, "build/nested.rsp", "-DNESTED", path, sizeof path);
  char build[1024];
  snprintf(build, sizeof build, "%s/build", dir);
  const char *in[] = {"cc", "@flags.rsp", "-c", "x.c"};
  char **out;
  size_t n;
  assert_int_equal(tc_filter_args(in, 4, 1, build, &out, &n), 0);
  char want[2048];
  snprintf(want, sizeof want, "-I%s/build/ inc dir", dir);
  tc_compile_cmd c = {NULL, NULL, out, n};
  assert_true(has_arg(&c, "-DFROM_RSP=1"));
  assert_true(has_arg(&c, "-DNESTED"));
  /* "-I inc dir" is -I with the joined value " inc dir" (the quotes kept the space) */
  int found = 0;
  for (size_t k = 0; k < n; k++) found |= strncmp(out[k], "-I", 2) == 0 && strstr(out[k], "inc dir");
  assert_true(found);
  tc_argv_free(out, n);
  fe_rmdir(dir);
}

static const char db_text[] =
    "[\n"
    "  {\"directory\": \"build\", \"file\": \"../src/a.c\",\n"
    "   \"command\": \"/usr/bin/gcc -c -o a.o -I../include -DMODE=\\\"fast\\\" -DQ=\\\\\\\"s\\\\\\\" ../src/a.c\"},\n"
    "  {\"directory\": \"/abs/dir\", \"file\": \"b.c\",\n"
    "   \"arguments\": [\"clang\", \"-c\", \"b.c\", \"-DX=a b\", \"-o\", \"b.o\"],\n"
    "   \"output\": \"b.o\"},\n"
    "  {\"directory\": \"/abs/dir\", \"file\": \"b.c\",\n"
    "   \"arguments\": [\"clang\", \"-c\", \"b.c\", \"-DX=a b\", \"-o\", \"b.o\"]}\n"
    "]\n";

static void test_database(void **state) {
  (void)state;
  tc_compdb db;
  char err[1024];
  int rc = tc_compdb_parse(db_text, strlen(db_text), "/proj/compile_commands.json", "/proj", &db,
                           err, sizeof err);
  assert_int_equal(rc, 0);
  assert_int_equal(db.n, 2); /* the exact duplicate is kept once */
  assert_string_equal(db.cmds[0].file, "/proj/src/a.c");
  assert_string_equal(db.cmds[0].directory, "/proj/build");
  assert_true(has_arg(&db.cmds[0], "-I/proj/include"));
  assert_true(has_arg(&db.cmds[0], "-DMODE=fast"));  /* the shell removes the quotes */
  assert_true(has_arg(&db.cmds[0], "-DQ=\"s\"")); /* escaped ones stay */
  assert_false(has_arg(&db.cmds[0], "-o"));
  assert_false(has_arg(&db.cmds[0], "../src/a.c"));
  assert_string_equal(db.cmds[1].file, "/abs/dir/b.c");
  assert_true(has_arg(&db.cmds[1], "-DX=a b"));
  size_t count = 0;
  const tc_compile_cmd *c = tc_compdb_find(&db, "/proj/build/../src/a.c", &count);
  assert_non_null(c);
  assert_int_equal(count, 1);
  assert_ptr_equal(c, &db.cmds[0]);
  assert_null(tc_compdb_find(&db, "/nowhere.c", &count));
  assert_int_equal(count, 0);
  tc_compdb_free(&db);
}

static void expect_error(const char *text, const char *needle) {
  tc_compdb db;
  char err[1024];
  err[0] = '\0';
  assert_int_equal(tc_compdb_parse(text, strlen(text), "/p/compile_commands.json", "/p", &db, err,
                                   sizeof err),
                   -1);
  if (!strstr(err, needle)) fail_msg("error '%s' does not contain '%s'", err, needle);
}

static void test_errors(void **state) {
  (void)state;
  /* syntax error on line 3: position reported */
  expect_error("[\n {\"directory\": \"/a\",\n  \"file\" \"x.c\"}\n]", "compile_commands.json:3:");
  expect_error("{\"directory\": \"/a\"}", "must be a JSON array");
  /* text after the array: named with its position, whatever follows */
  expect_error("[]\n  garbage", "compile_commands.json:2:3: unexpected text after");
  expect_error("[] []", "compile_commands.json:1:4: unexpected text after");
  expect_error("[{\"directory\": \"/a\", \"file\": \"x.c\", \"command\": \"cc\"}]}",
               "compile_commands.json:1:54: unexpected text after");
  expect_error("[{\"directory\": \"/a\", \"file\": \"x.c\"}]", "entry 1 of 1: neither");
  expect_error("[{\"directory\": \"/a\", \"file\": \"x.c\", \"command\": \"cc\"}, 3]",
               "entry 2 of 2: not a JSON object");
  expect_error("[{\"file\": \"x.c\", \"command\": \"cc x.c\"}]", "\"directory\"");
  expect_error("[{\"directory\": \"/a\", \"command\": \"cc x.c\"}]", "\"file\"");
  expect_error("[{\"directory\": \"/a\", \"file\": \"x.c\", \"arguments\": [\"cc\", 1]}]",
               "\"arguments\" is not an array of strings");
  expect_error("[{\"directory\": \"/a\", \"file\": \"x.c\", \"command\": \"cc 'x.c\"}]",
               "unterminated quote");
  /* sources that are neither C, C++ nor CUDA are left out, and counted; a CUDA unit is parsed
     in clang's CUDA mode without a toolkit, nvcc's own flags left out */
  tc_compdb db2;
  char err2[256];
  const char *mixed = "[{\"directory\": \"/a\", \"file\": \"k.cu\", \"command\": \"nvcc "
                      "-x cu -arch sm_80 -ccbin g++ -Xcompiler -fPIC -DK=1 -c k.cu\"},"
                      " {\"directory\": \"/a\", \"file\": \"s.S\", \"command\": \"cc -c s.S\"},"
                      " {\"directory\": \"/a\", \"file\": \"m.c\", \"command\": \"cc -c m.c\"},"
                      " {\"directory\": \"/a\", \"file\": \"w.cpp\", \"command\": \"c++ -c w.cpp\"}]";
  assert_int_equal(tc_compdb_parse(mixed, strlen(mixed), "/p/compile_commands.json", "/p", &db2,
                                   err2, sizeof err2),
                   0);
  assert_int_equal(db2.n, 3);
  assert_int_equal(db2.n_skipped, 1);
  assert_string_equal(db2.first_skipped, "/a/s.S");
  assert_string_equal(db2.cmds[0].file, "/a/k.cu");
  assert_string_equal(db2.cmds[1].file, "/a/m.c");
  int cuda = 0, host_only = 0, no_inc = 0, define = 0;
  for (size_t i = 0; i < db2.cmds[0].argc; i++) {
    const char *a = db2.cmds[0].argv[i];
    if (!strcmp(a, "-x")) cuda += !strcmp(db2.cmds[0].argv[i + 1], "cuda") ? 1 : 100;
    host_only += !strcmp(a, "--cuda-host-only");
    no_inc += !strcmp(a, "-nocudainc");
    define += !strcmp(a, "-DK=1");
    assert_true(strcmp(a, "-arch") != 0 && strcmp(a, "sm_80") != 0 && strcmp(a, "cu") != 0 &&
                strcmp(a, "g++") != 0);
  }
  assert_int_equal(cuda, 1);
  assert_int_equal(host_only, 1);
  assert_int_equal(no_inc, 1);
  assert_int_equal(define, 1);
  tc_compdb_free(&db2);
  /* an empty database is valid */
  tc_compdb db;
  char err[256];
  assert_int_equal(tc_compdb_parse("[]", 2, "/p/compile_commands.json", "/p", &db, err,
                                   sizeof err),
                   0);
  assert_int_equal(db.n, 0);
  tc_compdb_free(&db);
  assert_int_equal(tc_compdb_parse("[] \r\n\t\n", 7, "/p/compile_commands.json", "/p", &db, err,
                                   sizeof err),
                   0); /* blanks after the array are fine */
  tc_compdb_free(&db);
}

static void test_load(void **state) {
  (void)state;
  char dir[512], path[1024];
  fe_tmpdir(dir, sizeof dir);
  tc_compdb db;
  char err[2048];
  assert_int_equal(tc_compdb_load(dir, &db, err, sizeof err), -1);
  assert_non_null(strstr(err, "compile_commands.json"));
  fe_write(dir, "compile_commands.json",
           "[{\"directory\": \".\", \"file\": \"m.c\", \"arguments\": [\"cc\", \"m.c\"]}]", path,
           sizeof path);
  assert_int_equal(tc_compdb_load(dir, &db, err, sizeof err), 0);
  assert_int_equal(db.n, 1);
  char want[1024];
  snprintf(want, sizeof want, "%s/m.c", dir);
  assert_string_equal(db.cmds[0].file, want);
  tc_compdb_free(&db);
  /* -p may name the database file itself; relative paths are then relative to its folder */
  assert_int_equal(tc_compdb_load(path, &db, err, sizeof err), 0);
  assert_int_equal(db.n, 1);
  assert_string_equal(db.cmds[0].file, want);
  assert_string_equal(db.path, path);
  tc_compdb_free(&db);
  fe_rmdir(dir);
}

static void test_paths(void **state) {
  (void)state;
  char *p = tc_path_absolute("a/./b/../c//d.c", "/x/y");
  assert_string_equal(p, "/x/y/a/c/d.c");
  free(p);
  p = tc_path_absolute("/../../e", "/x");
  assert_string_equal(p, "/e");
  free(p);
  p = tc_path_absolute("../../../f", "/x/y");
  assert_string_equal(p, "/f");
  free(p);
}

/* Arguments filtered from a gcc command line parse with libclang without errors. */
static void test_gcc_flags_parse(void **state) {
  (void)state;
  const char *args[] = {"-fno-tree-loop-distribute-patterns", "-fconserve-stack",
                        "-mno-fp-ret-in-387", "-Wno-maybe-uninitialized", "-Werror",
                        "-fno-allow-store-data-races", "-mpreferred-stack-boundary=3",
                        "-Wimplicit-fallthrough=5", "-std=gnu11"};
  fe_unit u;
  assert_int_equal(fe_lower_args("#include <stddef.h>\nint main(void) { size_t n = 0; return (int)n; }\n",
                                 args, sizeof args / sizeof args[0], &u),
                   0);
  if (u.failure) fail_msg("unexpected failure: %s", u.failure);
  assert_non_null(fe_func(u.prog, "main"));
  fe_free(&u);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shell_split), cmocka_unit_test(test_filter),
    cmocka_unit_test(test_response_file), cmocka_unit_test(test_database),
    cmocka_unit_test(test_errors), cmocka_unit_test(test_load),
    cmocka_unit_test(test_paths), cmocka_unit_test(test_gcc_flags_parse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
