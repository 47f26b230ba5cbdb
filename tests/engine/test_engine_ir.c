/* tests/engine/test_engine_ir.c — the engine on IR built by hand (no front end): the basic
 * verdicts (error, warning, silence on unknown values), the max_states option, and the budgets
 * that keep pathological programs fast — a function of 20,000 statements, a deep loop nest,
 * forty independent branches, recursion without progress — each still reaching its verdict —
 * and a memo key proven equal to the callee's previous one without walking the state again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "ir/ir.h"
#include "report/diag.h"

/* ------------------------------------------------------------------ a tiny IR builder */

typedef struct bld {
  tc_program *p;
  tc_unit *u;
  tc_function *fn;
  tc_sym file;
  uint32_t cap_blocks, cap_insns;
  uint32_t cur;  /* current block */
  uint32_t line; /* next source line */
} bld;

static tc_type ty_device(bld *b) {
  tc_type t = {.cls = TC_TY_RECORD, .name = tc_intern(b->p, "dt_device"),
               .record_name = tc_intern(b->p, "dt_device")};
  return t;
}

static tc_type ty_tensor(bld *b) {
  tc_type t = {.cls = TC_TY_POINTER, .name = tc_intern(b->p, "dt_tensor *"),
               .pointee_name = tc_intern(b->p, "dt_tensor"), .ptr_depth = 1};
  return t;
}

static tc_type ty_int(void) {
  tc_type t = {.cls = TC_TY_INT};
  return t;
}

static tc_function *begin_fn(bld *b, const char *name, uint32_t n_params, uint32_t n_locals,
                             uint32_t cap_blocks, uint32_t cap_insns) {
  tc_function *fn = &b->u->functions[b->u->n_functions++];
  memset(fn, 0, sizeof *fn);
  fn->name = tc_intern(b->p, name);
  char usr[128];
  snprintf(usr, sizeof usr, "c:@F@%s", name);
  fn->usr = tc_intern(b->p, usr);
  fn->loc.file = b->file;
  fn->n_params = n_params;
  fn->params = tc_arena_alloc(b->p, (n_params ? n_params : 1) * sizeof *fn->params);
  fn->n_locals = n_locals;
  fn->locals = tc_arena_alloc(b->p, (n_locals ? n_locals : 1) * sizeof *fn->locals);
  fn->blocks = tc_arena_alloc(b->p, cap_blocks * sizeof *fn->blocks);
  fn->n_blocks = 1;
  b->fn = fn;
  b->cap_blocks = cap_blocks;
  b->cap_insns = cap_insns;
  b->cur = 0;
  fn->blocks[0].insns = tc_arena_alloc(b->p, cap_insns * sizeof(tc_insn));
  return fn;
}

static uint32_t new_block(bld *b) {
  assert_true(b->fn->n_blocks < b->cap_blocks);
  uint32_t id = b->fn->n_blocks++;
  b->fn->blocks[id].insns = tc_arena_alloc(b->p, b->cap_insns * sizeof(tc_insn));
  return id;
}

static tc_path local(bld *b, uint32_t id) {
  tc_path p = {TC_ROOT_LOCAL, id, 0, NULL, b->fn->locals[id].name};
  return p;
}

static tc_path param(bld *b, uint32_t id) {
  tc_path p = {TC_ROOT_PARAM, id, 0, NULL, b->fn->params[id].name};
  return p;
}

static tc_opnd o_path(tc_path p, tc_type t) {
  tc_opnd o;
  memset(&o, 0, sizeof o);
  o.kind = TC_OPND_PATH;
  o.path = p;
  o.type = t;
  return o;
}

static tc_opnd o_int(int64_t v) {
  tc_opnd o;
  memset(&o, 0, sizeof o);
  o.kind = TC_OPND_INT;
  o.ival = v;
  o.type = ty_int();
  return o;
}

static tc_insn *emit(bld *b, tc_insn_kind k) {
  tc_block *bl = &b->fn->blocks[b->cur];
  assert_true(bl->n_insns < b->cap_insns);
  tc_insn *in = &bl->insns[bl->n_insns++];
  memset(in, 0, sizeof *in);
  in->kind = k;
  in->loc.file = b->file;
  in->loc.line = b->line++;
  in->loc.col = 3;
  return in;
}

