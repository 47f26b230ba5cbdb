/* tests/frontend/test_lower.c — lowering of declarations and expressions: calls by name and
 * USR with their destinations, compound literals, designated and nested initializers (brace
 * elision, anonymous members, arrays), member and array paths, address-of and dereference,
 * enum constants and folded integer expressions, casts, globals and function-local statics,
 * function pointers, macros, locations and types. Each test parses real C with libclang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "fe_util.h"

#define P(u) ((u).prog)

static const tc_function *must_func(const fe_unit *u, const char *name) {
  const tc_function *f = fe_func(u->prog, name);
  if (!f) fail_msg("function %s not lowered", name);
  return f;
}

static const char *fmt_opnd_path(const fe_unit *u, const tc_function *fn, const tc_opnd *o,
                                 char *buf, size_t len) {
  if (o->kind != TC_OPND_PATH && o->kind != TC_OPND_ADDR) return "<not a path>";
  return fe_fmt(u->prog, fn, &o->path, buf, len);
}

static void test_calls_and_compound_literals(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(
      fe_lower("#include <dt/dt.h>\n"
               "dt_tensor *make(void) {\n"
               "  dt_tensor *t = dt_zeros((dt_device){DT_BACKEND_SIM, 1, 0}, DT_FLOAT, 2,\n"
               "                          (const int64_t[]){2, 3});\n"
               "  return t;\n"
               "}\n",
               &u),
      0);
  assert_null(u.failure);
  const tc_function *fn = must_func(&u, "make");
  const tc_insn *call = fe_call(P(u), fn, "dt_zeros", 0);
  assert_non_null(call);
  assert_string_equal(tc_str(P(u), call->callee.usr), "c:@F@dt_zeros");
  assert_false(call->callee.indirect);
  assert_int_equal(call->n_args, 4);
  /* the result goes straight to t */
  char buf[256], want[300];
  assert_true(call->has_dst);
  assert_int_equal(call->dst.root, TC_ROOT_LOCAL);
  assert_string_equal(tc_str(P(u), fn->locals[call->dst.id].name), "t");
  /* arg 0: a temporary device filled field by field after a reset */
  assert_int_equal(call->args[0].kind, TC_OPND_PATH);
  assert_int_equal(call->args[0].type.cls, TC_TY_RECORD);
  assert_string_equal(tc_str(P(u), call->args[0].type.record_name), "dt_device");
  const char *dev = fmt_opnd_path(&u, fn, &call->args[0], buf, sizeof buf);
  assert_non_null(fe_write_to(P(u), fn, TC_I_AGGREGATE, dev, 0));
  snprintf(want, sizeof want, "%s.backend", dev);
  const tc_insn *b = fe_write_to(P(u), fn, TC_I_ASSIGN, want, 0);
  assert_non_null(b);
  assert_int_equal(b->a.kind, TC_OPND_INT);
  assert_int_equal(b->a.ival, 2);
  assert_string_equal(tc_str(P(u), b->a.sym), "DT_BACKEND_SIM");
  snprintf(want, sizeof want, "%s.ordinal", dev);
  b = fe_write_to(P(u), fn, TC_I_ASSIGN, want, 0);
  assert_non_null(b);
  assert_int_equal(b->a.ival, 1);
  /* arg 1: an enum constant folded, its name kept */
  assert_int_equal(call->args[1].kind, TC_OPND_INT);
  assert_int_equal(call->args[1].ival, 1);
  assert_string_equal(tc_str(P(u), call->args[1].sym), "DT_FLOAT");
  /* arg 3: the array compound literal decays to its address */
  assert_int_equal(call->args[3].kind, TC_OPND_ADDR);
  const char *arr = fmt_opnd_path(&u, fn, &call->args[3], buf, sizeof buf);
  snprintf(want, sizeof want, "%s[1]", arr);
  b = fe_write_to(P(u), fn, TC_I_ASSIGN, want, 0);
  assert_non_null(b);
  assert_int_equal(b->a.ival, 3);
  /* location: the call starts at the callee's name */
  assert_int_equal(call->loc.line, 3);
  assert_int_equal(call->loc.col, 18);
  assert_int_equal(call->loc.end_line, 4);
  assert_true(call->loc.end_col > call->loc.col - 10);
  assert_string_equal(tc_str(P(u), call->loc.file), u.path);
  fe_free(&u);
}

