/* analyzer/src/frontend/lower_fn.c — the function builder: blocks under construction, emitting
 * instructions and terminators, temporaries, paths and variables, and copying the finished
 * function into the program's arena. */
#include "frontend/lower_internal.h"

#include <stdlib.h>
#include <string.h>

lw_fn *lw_fn_new(lw_unit *u) {
  lw_fn *fn = calloc(1, sizeof *fn);
  if (!fn) {
    u->oom = 1;
    return NULL;
  }
  fn->u = u;
  fn->decl = clang_getNullCursor();
  fn->cur = lw_new_block(fn);
  if (fn->n_blocks == 0) { /* out of memory: there must be an entry block */
    free(fn);
    return NULL;
  }
  return fn;
}

void lw_fn_free(lw_fn *fn) {
  if (!fn) return;
  for (uint32_t i = 0; i < fn->n_blocks; i++) free(fn->blocks[i].insns);
  free(fn->blocks);
  free(fn->locals);
  lw_cmap_free(&fn->vars);
  free(fn->jumps);
  free(fn->dying);
  for (uint32_t i = 0; i < fn->n_switches; i++) free(fn->switches[i].cases);
  free(fn->switches);
  free(fn->labels);
  free(fn);
}

uint32_t lw_new_block(lw_fn *fn) {
  fn->blocks = lw_grow(fn->u, fn->blocks, &fn->cap_blocks, fn->n_blocks + 1, sizeof *fn->blocks);
  if (fn->n_blocks >= fn->cap_blocks) return 0; /* out of memory: any valid block will do */
  lw_block *b = &fn->blocks[fn->n_blocks];
  memset(b, 0, sizeof *b);
  return fn->n_blocks++;
}

static lw_block *cur_block(lw_fn *fn) {
  if (fn->cur == LW_NONE) fn->cur = lw_new_block(fn); /* unreachable code gets its own block */
  return &fn->blocks[fn->cur];
}

void lw_set_cur(lw_fn *fn, uint32_t b) {
  if (fn->cur != LW_NONE && fn->cur != b && !fn->blocks[fn->cur].terminated)
    lw_goto(fn, b, (tc_srcloc){0});
  fn->cur = b;
}

tc_insn *lw_emit(lw_fn *fn, tc_insn_kind kind, tc_srcloc loc) {
  lw_block *b = cur_block(fn);
  b->insns = lw_grow(fn->u, b->insns, &b->cap, b->n + 1, sizeof *b->insns);
  tc_insn *in = b->n < b->cap ? &b->insns[b->n++] : &fn->no_insn;
  memset(in, 0, sizeof *in);
  in->kind = kind;
  in->loc = loc;
  return in;
}

static tc_term *start_term(lw_fn *fn, tc_term_kind kind, tc_srcloc loc) {
  lw_block *b = cur_block(fn);
  b->terminated = 1;
  memset(&b->term, 0, sizeof b->term);
  b->term.kind = kind;
  b->term.loc = loc;
  fn->cur = LW_NONE;
  return &b->term;
}

void lw_goto(lw_fn *fn, uint32_t target, tc_srcloc loc) {
  tc_term *t = start_term(fn, TC_T_GOTO, loc);
  t->succ = lw_alloc(fn->u, sizeof *t->succ);
  if (!t->succ) return;
  t->n_succ = 1;
  t->succ[0] = target;
}

/* The branch terminating the current block, or NULL when the condition is a constant (a
   goto) or both sides are one block. */
static tc_term *branch_term(lw_fn *fn, tc_opnd cond, uint32_t tb, uint32_t fb, tc_srcloc loc) {
  if (cond.kind == TC_OPND_INT || cond.kind == TC_OPND_NULL) {
    lw_goto(fn, cond.kind == TC_OPND_INT && cond.ival != 0 ? tb : fb, loc);
    return NULL;
  }
  if (tb == fb) {
    lw_goto(fn, tb, loc);
    return NULL;
  }
  tc_term *t = start_term(fn, TC_T_BRANCH, loc);
  t->cond = cond;
  t->succ = lw_alloc(fn->u, 2 * sizeof *t->succ);
  if (!t->succ) return NULL;
  t->n_succ = 2;
  t->succ[0] = tb;
  t->succ[1] = fb;
  return t;
}

void lw_branch(lw_fn *fn, tc_opnd cond, uint32_t tb, uint32_t fb, tc_srcloc loc) {
  (void)branch_term(fn, cond, tb, fb, loc);
}

void lw_branch_if_known(lw_fn *fn, tc_opnd cond, uint32_t tb, uint32_t fb, tc_srcloc loc) {
  tc_term *t = branch_term(fn, cond, tb, fb, loc);
  if (t) t->only_when_known = 1;
}

void lw_terminate(lw_fn *fn, tc_term_kind kind, tc_opnd value, tc_srcloc loc) {
  tc_term *t = start_term(fn, kind, loc);
  t->cond = value;
}

tc_path lw_path_root(tc_root_kind root, uint32_t id) {
  tc_path p = {0};
  p.root = root;
  p.id = id;
  return p;
}

tc_path lw_temp(lw_fn *fn) { return lw_path_root(TC_ROOT_TEMP, fn->n_temps++); }

