/* tests/frontend/test_lower_oom.c — out of memory while lowering: every allocation of the
 * lowering (growing arrays, the IR arena) is made to fail in turn, over a unit that uses most
 * constructs (records, unions, designated and nested initializers, switch, goto, loops with
 * break and continue, long operator chains, statics, globals). Each time tc_lower_tu must
 * return -1 and add nothing, and never end the process (it used to exit(3), which killed the
 * language server); under AddressSanitizer, nothing leaks or is touched out of bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <clang-c/Index.h>
#include <cmocka.h>

#include "fe_util.h"
#include "frontend/lower.h"

static const char k_source[] =
    "#include <dt/dt.h>\n"
    "struct inner { int k; float w[3]; };\n"
    "struct outer { struct inner in; union { int i; float f; }; dt_tensor *t; int n; };\n"
    "static struct outer table[2] = {{.in = {.k = 1, .w = {1, 2, 3}}, .n = 2}, {{3}, {4}}};\n"
    "int counter = 7;\n"
    "static int helper(int x) { static int calls; calls++; return x * 2 + calls; }\n"
    "int run(int mode, dt_tensor *a) {\n"
    "  struct outer o = {.in.k = mode, .f = 1.5f, .t = a};\n"
    "  int s = 0, i;\n"
    "  for (i = 0; i < 10; i++) {\n"
    "    if (i == 3) continue;\n"
    "    while (s < 100) { s += helper(i); if (s > 50) break; }\n"
    "    do { s--; } while (s > 90);\n"
    "  }\n"
    "  switch (mode) {\n"
    "  case 0: s = 1; break;\n"
    "  case 1: case 2: s = 2; /* fall through */\n"
    "  default: s += 3;\n"
    "  }\n"
    "  if (s < 0) goto out;\n"
    "  s = s + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17;\n"
    "  s = (s, mode ? s : -s);\n"
    "  dt_tensor *b = dt_ones(dt_cpu(), DT_FLOAT, 0, 0);\n"
    "  dt_tensor *c = dt_add(o.t ? o.t : b, b);\n"
    "  dt_free(c);\n"
    "  dt_free(b);\n"
    "out:\n"
    "  return s + table[1].n + counter;\n"
    "}\n";

static void test_every_allocation_failure(void **state) {
  (void)state;
  char dir[512], path[1024];
  fe_tmpdir(dir, sizeof dir);
  fe_write(dir, "t.c", k_source, path, sizeof path);
  char inc[1024];
  snprintf(inc, sizeof inc, "-I%s", TC_TEST_RUNTIME_INCLUDE);
  const char *args[] = {"-std=c11", inc};
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit tu = NULL;
  assert_int_equal(clang_parseTranslationUnit2(index, path, args, 2, NULL, 0,
                                               CXTranslationUnit_None, &tu),
                   CXError_Success);

  unsigned long failures = 0, after;
  for (after = 1; after < 200000; after++) {
    tc_program *prog = tc_program_new();
    assert_non_null(prog);
    tc_lower_opts opts = {dir, 0, after};
    int rc = tc_lower_tu(prog, tu, path, &opts);
    if (rc == 0) { /* past the last allocation: the whole unit */
      assert_int_equal(prog->n_units, 1);
      tc_program_free(prog);
      break;
    }
    assert_int_equal(rc, -1);
    assert_int_equal(prog->n_units, 0); /* a failed unit adds nothing */
    tc_program_free(prog);
    failures++;
  }
  /* the unit makes hundreds of allocations, each of which failed once above */
  if (failures < 100) fail_msg("only %lu allocations to fail", failures);
  assert_true(after < 200000);

  /* and without injected failures, the same unit lowers as usual */
  tc_program *prog = tc_program_new();
  tc_lower_opts opts = {dir, 0, 0};
  assert_int_equal(tc_lower_tu(prog, tu, path, &opts), 0);
  assert_non_null(fe_func(prog, "run"));
  assert_non_null(fe_func(prog, "helper"));
  tc_program_free(prog);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  fe_rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_allocation_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