/* [dst :=] name(args...) */
static tc_insn *call(bld *b, const tc_path *dst, tc_type dst_type, const char *name, int n, ...) {
  tc_insn *in = emit(b, TC_I_CALL);
  if (dst) {
    in->has_dst = 1;
    in->dst = *dst;
    in->dst_type = dst_type;
  }
  in->callee.name = tc_intern(b->p, name);
  char usr[128];
  snprintf(usr, sizeof usr, "c:@F@%s", name);
  in->callee.usr = tc_intern(b->p, usr);
  in->n_args = (uint32_t)n;
  in->args = tc_arena_alloc(b->p, (n ? (size_t)n : 1) * sizeof(tc_opnd));
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) in->args[i] = va_arg(ap, tc_opnd);
  va_end(ap);
  return in;
}

static void assign(bld *b, tc_path dst, tc_type t, tc_opnd a) {
  tc_insn *in = emit(b, TC_I_ASSIGN);
  in->has_dst = 1;
  in->dst = dst;
  in->dst_type = t;
  in->a = a;
}

static void term_goto(bld *b, uint32_t to) {
  tc_term *t = &b->fn->blocks[b->cur].term;
  t->kind = TC_T_GOTO;
  t->n_succ = 1;
  t->succ = tc_arena_alloc(b->p, sizeof(uint32_t));
  t->succ[0] = to;
}

static void term_branch(bld *b, tc_opnd cond, uint32_t yes, uint32_t no) {
  tc_term *t = &b->fn->blocks[b->cur].term;
  t->kind = TC_T_BRANCH;
  t->cond = cond;
  t->n_succ = 2;
  t->succ = tc_arena_alloc(b->p, 2 * sizeof(uint32_t));
  t->succ[0] = yes;
  t->succ[1] = no;
}

static void term_return(bld *b) { b->fn->blocks[b->cur].term.kind = TC_T_RETURN; }

static void name_local(bld *b, uint32_t id, const char *name, tc_type t) {
  b->fn->locals[id].name = tc_intern(b->p, name);
  b->fn->locals[id].type = t;
}

static void start(bld *b, uint32_t n_functions) {
  memset(b, 0, sizeof *b);
  b->p = tc_program_new();
  assert_non_null(b->p);
  b->file = tc_intern(b->p, "/virtual/hand.c");
  b->u = tc_program_add_unit(b->p, b->file);
  b->u->functions = tc_arena_alloc(b->p, n_functions * sizeof(tc_function));
  b->line = 1;
}

/* Analyzes b's program; returns the report (caller frees); stats filled when not NULL. */
static tc_report analyze_stats(bld *b, unsigned max_states, tc_engine_stats *stats) {
  char err[512];
  const char *rp = TC_DEFAULT_RULES_BUILD;
  tc_rules *rules = tc_rules_load(&rp, 1, err, sizeof err);
  if (!rules) fail_msg("%s", err);
  tc_engine_opts o;
  memset(&o, 0, sizeof o);
  o.max_states = max_states;
  o.stats = stats;
  tc_report r;
  tc_report_init(&r);
  assert_int_equal(tc_engine_analyze(b->p, rules, &o, &r), 0);
  tc_rules_free(rules);
  return r;
}

static tc_report analyze(bld *b, unsigned max_states) { return analyze_stats(b, max_states, NULL); }

static const tc_diag *find_diag(const tc_report *r, unsigned line, const char *rule) {
  for (size_t i = 0; i < r->n_diags; i++)
    if (r->diags[i].loc.line == line && strcmp(r->diags[i].rule_id, rule) == 0)
      return &r->diags[i];
  return NULL;
}