static void test_initializers(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(
      fe_lower("#include <dt/dt.h>\n"
               "typedef struct { int kind; union { int i; float f; }; dt_device dev; } Cfg;\n"
               "struct Model { dt_tensor *w[3]; dt_device dev; int n; };\n"
               "void f(dt_tensor *x) {\n"
               "  dt_device d = {DT_BACKEND_CUDA, .autodiff = 1};\n"
               "  Cfg c = { 7, {5}, .dev.ordinal = 3, 1 };\n"
               "  struct Model m = { {x, [2] = x}, {DT_BACKEND_CPU}, 4 };\n"
               "  struct Model e = { x, 0, 0, DT_BACKEND_SIM, 1 };\n"
               "  dt_tensor *ts[] = {x, x};\n"
               "  int scalar = {9};\n"
               "  dt_device copy = d;\n"
               "  (void)c; (void)m; (void)e; (void)ts; (void)scalar; (void)copy;\n"
               "}\n",
               &u),
      0);
  assert_null(u.failure);
  const tc_function *fn = must_func(&u, "f");
  const tc_program *p = P(u);
  /* designated after positional: autodiff set, ordinal not written (zero from the reset) */
  assert_non_null(fe_write_to(p, fn, TC_I_AGGREGATE, "d.0", 0));
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "d.0.backend", 0)->a.ival, 3);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "d.0.autodiff", 0)->a.ival, 1);
  assert_null(fe_write_to(p, fn, TC_I_ASSIGN, "d.0.ordinal", 0));
  /* anonymous union flattened; nested designator continues with the next field */
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "c.1.kind", 0)->a.ival, 7);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "c.1.i", 0)->a.ival, 5);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "c.1.dev.ordinal", 0)->a.ival, 3);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "c.1.dev.autodiff", 0)->a.ival, 1);
  /* nested braces with an array designator */
  const tc_insn *w0 = fe_write_to(p, fn, TC_I_ASSIGN, "m.2.w[0]", 0);
  assert_non_null(w0);
  assert_int_equal(w0->a.kind, TC_OPND_PATH);
  assert_int_equal(w0->a.path.root, TC_ROOT_PARAM);
  assert_non_null(fe_write_to(p, fn, TC_I_ASSIGN, "m.2.w[2]", 0));
  assert_null(fe_write_to(p, fn, TC_I_ASSIGN, "m.2.w[1]", 0));
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "m.2.dev.backend", 0)->a.ival, 1);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "m.2.n", 0)->a.ival, 4);
  /* brace elision: flat values fill the array, then the device's fields */
  assert_non_null(fe_write_to(p, fn, TC_I_ASSIGN, "e.3.w[0]", 0));
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "e.3.w[1]", 0)->a.kind, TC_OPND_NULL);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "e.3.dev.backend", 0)->a.ival, 2);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "e.3.dev.ordinal", 0)->a.ival, 1);
  /* arrays of tensors, size from the initializer */
  assert_non_null(fe_write_to(p, fn, TC_I_ASSIGN, "ts.4[1]", 0));
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "scalar.5", 0)->a.ival, 9);
  /* a whole struct copied */
  const tc_insn *cp = fe_write_to(p, fn, TC_I_ASSIGN, "copy.6", 0);
  assert_non_null(cp);
  assert_int_equal(cp->a.kind, TC_OPND_PATH);
  assert_int_equal(cp->a.type.cls, TC_TY_RECORD);
  fe_free(&u);
}

