/* tests/frontend/test_lower_flow.c — lowering of control flow: if/else and else-if chains,
 * short-circuit conditions as branches, ?: into one destination, loops (for with absent parts,
 * also from macros; while; do-while(0)), break/continue, switch with fallthrough and default,
 * goto, shadowed names as distinct variables, statement expressions, and deep nesting that
 * must neither crash nor overflow the stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe_util.h"

static const tc_function *lower_fn(fe_unit *u, const char *src, const char *name) {
  if (fe_lower(src, u) != 0) fail_msg("could not lower");
  if (u->failure) fail_msg("clang errors: %s", u->failure);
  const tc_function *f = fe_func(u->prog, name);
  if (!f) fail_msg("%s not lowered", name);
  return f;
}

static int call_block(const fe_unit *u, const tc_function *fn, const char *callee, int nth) {
  const tc_insn *c = fe_call(u->prog, fn, callee, nth);
  if (!c) fail_msg("no call %d of %s", nth, callee);
  return fe_block_of(fn, c);
}

static int in_cycle(const tc_function *fn, int b) { return fe_reaches(fn, (uint32_t)b, (uint32_t)b); }

static void test_if_and_conditions(void **state) {
  (void)state;
  fe_unit u;
  const tc_function *fn = lower_fn(&u,
      "void a(void); void b(void); void c(void); void d(void);\n"
      "void f(int x, int y, int z) {\n"
      "  if (x && y) a(); else b();\n"
      "  if (!z || x) c();\n"
      "  else if (y) d();\n"
      "}\n", "f");
  const tc_block *entry = &fn->blocks[0];
  assert_int_equal(entry->term.kind, TC_T_BRANCH);
  assert_int_equal(entry->term.cond.kind, TC_OPND_PATH);
  assert_int_equal(entry->term.cond.path.root, TC_ROOT_PARAM);
  assert_int_equal(entry->term.cond.path.id, 0); /* x */
  /* x true: a block testing y; x false: b directly */
  const tc_block *ty = &fn->blocks[entry->term.succ[0]];
  assert_int_equal(ty->term.kind, TC_T_BRANCH);
  assert_int_equal(ty->term.cond.path.id, 1); /* y */
  int ba = call_block(&u, fn, "a", 0), bb = call_block(&u, fn, "b", 0);
  assert_int_equal(ty->term.succ[0], (uint32_t)ba);
  assert_true(fe_reaches(fn, entry->term.succ[1], (uint32_t)bb) ||
              entry->term.succ[1] == (uint32_t)bb);
  assert_false(fe_reaches(fn, (uint32_t)ba, (uint32_t)bb));
  /* !z || x: z is tested with the branches swapped */
  int bc = call_block(&u, fn, "c", 0), bd = call_block(&u, fn, "d", 0);
  assert_false(fe_reaches(fn, (uint32_t)bc, (uint32_t)bd));
  assert_true(fe_reaches(fn, 0, (uint32_t)bd));
  /* no temporaries needed for conditions */
  assert_int_equal(fe_count_kind(fn, TC_I_UNOP), 0);
  fe_free(&u);
}

static void test_conditional_value(void **state) {
  (void)state;
  fe_unit u;
  const tc_function *fn = lower_fn(&u,
      "#include <dt/dt.h>\n"
      "dt_tensor *f(dt_tensor *a, int c) {\n"
      "  dt_tensor *r = c ? dt_add(a, a) : NULL;\n"
      "  dt_device d = c > 1 ? dt_cpu() : dt_sim(1);\n"
      "  (void)d;\n"
      "  return r;\n"
      "}\n", "f");
  const tc_insn *add = fe_call(u.prog, fn, "dt_add", 0);
  char buf[64];
  assert_string_equal(fe_fmt(u.prog, fn, &add->dst, buf, sizeof buf), "r.0");
  const tc_insn *null_r = fe_write_to(u.prog, fn, TC_I_ASSIGN, "r.0", 0);
  assert_int_equal(null_r->a.kind, TC_OPND_NULL);
  assert_int_not_equal(fe_block_of(fn, add), fe_block_of(fn, null_r));
  assert_string_equal(fe_fmt(u.prog, fn, &fe_call(u.prog, fn, "dt_cpu", 0)->dst, buf, sizeof buf),
                      "d.1");
  assert_string_equal(fe_fmt(u.prog, fn, &fe_call(u.prog, fn, "dt_sim", 0)->dst, buf, sizeof buf),
                      "d.1");
  fe_free(&u);
}