/* dev := dt_sim(ordinal); t := dt_zeros(dev, FLOAT, 1, 0) — returns the line of the zeros. */
static unsigned make_tensor(bld *b, uint32_t dev_local, uint32_t t_local, int ordinal) {
  tc_path dev = local(b, dev_local), t = local(b, t_local);
  if (ordinal < 0)
    call(b, &dev, ty_device(b), "dt_cpu", 0);
  else
    call(b, &dev, ty_device(b), "dt_sim", 1, o_int(ordinal));
  unsigned line = b->line;
  call(b, &t, ty_tensor(b), "dt_zeros", 4, o_path(dev, ty_device(b)), o_int(1), o_int(1), o_int(0));
  return line;
}

/* ------------------------------------------------------------------ verdicts */

/* main(argc): a = sim:0; b = flag ? sim:1 : sim:0; dt_add(a, a) clean; dt_add(a, b) warning;
   c = cpu; dt_add(a, c) error. */
static void test_levels(void **state) {
  (void)state;
  bld b;
  start(&b, 1);
  begin_fn(&b, "main", 1, 6, 8, 16);
  b.fn->params[0].name = tc_intern(b.p, "argc");
  b.fn->params[0].type = ty_int();
  name_local(&b, 0, "d0", ty_device(&b));
  name_local(&b, 1, "a", ty_tensor(&b));
  name_local(&b, 2, "d1", ty_device(&b));
  name_local(&b, 3, "bt", ty_tensor(&b));
  name_local(&b, 4, "d2", ty_device(&b));
  name_local(&b, 5, "c", ty_tensor(&b));
  make_tensor(&b, 0, 1, 0);
  uint32_t yes = new_block(&b), no = new_block(&b), join = new_block(&b);
  term_branch(&b, o_path(param(&b, 0), ty_int()), yes, no);
  b.cur = yes;
  make_tensor(&b, 2, 3, 1);
  term_goto(&b, join);
  b.cur = no;
  make_tensor(&b, 2, 3, 0);
  term_goto(&b, join);
  b.cur = join;
  tc_path a = local(&b, 1), bt = local(&b, 3), c = local(&b, 5);
  unsigned l_clean = b.line;
  call(&b, NULL, ty_int(), "dt_add", 2, o_path(a, ty_tensor(&b)), o_path(a, ty_tensor(&b)));
  unsigned l_warn = b.line;
  call(&b, NULL, ty_int(), "dt_add", 2, o_path(a, ty_tensor(&b)), o_path(bt, ty_tensor(&b)));
  make_tensor(&b, 4, 5, -1);
  unsigned l_err = b.line;
  call(&b, NULL, ty_int(), "dt_add", 2, o_path(a, ty_tensor(&b)), o_path(c, ty_tensor(&b)));
  term_return(&b);
  tc_report r = analyze(&b, 0);
  assert_int_equal(r.n_diags, 2);
  assert_null(find_diag(&r, l_clean, "device-mismatch"));
  const tc_diag *w = find_diag(&r, l_warn, "device-mismatch");
  assert_non_null(w);
  assert_int_equal(w->level, TC_LEVEL_WARNING);
  const tc_diag *e = find_diag(&r, l_err, "backend-mismatch");
  assert_non_null(e);
  assert_int_equal(e->level, TC_LEVEL_ERROR);
  assert_non_null(strstr(e->message, "dt_add"));
  assert_non_null(strstr(e->message, "sim:0"));
  assert_non_null(strstr(e->message, "cpu"));
  assert_true(e->n_notes >= 2); /* where each tag came from */
  tc_report_free(&r);
  tc_program_free(b.p);
}

/* With one state per program point the correlation of a run-time choice is lost: the analyzer
   must then stay silent rather than guess. */