static void test_paths_and_pointers(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(
      fe_lower("#include <dt/dt.h>\n"
               "struct Layer { dt_tensor *w; };\n"
               "struct Model { struct Layer layers[4]; dt_device dev; };\n"
               "void g(struct Model *m, int i, dt_tensor **out) {\n"
               "  struct Model local;\n"
               "  struct Model *pm = &local;\n"
               "  m->layers[i].w = dt_relu(m->layers[2].w);\n"
               "  *out = dt_neg(pm->layers[0].w);\n"
               "  out[1] = *(out + 2);\n"
               "  local.dev = m->dev;\n"
               "  (&local)->dev.ordinal = 1;\n"
               "  dt_tensor **q = &*out;\n"
               "  dt_cat(2, out, 0);\n"
               "  dt_tensor **next = out + i;\n"
               "  next++;\n"
               "  (void)q;\n"
               "}\n",
               &u),
      0);
  assert_null(u.failure);
  const tc_function *fn = must_func(&u, "g");
  const tc_program *p = P(u);
  char buf[256];
  const tc_insn *relu = fe_call(p, fn, "dt_relu", 0);
  assert_non_null(relu);
  assert_string_equal(fe_fmt(p, fn, &relu->dst, buf, sizeof buf), "m->layers[*].w");
  assert_string_equal(fmt_opnd_path(&u, fn, &relu->args[0], buf, sizeof buf), "m->layers[2].w");
  /* the elements spell the path: m DEREF FIELD layers INDEX 2 FIELD w */
  const tc_path *ap = &relu->args[0].path;
  assert_int_equal(ap->root, TC_ROOT_PARAM);
  assert_int_equal(ap->n_elems, 4);
  assert_int_equal(ap->elems[0].kind, TC_ELEM_DEREF);
  assert_int_equal(ap->elems[1].kind, TC_ELEM_FIELD);
  assert_string_equal(tc_str(p, ap->elems[1].field), "layers");
  assert_int_equal(ap->elems[2].kind, TC_ELEM_INDEX);
  assert_int_equal(ap->elems[2].index, 2);
  assert_string_equal(tc_str(p, ap->spelling), "m->layers[2].w");
  const tc_insn *neg = fe_call(p, fn, "dt_neg", 0);
  assert_string_equal(fe_fmt(p, fn, &neg->dst, buf, sizeof buf), "(*out)");
  assert_string_equal(fmt_opnd_path(&u, fn, &neg->args[0], buf, sizeof buf), "pm.1->layers[0].w");
  /* *(out + 2) is out[2] */
  const tc_insn *o1 = fe_write_to(p, fn, TC_I_ASSIGN, "out[1]", 0);
  assert_non_null(o1);
  assert_string_equal(fmt_opnd_path(&u, fn, &o1->a, buf, sizeof buf), "out[2]");
  /* &local is an address; (&local)->dev is local.dev */
  const tc_insn *pm = fe_write_to(p, fn, TC_I_ASSIGN, "pm.1", 0);
  assert_int_equal(pm->a.kind, TC_OPND_ADDR);
  assert_string_equal(fmt_opnd_path(&u, fn, &pm->a, buf, sizeof buf), "local.0");
  assert_non_null(fe_write_to(p, fn, TC_I_ASSIGN, "local.0.dev", 0));
  assert_non_null(fe_write_to(p, fn, TC_I_ASSIGN, "local.0.dev.ordinal", 0));
  /* &*out is out */
  const tc_insn *q = fe_write_to(p, fn, TC_I_ASSIGN, "q.2", 0);
  assert_int_equal(q->a.kind, TC_OPND_PATH);
  assert_string_equal(fmt_opnd_path(&u, fn, &q->a, buf, sizeof buf), "out");
  /* pointer + integer stays an addition on the pointer (the engine walks the array) */
  const tc_insn *nx = fe_write_to(p, fn, TC_I_ASSIGN, "next.3", 0);
  assert_non_null(nx);
  assert_int_equal(nx->a.kind, TC_OPND_PATH);
  const tc_insn *padd = NULL;
  for (uint32_t bi = 0; bi < fn->n_blocks && !padd; bi++)
    for (uint32_t k = 0; k < fn->blocks[bi].n_insns; k++)
      if (fn->blocks[bi].insns[k].kind == TC_I_BINOP && fn->blocks[bi].insns[k].has_dst &&
          fn->blocks[bi].insns[k].dst.root == TC_ROOT_TEMP &&
          fn->blocks[bi].insns[k].dst_type.cls == TC_TY_POINTER)
        padd = &fn->blocks[bi].insns[k];
  assert_non_null(padd);
  assert_int_equal(padd->opc, TC_OPC_ADD);
  assert_string_equal(fmt_opnd_path(&u, fn, &padd->a, buf, sizeof buf), "out");
  assert_int_equal(padd->b.kind, TC_OPND_PATH); /* i */
  const tc_insn *step = fe_write_to(p, fn, TC_I_BINOP, "next.3", 0);
  assert_non_null(step);
  assert_int_equal(step->b.ival, 1);
  /* types */
  const tc_insn *cat = fe_call(p, fn, "dt_cat", 0);
  assert_int_equal(cat->args[1].type.cls, TC_TY_POINTER);
  assert_int_equal(cat->args[1].type.ptr_depth, 2);
  assert_string_equal(tc_str(p, cat->args[1].type.base_record), "dt_tensor");
  assert_int_equal(cat->args[1].type.record_name, 0);
  assert_string_equal(tc_str(p, neg->args[0].type.record_name), "dt_tensor");
  assert_string_equal(tc_str(p, neg->args[0].type.pointee_name), "dt_tensor");
  fe_free(&u);
}