tc_path lw_path_extend(lw_fn *fn, const tc_path *base, tc_elem e) {
  tc_path p = *base;
  p.elems = lw_alloc(fn->u, (base->n_elems + 1) * sizeof *p.elems);
  if (!p.elems) return *base;
  if (base->n_elems) memcpy(p.elems, base->elems, base->n_elems * sizeof *p.elems);
  p.elems[p.n_elems++] = e;
  p.spelling = 0;
  return p;
}

tc_opnd lw_opnd_path(const tc_path *p, tc_type ty) {
  tc_opnd o = {0};
  o.kind = TC_OPND_PATH;
  o.path = *p;
  o.type = ty;
  return o;
}

tc_opnd lw_opnd_int(int64_t v, tc_type ty) {
  tc_opnd o = {0};
  o.kind = TC_OPND_INT;
  o.ival = v;
  o.type = ty;
  return o;
}

tc_opnd lw_opnd_unknown(tc_type ty) {
  tc_opnd o = {0};
  o.kind = TC_OPND_UNKNOWN;
  o.type = ty;
  return o;
}

int lw_opnd_is_havoc(const tc_opnd *o) { return o->kind == TC_OPND_UNKNOWN && !o->sym; }

tc_insn *lw_assign(lw_fn *fn, const tc_path *dst, CXType dst_type, tc_opnd value, tc_srcloc loc) {
  tc_insn *in = lw_emit(fn, lw_opnd_is_havoc(&value) ? TC_I_HAVOC : TC_I_ASSIGN, loc);
  in->has_dst = 1;
  in->dst = *dst;
  in->dst_type = lw_type(fn->u, dst_type);
  if (!lw_opnd_is_havoc(&value)) in->a = value;
  return in;
}

uint32_t lw_add_local(lw_fn *fn, CXCursor decl, int is_static, tc_sym usr) {
  fn->locals = lw_grow(fn->u, fn->locals, &fn->cap_locals, fn->n_locals + 1, sizeof *fn->locals);
  if (fn->n_locals >= fn->cap_locals) return 0; /* out of memory: the unit fails anyway */
  tc_var *v = &fn->locals[fn->n_locals];
  memset(v, 0, sizeof *v);
  v->name = lw_intern_cx(fn->u, clang_getCursorSpelling(decl));
  v->type = lw_type(fn->u, clang_getCursorType(decl));
  CXSourceLocation at = clang_getCursorLocation(decl); /* the name, not the declaration */
  v->loc = lw_loc_range(fn->u, clang_getRange(at, at));
  v->is_static = is_static;
  v->usr = usr;
  return fn->n_locals++;
}

/* ---- finishing: copy into the arena, every path with its own elems ---- */

static void copy_path(lw_unit *u, tc_path *p) {
  if (!p->n_elems) {
    p->elems = NULL;
    return;
  }
  tc_elem *e = lw_alloc(u, p->n_elems * sizeof *e);
  if (!e) {
    p->n_elems = 0;
    p->elems = NULL;
    return;
  }
  memcpy(e, p->elems, p->n_elems * sizeof *e);
  p->elems = e;
}

static void copy_opnd(lw_unit *u, tc_opnd *o) {
  if (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) copy_path(u, &o->path);
  else o->path = (tc_path){0};
}

void lw_fn_finish(lw_fn *fn, tc_function *out) {
  lw_unit *u = fn->u;
  if (u->oom) return; /* the unit fails: nothing to copy */
  if (fn->cur != LW_NONE && !fn->blocks[fn->cur].terminated) {
    tc_opnd none = {0};
    lw_terminate(fn, TC_T_RETURN, none, (tc_srcloc){0});
  }
  out->n_params = fn->n_params;
  out->params = fn->params;
  out->n_locals = fn->n_locals;
  out->locals = NULL;
  if (fn->n_locals) {
    out->locals = lw_alloc(u, fn->n_locals * sizeof *out->locals);
    if (!out->locals) return;
    memcpy(out->locals, fn->locals, fn->n_locals * sizeof *out->locals);
  }
  out->n_temps = fn->n_temps;
  out->n_blocks = fn->n_blocks;
  out->blocks = lw_alloc(u, fn->n_blocks * sizeof *out->blocks);
  if (!out->blocks) return;
  for (uint32_t bi = 0; bi < fn->n_blocks; bi++) {
    lw_block *b = &fn->blocks[bi];
    tc_block *ob = &out->blocks[bi];
    if (!b->terminated) { /* an empty block nothing jumps out of: make it return */
      b->term.kind = TC_T_RETURN;
      b->terminated = 1;
    }
    ob->n_insns = b->n;
    ob->insns = NULL;
    if (b->n) {
      ob->insns = lw_alloc(u, b->n * sizeof *ob->insns);
      if (!ob->insns) return;
      memcpy(ob->insns, b->insns, b->n * sizeof *ob->insns);
    }
    for (uint32_t i = 0; i < b->n; i++) {
      tc_insn *in = &ob->insns[i];
      if (in->has_dst) copy_path(u, &in->dst);
      else in->dst = (tc_path){0};
      copy_opnd(u, &in->a);
      copy_opnd(u, &in->b);
      copy_opnd(u, &in->callee.target);
      for (uint32_t k = 0; k < in->n_args; k++) copy_opnd(u, &in->args[k]); /* own array */
    }
    ob->term = b->term;
    copy_opnd(u, &ob->term.cond);
  }
}