static void test_max_states_one_is_silent(void **state) {
  (void)state;
  bld b;
  start(&b, 1);
  begin_fn(&b, "main", 1, 4, 8, 16);
  b.fn->params[0].name = tc_intern(b.p, "argc");
  name_local(&b, 0, "dev", ty_device(&b));
  name_local(&b, 1, "x", ty_tensor(&b));
  name_local(&b, 2, "y", ty_tensor(&b));
  uint32_t yes = new_block(&b), no = new_block(&b), join = new_block(&b);
  term_branch(&b, o_path(param(&b, 0), ty_int()), yes, no);
  tc_path dev = local(&b, 0), x = local(&b, 1), y = local(&b, 2);
  b.cur = yes;
  call(&b, &dev, ty_device(&b), "dt_sim", 1, o_int(1));
  term_goto(&b, join);
  b.cur = no;
  call(&b, &dev, ty_device(&b), "dt_cpu", 0);
  term_goto(&b, join);
  b.cur = join;
  call(&b, &x, ty_tensor(&b), "dt_zeros", 4, o_path(dev, ty_device(&b)), o_int(1), o_int(1), o_int(0));
  call(&b, &y, ty_tensor(&b), "dt_ones", 4, o_path(dev, ty_device(&b)), o_int(1), o_int(1), o_int(0));
  call(&b, NULL, ty_int(), "dt_add", 2, o_path(x, ty_tensor(&b)), o_path(y, ty_tensor(&b)));
  term_return(&b);
  for (unsigned ms = 1; ms <= 16; ms *= 16) {
    tc_report r = analyze(&b, ms);
    assert_int_equal(r.n_diags, 0);
    tc_report_free(&r);
  }
  tc_program_free(b.p);
}

/* ------------------------------------------------------------------ budgets */

/* 20,000 statements in one function, with an undecided branch every 10: still exact. */
static void test_huge_function(void **state) {
  (void)state;
  enum { N = 20000 };
  bld b;
  start(&b, 1);
  begin_fn(&b, "main", 1, 4, N / 10 * 3 + 8, 16);
  b.fn->params[0].name = tc_intern(b.p, "flag");
  name_local(&b, 0, "dev", ty_device(&b));
  name_local(&b, 1, "x", ty_tensor(&b));
  name_local(&b, 2, "hd", ty_device(&b));
  name_local(&b, 3, "h", ty_tensor(&b));
  make_tensor(&b, 0, 1, 1);
  tc_path x = local(&b, 1), h = local(&b, 3);
  for (int i = 0; i < N; i++) {
    if (i % 10 == 9) {
      uint32_t yes = new_block(&b), join = new_block(&b);
      term_branch(&b, o_path(param(&b, 0), ty_int()), yes, join);
      b.cur = yes;
      call(&b, &x, ty_tensor(&b), "dt_relu", 1, o_path(x, ty_tensor(&b)));
      term_goto(&b, join);
      b.cur = join;
    } else {
      call(&b, &x, ty_tensor(&b), "dt_tanh", 1, o_path(x, ty_tensor(&b)));
    }
  }
  make_tensor(&b, 2, 3, -1);
  unsigned l_err = b.line;
  call(&b, NULL, ty_int(), "dt_add", 2, o_path(x, ty_tensor(&b)), o_path(h, ty_tensor(&b)));
  term_return(&b);
  tc_report r = analyze(&b, 0);
  const tc_diag *e = find_diag(&r, l_err, "backend-mismatch");
  assert_non_null(e);
  assert_int_equal(e->level, TC_LEVEL_ERROR);
  tc_report_free(&r);
  tc_program_free(b.p);
}

