/* tests/frontend/test_lower_cxx.c — lowering of C++ into the C IR (frontend/lower_cxx.c):
 * members with an explicit `this`, member and operator calls passing the object's address,
 * constructors' initializers, references bound to addresses (an array member included),
 * lambdas as functions of their closure, template instantiations and patterns, throw, and the
 * coverage counts. Each test parses real C++ with libclang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "fe_util.h"

static const char *const kCxx[] = {"-x", "c++", "-std=c++17"};

static void lower_cxx(const char *src, fe_unit *u) {
  assert_int_equal(fe_lower_args(src, kCxx, 3, u), 0);
  if (u->failure) fail_msg("clang failed: %s", u->failure);
}

static const tc_function *must(const fe_unit *u, const char *name) {
  const tc_function *f = fe_func(u->prog, name);
  if (!f) fail_msg("function %s not lowered", name);
  return f;
}

static const char *fmt(const fe_unit *u, const tc_function *fn, const tc_opnd *o, char *buf,
                       size_t len) {
  if (o->kind != TC_OPND_PATH && o->kind != TC_OPND_ADDR) return "<not a path>";
  return fe_fmt(u->prog, fn, &o->path, buf, len);
}

static void test_members_and_constructors(void **state) {
  (void)state;
  fe_unit u;
  lower_cxx("#include <dt/dt.h>\n"
            "namespace nn {\n"
            "struct L {\n"
            "  dt_device dev; dt_tensor *w = nullptr; int n;\n"
            "  L(dt_device d, int k) : dev(d), n(k) {}\n"
            "  dt_tensor *fwd(const dt_tensor *x) const { return dt_matmul(x, w); }\n"
            "};\n"
            "}\n"
            "dt_tensor *use(dt_tensor *x) { nn::L l(dt_cpu(), 2); return l.fwd(x); }\n",
            &u);
  char buf[256];
  const tc_function *ctor = must(&u, "L");
  assert_true(ctor->n_params == 3);
  assert_string_equal(tc_str(u.prog, ctor->params[0].name), "this");
  assert_int_equal(ctor->params[0].type.cls, TC_TY_POINTER);
  assert_non_null(fe_write_to(u.prog, ctor, TC_I_ASSIGN, "this->dev", 0));
  assert_non_null(fe_write_to(u.prog, ctor, TC_I_ASSIGN, "this->n", 0));
  assert_non_null(fe_write_to(u.prog, ctor, TC_I_ASSIGN, "this->w", 0)); /* in-class initializer */
  const tc_function *fwd = must(&u, "fwd");
  const tc_insn *mm = fe_call(u.prog, fwd, "dt_matmul", 0);
  assert_non_null(mm);
  assert_string_equal(fmt(&u, fwd, &mm->args[1], buf, sizeof buf), "this->w");
  const tc_function *use = must(&u, "use");
  const tc_insn *c = fe_call(u.prog, use, "L", 0);
  assert_non_null(c);
  assert_int_equal(c->n_args, 3);
  assert_int_equal(c->args[0].kind, TC_OPND_ADDR); /* the object constructed */
  const tc_insn *call = fe_call(u.prog, use, "fwd", 0);
  assert_non_null(call);
  assert_int_equal(call->n_args, 2);
  assert_int_equal(call->args[0].kind, TC_OPND_ADDR);
  assert_string_equal(tc_str(u.prog, call->callee.usr), tc_str(u.prog, fwd->usr));
  assert_int_equal(u.prog->units[0].stats.methods, 1);
  assert_int_equal(u.prog->units[0].stats.constructors, 1);
  fe_free(&u);
}