static void test_loops(void **state) {
  (void)state;
  fe_unit u;
  const tc_function *fn = lower_fn(&u,
      "void body(void); void after(void); void once(void); void w(void); void m(void);\n"
      "void n1(void); void n2(void);\n"
      "#define SPIN(i) for (i = 0; ; i++)\n"
      "#define UNTIL(i, n) for (; (i) < (n); )\n"
      "void f(int n) {\n"
      "  int i;\n"
      "  for (i = 0; ; i++) { if (i > 3) break; body(); }\n"
      "  after();\n"
      "  do { once(); } while (0);\n"
      "  while (n) { if (n == 5) { n--; continue; } w(); n--; }\n"
      "  for (;;) { m(); if (n) break; }\n"
      "  SPIN(i) { n1(); if (i) break; }\n"
      "  UNTIL(i, n) { n2(); i++; }\n"
      "}\n", "f");
  int bbody = call_block(&u, fn, "body", 0);
  assert_true(in_cycle(fn, bbody));
  assert_false(in_cycle(fn, call_block(&u, fn, "after", 0)));
  assert_false(in_cycle(fn, call_block(&u, fn, "once", 0)));
  assert_true(in_cycle(fn, call_block(&u, fn, "w", 0)));
  assert_true(in_cycle(fn, call_block(&u, fn, "m", 0)));
  assert_true(in_cycle(fn, call_block(&u, fn, "n1", 0)));
  assert_true(in_cycle(fn, call_block(&u, fn, "n2", 0)));
  /* i = 0 runs once per loop entry (twice: the plain for and SPIN), i++ in the loops */
  int inits = 0;
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t k = 0; k < fn->blocks[b].n_insns; k++) {
      const tc_insn *in = &fn->blocks[b].insns[k];
      if (in->kind == TC_I_ASSIGN && in->a.kind == TC_OPND_INT && in->a.ival == 0 &&
          in->dst.root == TC_ROOT_LOCAL) {
        inits++;
        assert_false(in_cycle(fn, (int)b));
      }
    }
  assert_int_equal(inits, 2);
  /* the macro loop with only a condition tests it: a comparison exists in the cycle of n2 */
  fe_free(&u);
}

static void test_switch_and_goto(void **state) {
  (void)state;
  fe_unit u;
  const tc_function *fn = lower_fn(&u,
      "void a(void); void b(void); void c(void); void d(void); void cleanup(void);\n"
      "int f(int n, int *p) {\n"
      "  switch (n) {\n"
      "  case 1: a();\n"
      "  case 2: case 3: b(); break;\n"
      "  default: c();\n"
      "  case 7: d();\n"
      "  }\n"
      "  if (!p) goto fail;\n"
      "  return 0;\n"
      "fail:\n"
      "  cleanup();\n"
      "  return -1;\n"
      "}\n", "f");
  const tc_block *sw = NULL;
  for (uint32_t b = 0; b < fn->n_blocks && !sw; b++)
    if (fn->blocks[b].term.kind == TC_T_SWITCH) sw = &fn->blocks[b];
  assert_non_null(sw);
  assert_int_equal(sw->term.n_cases, 4);
  assert_int_equal(sw->term.n_succ, 5);
  int ba = call_block(&u, fn, "a", 0), bb = call_block(&u, fn, "b", 0);
  int bc = call_block(&u, fn, "c", 0), bd = call_block(&u, fn, "d", 0);
  for (uint32_t i = 0; i < sw->term.n_cases; i++) {
    int64_t v = sw->term.case_values[i];
    uint32_t s = sw->term.succ[i];
    if (v == 1) assert_true(s == (uint32_t)ba || fe_reaches(fn, s, (uint32_t)ba));
    else if (v == 2 || v == 3) assert_true(s == (uint32_t)bb || fe_reaches(fn, s, (uint32_t)bb));
    else if (v == 7) assert_true(s == (uint32_t)bd || fe_reaches(fn, s, (uint32_t)bd));
    else fail_msg("unexpected case value %lld", (long long)v);
  }
  uint32_t def = sw->term.succ[sw->term.n_cases];
  assert_true(def == (uint32_t)bc || fe_reaches(fn, def, (uint32_t)bc));
  assert_true(fe_reaches(fn, (uint32_t)ba, (uint32_t)bb)); /* fallthrough */
  assert_true(fe_reaches(fn, (uint32_t)bc, (uint32_t)bd)); /* default falls into case 7 */
  assert_false(fe_reaches(fn, (uint32_t)bb, (uint32_t)bc)); /* break */
  int bcl = call_block(&u, fn, "cleanup", 0);
  assert_true(fe_reaches(fn, 0, (uint32_t)bcl));
  assert_int_equal(fn->blocks[bcl].term.kind, TC_T_RETURN);
  assert_int_equal(fn->blocks[bcl].term.cond.ival, -1);
  fe_free(&u);
}