/* Twelve nested loops with unknown bounds around an accumulation on sim:1. */
static void test_deep_loop_nest(void **state) {
  (void)state;
  enum { DEPTH = 12 };
  bld b;
  start(&b, 1);
  begin_fn(&b, "main", 1, 6 + DEPTH, 4 * DEPTH + 8, 16);
  b.fn->params[0].name = tc_intern(b.p, "n");
  name_local(&b, 0, "dev", ty_device(&b));
  name_local(&b, 1, "acc", ty_tensor(&b));
  name_local(&b, 2, "wd", ty_device(&b));
  name_local(&b, 3, "w", ty_tensor(&b));
  name_local(&b, 4, "hd", ty_device(&b));
  name_local(&b, 5, "h", ty_tensor(&b));
  for (int k = 0; k < DEPTH; k++) {
    char nm[16];
    snprintf(nm, sizeof nm, "i%d", k);
    name_local(&b, 6 + (uint32_t)k, nm, ty_int());
  }
  make_tensor(&b, 0, 1, 1);
  make_tensor(&b, 2, 3, 1);
  uint32_t heads[DEPTH], exits[DEPTH];
  for (int k = 0; k < DEPTH; k++) {
    tc_path i = local(&b, 6 + (uint32_t)k);
    assign(&b, i, ty_int(), o_int(0));
    heads[k] = new_block(&b);
    term_goto(&b, heads[k]);
    b.cur = heads[k];
    uint32_t body = new_block(&b);
    exits[k] = new_block(&b);
    tc_insn *cmp = emit(&b, TC_I_BINOP);
    cmp->has_dst = 1;
    cmp->dst = (tc_path){TC_ROOT_TEMP, (uint32_t)k, 0, NULL, 0};
    cmp->dst_type = ty_int();
    cmp->opc = TC_OPC_LT;
    cmp->a = o_path(i, ty_int());
    cmp->b = o_path(param(&b, 0), ty_int());
    term_branch(&b, o_path(cmp->dst, ty_int()), body, exits[k]);
    b.cur = body;
  }
  b.fn->n_temps = DEPTH;
  tc_path acc = local(&b, 1), w = local(&b, 3), h = local(&b, 5);
  call(&b, &acc, ty_tensor(&b), "dt_add", 2, o_path(acc, ty_tensor(&b)), o_path(w, ty_tensor(&b)));
  for (int k = DEPTH - 1; k >= 0; k--) {
    tc_path i = local(&b, 6 + (uint32_t)k);
    tc_insn *inc = emit(&b, TC_I_BINOP);
    inc->has_dst = 1;
    inc->dst = i;
    inc->dst_type = ty_int();
    inc->opc = TC_OPC_ADD;
    inc->a = o_path(i, ty_int());
    inc->b = o_int(1);
    term_goto(&b, heads[k]);
    b.cur = exits[k];
  }
  make_tensor(&b, 4, 5, -1);
  unsigned l_err = b.line;
  call(&b, NULL, ty_int(), "dt_mul", 2, o_path(acc, ty_tensor(&b)), o_path(h, ty_tensor(&b)));
  term_return(&b);
  tc_report r = analyze(&b, 0);
  const tc_diag *e = find_diag(&r, l_err, "backend-mismatch");
  assert_non_null(e);
  assert_int_equal(e->level, TC_LEVEL_ERROR);
  tc_report_free(&r);
  tc_program_free(b.p);
}

/* Forty undecided branches, each picking the device of its own tensor: 2^40 paths. Only the
   last tensor is combined with one on sim:0: a warning, whatever budget merged the rest. */
static void test_path_explosion(void **state) {
  (void)state;
  enum { K = 40 };
  bld b;
  start(&b, 1);
  begin_fn(&b, "main", 1, 2 * K + 2, 3 * K + 8, 16);
  b.fn->params[0].name = tc_intern(b.p, "argc");
  for (uint32_t k = 0; k < K; k++) {
    char nm[16];
    snprintf(nm, sizeof nm, "d%u", k);
    name_local(&b, 2 * k, nm, ty_device(&b));
    snprintf(nm, sizeof nm, "t%u", k);
    name_local(&b, 2 * k + 1, nm, ty_tensor(&b));
  }
  name_local(&b, 2 * K, "rd", ty_device(&b));
  name_local(&b, 2 * K + 1, "r", ty_tensor(&b));
  for (uint32_t k = 0; k < K; k++) {
    uint32_t yes = new_block(&b), no = new_block(&b), join = new_block(&b);
    term_branch(&b, o_path(param(&b, 0), ty_int()), yes, no);
    b.cur = yes;
    make_tensor(&b, 2 * k, 2 * k + 1, 0);
    term_goto(&b, join);
    b.cur = no;
    make_tensor(&b, 2 * k, 2 * k + 1, 1);
    term_goto(&b, join);
    b.cur = join;
  }
  make_tensor(&b, 2 * K, 2 * K + 1, 0);
  unsigned l = b.line;
  call(&b, NULL, ty_int(), "dt_add", 2, o_path(local(&b, 2 * K - 1), ty_tensor(&b)),
       o_path(local(&b, 2 * K + 1), ty_tensor(&b)));
  term_return(&b);
  tc_report r = analyze(&b, 0);
  const tc_diag *w = find_diag(&r, l, "device-mismatch");
  assert_non_null(w);
  assert_int_equal(w->level, TC_LEVEL_WARNING);
  assert_int_equal(r.n_diags, 1);
  tc_report_free(&r);
  tc_program_free(b.p);
}