static void test_references(void **state) {
  (void)state;
  fe_unit u;
  /* `const auto &` bound to an array member once crashed the lowering */
  lower_cxx("struct H { int a[3]; };\n"
            "static void set(int &out, int v) { out = v; }\n"
            "int g(H &h) { const auto &a = h.a; int x = 0; set(x, a[1]); return x; }\n",
            &u);
  char buf[256];
  const tc_function *g = must(&u, "g");
  int a = fe_local(u.prog, g, "a", 0);
  assert_true(a >= 0);
  const tc_insn *bind = NULL;
  for (uint32_t b = 0; b < g->n_blocks && !bind; b++)
    for (uint32_t i = 0; i < g->blocks[b].n_insns; i++) {
      const tc_insn *in = &g->blocks[b].insns[i];
      if (in->kind == TC_I_ASSIGN && in->dst.root == TC_ROOT_LOCAL && in->dst.id == (uint32_t)a &&
          in->dst.n_elems == 0)
        bind = in;
    }
  assert_non_null(bind);
  assert_int_equal(bind->a.kind, TC_OPND_ADDR); /* a = &h->a */
  const tc_insn *s = fe_call(u.prog, g, "set", 0);
  assert_non_null(s);
  assert_int_equal(s->args[0].kind, TC_OPND_ADDR); /* set(&x, …) */
  assert_int_equal(s->args[0].path.root, TC_ROOT_LOCAL);
  assert_int_equal(s->args[0].path.id, (uint32_t)fe_local(u.prog, g, "x", 0));
  (void)buf;
  const tc_function *set = must(&u, "set");
  assert_non_null(fe_write_to(u.prog, set, TC_I_ASSIGN, "(*out)", 0));
  fe_free(&u);
}

static void test_lambdas(void **state) {
  (void)state;
  fe_unit u;
  lower_cxx("int after(int);\n"
            "int f(int k) {\n"
            "  int base = 1;\n"
            "  auto lam = [&](int v) { if (v) return base; return 2; };\n"
            "  auto never = [=]() { return base + k; };\n"
            "  (void)never;\n"
            "  int r = lam(k);\n"
            "  return after(r);\n"
            "}\n",
            &u);
  const tc_function *f = must(&u, "f");
  /* the lambda's return does not end f: after() is called */
  assert_int_equal(fe_count_calls(u.prog, f, "after"), 1);
  assert_int_equal(fe_count_calls(u.prog, f, "operator()"), 1); /* only `lam` is called */
  int n_ops = 0;
  for (uint32_t i = 0; i < u.prog->units[0].n_functions; i++)
    n_ops += strcmp(tc_str(u.prog, u.prog->units[0].functions[i].name), "operator()") == 0;
  assert_int_equal(n_ops, 2); /* both bodies lowered, each its own function */
  assert_int_equal(u.prog->units[0].stats.lambdas, 2);
  /* the by-reference capture holds base's address, the by-copy one its value */
  const tc_insn *byref = fe_write_to(u.prog, f, TC_I_ASSIGN, "lam.1.base", 0);
  assert_non_null(byref);
  assert_int_equal(byref->a.kind, TC_OPND_ADDR);
  const tc_insn *bycopy = fe_write_to(u.prog, f, TC_I_ASSIGN, "never.2.base", 0);
  assert_non_null(bycopy);
  assert_int_equal(bycopy->a.kind, TC_OPND_PATH);
  fe_free(&u);
}

static void test_templates_and_throw(void **state) {
  (void)state;
  fe_unit u;
  lower_cxx("template <int N> int sum(const int (&a)[N]) { int s = 0; for (int i = 0; i < N; i++) s += a[i]; return s; }\n"
            "template <typename T> T unused(T x) { return x + x; }\n"
            "void stop(int);\n"
            "int g(int k) { int a[3] = {1, 2, 3}; if (k) throw 1; stop(k); return sum(a); }\n",
            &u);
  const tc_function *s = must(&u, "sum");
  assert_true(strstr(tc_str(u.prog, s->usr), "sum<") != NULL); /* the instantiation's USR */
  /* N folded in the instantiation: i < 3 */
  int folded = 0;
  for (uint32_t b = 0; b < s->n_blocks; b++)
    for (uint32_t i = 0; i < s->blocks[b].n_insns; i++) {
      const tc_insn *in = &s->blocks[b].insns[i];
      if (in->kind == TC_I_BINOP && in->opc == TC_OPC_LT && in->b.kind == TC_OPND_INT &&
          in->b.ival == 3)
        folded = 1;
    }
  assert_true(folded);
  must(&u, "unused"); /* the pattern, never instantiated */
  assert_int_equal(u.prog->units[0].stats.instantiations, 1);
  assert_int_equal(u.prog->units[0].stats.patterns, 1);
  assert_int_equal(u.prog->units[0].stats.skipped_instantiated, 1);
  const tc_function *g = must(&u, "g");
  int unreachable = 0;
  for (uint32_t b = 0; b < g->n_blocks; b++) unreachable += g->blocks[b].term.kind == TC_T_UNREACHABLE;
  assert_true(unreachable >= 1); /* throw ends its path */
  fe_free(&u);
}