/* A string literal is an unknown value; a plain one keeps its text for the rules (a device
   name), the whole of one made of pieces too, one with an escape does not. */
static void test_string_literals(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(fe_lower("void pick(const char *name, const char *params);\n"
                            "void h(void) {\n"
                            "  pick(\"CUDA1\", \"a\\tb\");\n"
                            "  pick(\"CU\" \"DA1\", 0);\n"
                            "}\n",
                            &u),
                   0);
  const tc_function *fn = must_func(&u, "h");
  const tc_program *p = P(u);
  const tc_insn *plain = fe_call(p, fn, "pick", 0), *pieces = fe_call(p, fn, "pick", 1);
  assert_non_null(plain);
  assert_non_null(pieces);
  assert_int_equal(plain->args[0].kind, TC_OPND_UNKNOWN);
  assert_string_equal(tc_str(p, plain->args[0].sym), "CUDA1");
  assert_int_equal(plain->args[1].kind, TC_OPND_UNKNOWN);
  assert_int_equal(plain->args[1].sym, 0);
  assert_int_equal(pieces->args[0].kind, TC_OPND_UNKNOWN);
  assert_string_equal(tc_str(p, pieces->args[0].sym), "CUDA1");
  fe_free(&u);
}

static void test_constants_and_operators(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(
      fe_lower("#include <dt/dt.h>\n"
               "enum { N = 4 };\n"
               "int h(int a, unsigned char c) {\n"
               "  int k = (N * 3 + 1) << 2;\n"
               "  int s = sizeof(dt_device) / sizeof(int);\n"
               "  unsigned char wrap = (unsigned char)300;\n"
               "  int neg = -(2 - 5);\n"
               "  int cmp = 3 > 2 && 1;\n"
               "  k += a;\n"
               "  a++;\n"
               "  int old = c--;\n"
               "  float x = 1.5f * a;\n"
               "  int t = a == 2;\n"
               "  return k + s + wrap + neg + cmp + old + (int)x + t;\n"
               "}\n",
               &u),
      0);
  const tc_function *fn = must_func(&u, "h");
  const tc_program *p = P(u);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "k.0", 0)->a.ival, 52);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "s.1", 0)->a.ival, 3);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "wrap.2", 0)->a.ival, 44);
  assert_int_equal(fe_write_to(p, fn, TC_I_ASSIGN, "neg.3", 0)->a.ival, 3);
  /* a constant && becomes branches on constants: only the "true" assignment is reachable */
  const tc_insn *cmp = fe_write_to(p, fn, TC_I_ASSIGN, "cmp.4", 0);
  assert_int_equal(cmp->a.kind, TC_OPND_PATH);
  char tbuf[64];
  fe_fmt(p, fn, &cmp->a.path, tbuf, sizeof tbuf);
  const tc_insn *one = fe_write_to(p, fn, TC_I_ASSIGN, tbuf, 0);
  const tc_insn *zero = fe_write_to(p, fn, TC_I_ASSIGN, tbuf, 1);
  assert_non_null(one);
  assert_non_null(zero);
  if (one->a.ival == 0) {
    const tc_insn *t = one;
    one = zero;
    zero = t;
  }
  assert_int_equal(one->a.ival, 1);
  assert_true(fe_reaches(fn, 0, (uint32_t)fe_block_of(fn, one)));
  assert_false(fe_reaches(fn, 0, (uint32_t)fe_block_of(fn, zero)));
  const tc_insn *add = fe_write_to(p, fn, TC_I_BINOP, "k.0", 0);
  assert_non_null(add);
  assert_int_equal(add->opc, TC_OPC_ADD);
  const tc_insn *inc = fe_write_to(p, fn, TC_I_BINOP, "a", 0);
  assert_non_null(inc);
  assert_int_equal(inc->opc, TC_OPC_ADD);
  assert_int_equal(inc->b.ival, 1);
  /* the post-decrement's value is the old one, kept in a temporary */
  const tc_insn *old = fe_write_to(p, fn, TC_I_ASSIGN, "old.5", 0);
  assert_int_equal(old->a.kind, TC_OPND_PATH);
  assert_int_equal(old->a.path.root, TC_ROOT_TEMP);
  /* float math is not modelled */
  assert_non_null(fe_write_to(p, fn, TC_I_HAVOC, "x.6", 0));
  const tc_insn *eq = NULL;
  for (uint32_t b = 0; b < fn->n_blocks && !eq; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++)
      if (fn->blocks[b].insns[i].kind == TC_I_BINOP && fn->blocks[b].insns[i].opc == TC_OPC_EQ)
        eq = &fn->blocks[b].insns[i];
  assert_non_null(eq);
  assert_int_equal(eq->b.ival, 2);
  fe_free(&u);
}