static void test_shadowing_and_stmt_expr(void **state) {
  (void)state;
  fe_unit u;
  const tc_function *fn = lower_fn(&u,
      "#include <dt/dt.h>\n"
      "void f(dt_tensor *a, dt_tensor *b) {\n"
      "  dt_tensor *t = a;\n"
      "  { dt_tensor *t = b; dt_free(t); }\n"
      "  dt_free(t);\n"
      "  int v = ({ dt_free(a); 3; });\n"
      "  (void)v;\n"
      "}\n", "f");
  int t0 = fe_local(u.prog, fn, "t", 0), t1 = fe_local(u.prog, fn, "t", 1);
  assert_true(t0 >= 0 && t1 >= 0 && t0 != t1);
  const tc_insn *f0 = fe_call(u.prog, fn, "dt_free", 0), *f1 = fe_call(u.prog, fn, "dt_free", 1);
  assert_int_equal(f0->args[0].path.root, TC_ROOT_LOCAL);
  assert_int_equal(f0->args[0].path.id, (uint32_t)t1);
  assert_int_equal(f1->args[0].path.id, (uint32_t)t0);
  assert_int_equal(fe_write_to(u.prog, fn, TC_I_ASSIGN, "v.2", 0)->a.ival, 3);
  assert_non_null(fe_call(u.prog, fn, "dt_free", 2));
  fe_free(&u);
}

static char *deep_source(void) {
  size_t cap = 4 << 20, n = 0;
  char *s = malloc(cap);
  n += (size_t)snprintf(s + n, cap - n, "int g(int);\nint f(int a) {\n  int x = a");
  for (int i = 0; i < 6000; i++) n += (size_t)snprintf(s + n, cap - n, " + a");
  n += (size_t)snprintf(s + n, cap - n, ";\n  if (a == 0) x = 1;\n");
  for (int i = 1; i < 3000; i++)
    n += (size_t)snprintf(s + n, cap - n, "  else if (a == %d) x = g(%d);\n", i, i);
  for (int i = 0; i < 3000; i++) n += (size_t)snprintf(s + n, cap - n, "if (a > %d)\n", i);
  n += (size_t)snprintf(s + n, cap - n, "x = g(x);\n  x = ");
  for (int i = 0; i < 3000; i++) n += (size_t)snprintf(s + n, cap - n, "a == %d ? %d : ", i, i);
  n += (size_t)snprintf(s + n, cap - n, "0;\n  x = g(1)");
  for (int i = 0; i < 3000; i++) n += (size_t)snprintf(s + n, cap - n, " && g(%d)", i);
  n += (size_t)snprintf(s + n, cap - n, ";\n  return x;\n}\n");
  return s;
}

static void test_deep_nesting(void **state) {
  (void)state;
  char *src = deep_source();
  fe_unit u;
  assert_int_equal(fe_lower(src, &u), 0);
  free(src);
  const tc_function *fn = fe_func(u.prog, "f");
  assert_non_null(fn);
  /* the else-if chain is walked without recursion: every one of its calls is there */
  int calls = fe_count_calls(u.prog, fn, "g");
  assert_true(calls >= 2999);
  /* the long sum is a chain of additions, none lost */
  int adds = 0;
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++)
      adds += fn->blocks[b].insns[i].kind == TC_I_BINOP && fn->blocks[b].insns[i].opc == TC_OPC_ADD;
  assert_true(adds >= 6000);
  fe_free(&u);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_if_and_conditions), cmocka_unit_test(test_conditional_value),
    cmocka_unit_test(test_loops), cmocka_unit_test(test_switch_and_goto),
    cmocka_unit_test(test_shadowing_and_stmt_expr), cmocka_unit_test(test_deep_nesting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