static void test_in_class_initializers_where_made(void **state) {
  (void)state;
  fe_unit u;
  /* P's implicit constructor runs its in-class initializers on the P made in Q::run: `dev` in
     w's initializer is that P's, not Q's */
  lower_cxx("#include <dt/dt.h>\n"
            "struct P { dt_device dev = dt_sim(0); dt_tensor *w = dt_zeros(dev, DT_FLOAT, 0, 0); };\n"
            "struct Q { dt_device dev; dt_tensor *run() { P p; return p.w; } };\n",
            &u);
  char buf[256];
  const tc_function *run = must(&u, "run");
  const tc_insn *z = fe_call(u.prog, run, "dt_zeros", 0);
  assert_non_null(z);
  const char *dev = fmt(&u, run, &z->args[0], buf, sizeof buf);
  assert_true(strncmp(dev, "p.", 2) == 0 && strstr(dev, ".dev") != NULL);
  fe_free(&u);
}

static void test_elements_made_in_place(void **state) {
  (void)state;
  fe_unit u;
  /* make_unique and emplace_back build their object from the arguments: the constructor is
     called with its default argument filled in, and emplace_back of a raw pointer into a
     vector of unique_ptr stores a unique_ptr holding that pointer */
  lower_cxx("#include <dt/dt.h>\n"
            "#include <memory>\n"
            "#include <vector>\n"
            "struct L { dt_device dev; L(int n, dt_device d = dt_cpu()) : dev(d) { (void)n; } };\n"
            "std::unique_ptr<L> one() { return std::make_unique<L>(3); }\n"
            "void many(std::vector<std::unique_ptr<L>> &v) { v.emplace_back(new L(2)); }\n"
            "struct E { virtual ~E() = default; };\n"
            "std::unique_ptr<E> none() { return std::make_unique<E>(); }\n",
            &u);
  char buf[256], held[300];
  const tc_function *one = must(&u, "one");
  const tc_insn *c = fe_call(u.prog, one, "L", 0);
  assert_non_null(c);
  assert_int_equal(c->n_args, 3); /* the object, n and the default device */
  assert_non_null(fe_call(u.prog, one, "dt_cpu", 0));
  const tc_function *many = must(&u, "many");
  const tc_insn *e = fe_call(u.prog, many, "std::vector::emplace_back", 0);
  assert_non_null(e);
  assert_int_equal(e->n_args, 2);
  assert_int_equal(e->args[1].kind, TC_OPND_ADDR);
  snprintf(held, sizeof held, "%s.@ptr", fmt(&u, many, &e->args[1], buf, sizeof buf));
  assert_non_null(fe_write_to(u.prog, many, TC_I_ASSIGN, held, 0));
  assert_non_null(fe_call(u.prog, must(&u, "none"), "operator new", 0)); /* no arguments at all */
  fe_free(&u);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_members_and_constructors),
    cmocka_unit_test(test_references),
    cmocka_unit_test(test_lambdas),
    cmocka_unit_test(test_templates_and_throw),
    cmocka_unit_test(test_in_class_initializers_where_made),
    cmocka_unit_test(test_elements_made_in_place),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