static void test_globals_and_statics(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(
      fe_lower("#include <dt/dt.h>\n"
               "static dt_device g_dev = {DT_BACKEND_SIM, 1, 0};\n"
               "dt_tensor *g_cache;\n"
               "extern int g_extern;\n"
               "int counter(void) {\n"
               "  static dt_device once = {DT_BACKEND_CPU};\n"
               "  static int calls;\n"
               "  calls++;\n"
               "  once = g_dev;\n"
               "  return calls + g_extern;\n"
               "}\n",
               &u),
      0);
  const tc_program *p = P(u);
  const tc_unit *un = &p->units[0];
  assert_int_equal(un->n_globals, 4); /* g_dev, g_cache, once, calls (not the extern) */
  int seen_gdev = 0, seen_cache = 0;
  for (uint32_t i = 0; i < un->n_globals; i++) {
    if (!strcmp(tc_str(p, un->globals[i].name), "g_dev")) seen_gdev = un->globals[i].has_init;
    if (!strcmp(tc_str(p, un->globals[i].name), "g_cache")) seen_cache = 1;
  }
  assert_true(seen_gdev);
  assert_true(seen_cache);
  const tc_function *gi = un->global_init;
  assert_non_null(gi);
  assert_string_equal(tc_str(p, gi->name), "__tc_global_init");
  /* a static's USR names its file by absolute path (two util.c must not collide), and the
     unit, since a static object is one per unit (a header's static: one copy per includer) */
  char gdev_usr[2400], want[2500];
  snprintf(gdev_usr, sizeof gdev_usr, "c:%s@g_dev#unit:%s", u.path, u.path);
  snprintf(want, sizeof want, "@%s.ordinal", gdev_usr);
  assert_int_equal(fe_write_to(p, gi, TC_I_ASSIGN, want, 0)->a.ival, 1);
  const tc_function *fn = must_func(&u, "counter");
  /* the static's initializer runs in the global init, its uses are GLOBAL roots */
  int once = fe_local(p, fn, "once", 0);
  assert_true(once >= 0);
  assert_true(fn->locals[once].is_static);
  char gbuf[512];
  snprintf(gbuf, sizeof gbuf, "@%s.backend", tc_str(p, fn->locals[once].usr));
  assert_int_equal(fe_write_to(p, gi, TC_I_ASSIGN, gbuf, 0)->a.ival, 1);
  snprintf(gbuf, sizeof gbuf, "@%s", tc_str(p, fn->locals[once].usr));
  const tc_insn *asg = fe_write_to(p, fn, TC_I_ASSIGN, gbuf, 0);
  assert_non_null(asg);
  assert_int_equal(asg->a.path.root, TC_ROOT_GLOBAL);
  assert_string_equal(tc_str(p, asg->a.path.id), gdev_usr);
  fe_free(&u);
}