/* f(x) { return f(x); } and a pair that call each other: the analysis terminates and the
   unknown results produce nothing. */
static void test_recursion_terminates(void **state) {
  (void)state;
  bld b;
  start(&b, 3);
  const char *names[3] = {"f", "g", "main"};
  for (int k = 0; k < 2; k++) {
    begin_fn(&b, names[k], 1, 1, 2, 4);
    b.fn->params[0].name = tc_intern(b.p, "x");
    b.fn->params[0].type = ty_tensor(&b);
    b.fn->ret_type = ty_tensor(&b);
    name_local(&b, 0, "y", ty_tensor(&b));
    tc_path y = local(&b, 0);
    call(&b, &y, ty_tensor(&b), k == 0 ? "f" : "g", 1, o_path(param(&b, 0), ty_tensor(&b)));
    if (k == 1) call(&b, &y, ty_tensor(&b), "f", 1, o_path(y, ty_tensor(&b)));
    b.fn->blocks[0].term.kind = TC_T_RETURN;
    b.fn->blocks[0].term.cond = o_path(y, ty_tensor(&b));
  }
  begin_fn(&b, "main", 0, 4, 2, 8);
  name_local(&b, 0, "d", ty_device(&b));
  name_local(&b, 1, "t", ty_tensor(&b));
  name_local(&b, 2, "u", ty_tensor(&b));
  make_tensor(&b, 0, 1, 1);
  tc_path t = local(&b, 1), u = local(&b, 2);
  call(&b, &u, ty_tensor(&b), "g", 1, o_path(t, ty_tensor(&b)));
  call(&b, NULL, ty_int(), "dt_add", 2, o_path(t, ty_tensor(&b)), o_path(u, ty_tensor(&b)));
  term_return(&b);
  tc_report r = analyze(&b, 0);
  assert_int_equal(r.n_diags, 0);
  tc_report_free(&r);
  tc_program_free(b.p);
}

/* probe(1); probe(1); probe(2): the second call's entry differs from the first's only where
   the callee cannot see (nothing), so its memo key is the first's without walking the state
   again; the third's parameter differs, so its key is walked. */
static void test_memo_key_reused(void **state) {
  (void)state;
  bld b;
  start(&b, 2);
  begin_fn(&b, "probe", 1, 1, 1, 4);
  b.fn->params[0].name = tc_intern(b.p, "n");
  b.fn->params[0].type = ty_int();
  name_local(&b, 0, "d", ty_device(&b));
  tc_path d = local(&b, 0);
  call(&b, &d, ty_device(&b), "dt_sim", 1, o_path(param(&b, 0), ty_int()));
  term_return(&b);
  begin_fn(&b, "main", 0, 0, 1, 4);
  call(&b, NULL, ty_int(), "probe", 1, o_int(1));
  call(&b, NULL, ty_int(), "probe", 1, o_int(1));
  call(&b, NULL, ty_int(), "probe", 1, o_int(2));
  term_return(&b);
  tc_engine_stats st;
  memset(&st, 0, sizeof st);
  tc_report r = analyze_stats(&b, 0, &st);
  assert_int_equal(r.n_diags, 0);
  assert_int_equal(st.keys_reused, 1);
  assert_int_equal(st.keys_walked, 2);
  tc_report_free(&r);
  tc_program_free(b.p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_levels),
      cmocka_unit_test(test_max_states_one_is_silent),
      cmocka_unit_test(test_huge_function),
      cmocka_unit_test(test_deep_loop_nest),
      cmocka_unit_test(test_path_explosion),
      cmocka_unit_test(test_recursion_terminates),
      cmocka_unit_test(test_memo_key_reused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