static void test_indirect_macros_noreturn(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(
      fe_lower("#include <dt/dt.h>\n"
               "#include <stdlib.h>\n"
               "#define ADD(a, b) dt_add(a, b)\n"
               "typedef dt_tensor *(*binop)(const dt_tensor *, const dt_tensor *);\n"
               "_Noreturn void die(const char *why);\n"
               "dt_tensor *k(dt_tensor *x, binop op, int mode) {\n"
               "  dt_tensor *y = op(x, x);\n"
               "  binop f = dt_mul;\n"
               "  y = (*f)(y, x);\n"
               "  y =  ADD(y, x);\n"
               "  if (mode == 1) die(\"mode\");\n"
               "  if (mode == 2) exit(1);\n"
               "  if (__builtin_expect(y == NULL, 0)) abort();\n"
               "  return y;\n"
               "}\n",
               &u),
      0);
  const tc_program *p = P(u);
  const tc_function *fn = must_func(&u, "k");
  /* calls through pointers are indirect, with the pointer as target */
  int indirect = 0;
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
      const tc_insn *in = &fn->blocks[b].insns[i];
      if (in->kind == TC_I_CALL && in->callee.indirect) {
        indirect++;
        assert_int_equal(in->callee.name, 0);
        assert_int_equal(in->callee.target.kind, TC_OPND_PATH);
      }
    }
  assert_int_equal(indirect, 2);
  const tc_insn *fa = fe_write_to(p, fn, TC_I_ASSIGN, "f.1", 0);
  assert_int_equal(fa->a.kind, TC_OPND_FUNC);
  assert_string_equal(tc_str(p, fa->a.sym), "c:@F@dt_mul");
  /* the macro's call: in_macro, located at the macro's use */
  const tc_insn *add = fe_call(p, fn, "dt_add", 0);
  assert_non_null(add);
  assert_true(add->in_macro);
  assert_int_equal(add->loc.line, 10);
  assert_int_equal(add->loc.col, 8);
  assert_false(fe_call(p, fn, "dt_mul", 0) != NULL); /* called indirectly, not by name */
  /* noreturn calls end their block */
  const char *nr[] = {"die", "exit", "abort"};
  for (int i = 0; i < 3; i++) {
    const tc_insn *c = fe_call(p, fn, nr[i], 0);
    assert_non_null(c);
    int b = fe_block_of(fn, c);
    assert_true(b >= 0);
    assert_int_equal(fn->blocks[b].term.kind, TC_T_UNREACHABLE);
    assert_ptr_equal(c, &fn->blocks[b].insns[fn->blocks[b].n_insns - 1]);
  }
  /* __builtin_expect is transparent: the branch tests the comparison itself */
  assert_null(fe_call(p, fn, "__builtin_expect", 0));
  fe_free(&u);
}

static void test_c23(void **state) {
  (void)state;
  fe_unit u;
  const char *args[] = {"-std=c23"};
  assert_int_equal(fe_lower_args("#include <dt/dt.h>\n"
                                 "[[noreturn]] void fail(void);\n"
                                 "int f(dt_tensor *t) {\n"
                                 "  bool ok = true;\n"
                                 "  dt_tensor *n = nullptr;\n"
                                 "  if (t == nullptr) fail();\n"
                                 "  return ok + (n == t);\n"
                                 "}\n",
                                 args, 1, &u),
                   0);
  assert_null(u.failure);
  const tc_function *fn = must_func(&u, "f");
  assert_int_equal(fe_write_to(P(u), fn, TC_I_ASSIGN, "ok.0", 0)->a.ival, 1);
  assert_int_equal(fe_write_to(P(u), fn, TC_I_ASSIGN, "n.1", 0)->a.kind, TC_OPND_NULL);
  const tc_insn *c = fe_call(P(u), fn, "fail", 0);
  assert_int_equal(fn->blocks[fe_block_of(fn, c)].term.kind, TC_T_UNREACHABLE);
  fe_free(&u);
}

static void test_headers(void **state) {
  (void)state;
  char dir[512], path[1024], main_path[1024];
  fe_tmpdir(dir, sizeof dir);
  fe_write(dir, "inc/helpers.h",
           "#include <dt/dt.h>\n"
           "static inline dt_tensor *twice(dt_tensor *x) { return dt_add(x, x); }\n",
           path, sizeof path);
  fe_write(dir, "m.c", "#include \"helpers.h\"\n#include <stdio.h>\n"
                       "dt_tensor *use(dt_tensor *x) { return twice(x); }\n",
           main_path, sizeof main_path);
  const char *args[] = {"-Iinc", "-I" TC_TEST_RUNTIME_INCLUDE};
  tc_compile_cmd cmd;
  assert_int_equal(tc_compile_cmd_from_args(main_path, args, 2, dir, &cmd), 0);
  tc_parser *parser = tc_parser_new();
  tc_parse_result r;
  assert_int_equal(tc_parse_unit(parser, &cmd, NULL, 0, 1, &r), 0);
  assert_null(r.failure);
  const tc_function *tw = fe_func(r.prog, "twice");
  assert_non_null(tw);
  assert_true(tw->in_header);
  assert_true(tw->is_inline);
  assert_true(tw->is_static);
  assert_string_equal(tc_str(r.prog, tw->loc.file), path);
  const tc_function *use = fe_func(r.prog, "use");
  assert_false(use->in_header);
  assert_string_equal(tc_str(r.prog, fe_call(r.prog, use, "twice", 0)->callee.usr),
                      tc_str(r.prog, tw->usr));
  /* nothing from system headers (stdio.h defines no function we lower) */
  for (uint32_t i = 0; i < r.prog->units[0].n_functions; i++) {
    const char *f = tc_str(r.prog, r.prog->units[0].functions[i].loc.file);
    assert_null(strstr(f, "/usr/include"));
  }
  /* the unit's dependencies: the main file first, the header, stdio.h */
  assert_true(r.n_deps >= 3);
  assert_string_equal(r.deps[0], main_path);
  int has_header = 0, has_stdio = 0;
  for (size_t i = 0; i < r.n_deps; i++) {
    has_header |= strcmp(r.deps[i], path) == 0;
    has_stdio |= strstr(r.deps[i], "stdio.h") != NULL;
  }
  assert_true(has_header && has_stdio);
  tc_parse_result_free(&r);
  /* unsaved contents replace the file on disk */
  tc_unsaved_file uf = {main_path, "int edited(void) { return 1; }\n", 31};
  assert_int_equal(tc_parse_unit(parser, &cmd, &uf, 1, 0, &r), 0);
  assert_non_null(fe_func(r.prog, "edited"));
  assert_null(fe_func(r.prog, "use"));
  tc_parse_result_free(&r);
  tc_parser_free(parser);
  tc_compile_cmd_free(&cmd);
  fe_rmdir(dir);
}

/* Static functions of two files with the same base name stay apart; calls resolve to their
   own file's function. */
static void test_static_usrs(void **state) {
  (void)state;
  char dir[512], pa[1024], pb[1024];
  fe_tmpdir(dir, sizeof dir);
  const char *src = "static int norm(int x) { return x; }\nint api_%c(void) { return norm(1); }\n";
  char text[256];
  snprintf(text, sizeof text, src, 'a');
  fe_write(dir, "a/util.c", text, pa, sizeof pa);
  snprintf(text, sizeof text, src, 'b');
  fe_write(dir, "b/util.c", text, pb, sizeof pb);
  tc_parser *parser = tc_parser_new();
  tc_program *all = tc_program_new();
  const char *paths[2] = {pa, pb};
  for (int i = 0; i < 2; i++) {
    tc_compile_cmd cmd;
    assert_int_equal(tc_compile_cmd_from_args(paths[i], NULL, 0, dir, &cmd), 0);
    tc_parse_result r;
    assert_int_equal(tc_parse_unit(parser, &cmd, NULL, 0, 0, &r), 0);
    assert_int_equal(tc_program_merge(all, r.prog), 0);
    r.prog = NULL;
    tc_parse_result_free(&r);
    tc_compile_cmd_free(&cmd);
  }
  const tc_unit *ua = &all->units[0], *ub = &all->units[1];
  const tc_function *na = NULL, *nb = NULL, *aa = NULL, *ab = NULL;
  for (uint32_t i = 0; i < ua->n_functions; i++) {
    if (!strcmp(tc_str(all, ua->functions[i].name), "norm")) na = &ua->functions[i];
    if (!strcmp(tc_str(all, ua->functions[i].name), "api_a")) aa = &ua->functions[i];
  }
  for (uint32_t i = 0; i < ub->n_functions; i++) {
    if (!strcmp(tc_str(all, ub->functions[i].name), "norm")) nb = &ub->functions[i];
    if (!strcmp(tc_str(all, ub->functions[i].name), "api_b")) ab = &ub->functions[i];
  }
  assert_true(na && nb && aa && ab);
  assert_int_not_equal(na->usr, nb->usr);
  assert_int_equal(fe_call(all, aa, "norm", 0)->callee.usr, na->usr);
  assert_int_equal(fe_call(all, ab, "norm", 0)->callee.usr, nb->usr);
  assert_non_null(strstr(tc_str(all, na->usr), "/a/util.c@"));
  tc_program_free(all);
  tc_parser_free(parser);
  fe_rmdir(dir);
}

static void test_errors_still_lowered(void **state) {
  (void)state;
  fe_unit u;
  assert_int_equal(fe_lower("#include <dt/dt.h>\n"
                            "void ok(dt_tensor *x) { dt_free(dt_neg(x)); }\n"
                            "void bad(void) { undeclared_thing(1) + ; }\n",
                            &u),
                   0);
  assert_non_null(u.failure);
  assert_non_null(strstr(u.failure, "t.c:3:"));
  assert_non_null(strstr(u.failure, "error"));
  assert_true(u.prog->units[0].parse_failed);
  assert_non_null(fe_call(P(u), must_func(&u, "ok"), "dt_neg", 0));
  fe_free(&u);
  /* a file that does not exist: a failure, no crash */
  tc_compile_cmd cmd;
  assert_int_equal(tc_compile_cmd_from_args("/nonexistent/dir/x.c", NULL, 0, "/", &cmd), 0);
  tc_parser *parser = tc_parser_new();
  tc_parse_result r;
  assert_int_equal(tc_parse_unit(parser, &cmd, NULL, 0, 0, &r), 0);
  assert_non_null(r.failure);
  tc_parse_result_free(&r);
  tc_parser_free(parser);
  tc_compile_cmd_free(&cmd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_calls_and_compound_literals),
    cmocka_unit_test(test_initializers),
    cmocka_unit_test(test_paths_and_pointers),
    cmocka_unit_test(test_string_literals),
    cmocka_unit_test(test_constants_and_operators),
    cmocka_unit_test(test_globals_and_statics),
    cmocka_unit_test(test_indirect_macros_noreturn),
    cmocka_unit_test(test_c23),
    cmocka_unit_test(test_headers),
    cmocka_unit_test(test_static_usrs),
    cmocka_unit_test(test_errors_still_lowered),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
