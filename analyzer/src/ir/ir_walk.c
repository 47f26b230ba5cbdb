/* analyzer/src/ir/ir_walk.c — visits every tc_sym stored in a unit's IR, so that merging
 * programs can rewrite them into the destination's string table. Any new tc_sym field added to
 * ir.h must be visited here. */
#include "ir/ir_walk.h"

static void walk_loc(tc_srcloc *l, tc_sym_fn fn, void *ctx) { fn(&l->file, ctx); }

static void walk_type(tc_type *t, tc_sym_fn fn, void *ctx) {
  fn(&t->name, ctx);
  fn(&t->pointee_name, ctx);
  fn(&t->record_name, ctx);
  fn(&t->base_record, ctx);
}

static void walk_path(tc_path *p, tc_sym_fn fn, void *ctx) {
  if (p->root == TC_ROOT_GLOBAL) fn(&p->id, ctx);
  for (uint32_t i = 0; i < p->n_elems; i++)
    if (p->elems[i].kind == TC_ELEM_FIELD)
      fn(&p->elems[i].field, ctx);
    else if (p->elems[i].kind == TC_ELEM_INDEX_ANY && p->elems[i].index_root == TC_ROOT_GLOBAL)
      fn(&p->elems[i].index_id, ctx); /* a global index variable is named by its USR */
  fn(&p->spelling, ctx);
}

static void walk_opnd(tc_opnd *o, tc_sym_fn fn, void *ctx) {
  if (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) walk_path(&o->path, fn, ctx);
  fn(&o->sym, ctx);
  walk_type(&o->type, fn, ctx);
}

static void walk_var(tc_var *v, tc_sym_fn fn, void *ctx) {
  fn(&v->name, ctx);
  walk_type(&v->type, fn, ctx);
  walk_loc(&v->loc, fn, ctx);
  fn(&v->usr, ctx);
}

static void walk_function(tc_function *f, tc_sym_fn fn, void *ctx) {
  fn(&f->name, ctx);
  fn(&f->usr, ctx);
  walk_loc(&f->loc, fn, ctx);
  walk_type(&f->ret_type, fn, ctx);
  for (uint32_t i = 0; i < f->n_params; i++) walk_var(&f->params[i], fn, ctx);
  for (uint32_t i = 0; i < f->n_locals; i++) walk_var(&f->locals[i], fn, ctx);
  for (uint32_t b = 0; b < f->n_blocks; b++) {
    tc_block *bl = &f->blocks[b];
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      tc_insn *in = &bl->insns[i];
      walk_loc(&in->loc, fn, ctx);
      if (in->has_dst) walk_path(&in->dst, fn, ctx);
      walk_type(&in->dst_type, fn, ctx);
      walk_opnd(&in->a, fn, ctx);
      walk_opnd(&in->b, fn, ctx);
      fn(&in->callee.name, ctx);
      fn(&in->callee.usr, ctx);
      walk_opnd(&in->callee.target, fn, ctx);
      for (uint32_t k = 0; k < in->n_args; k++) walk_opnd(&in->args[k], fn, ctx);
      for (uint32_t k = 0; in->arg_locs && k < in->n_args; k++)
        if (in->arg_locs[k].file) walk_loc(&in->arg_locs[k], fn, ctx); /* zero: unknown */
      for (uint32_t k = 0; in->arg_base_locs && k < in->n_args; k++)
        if (in->arg_base_locs[k].file) walk_loc(&in->arg_base_locs[k], fn, ctx);
    }
    walk_loc(&bl->term.loc, fn, ctx);
    walk_opnd(&bl->term.cond, fn, ctx);
  }
}

void tc_ir_walk_unit_syms(tc_unit *u, tc_sym_fn fn, void *ctx) {
  fn(&u->file, ctx);
  for (uint32_t i = 0; i < u->n_functions; i++) walk_function(&u->functions[i], fn, ctx);
  for (uint32_t i = 0; i < u->n_globals; i++) {
    tc_global *g = &u->globals[i];
    fn(&g->name, ctx);
    fn(&g->usr, ctx);
    walk_type(&g->type, fn, ctx);
    walk_loc(&g->loc, fn, ctx);
  }
  if (u->global_init) walk_function(u->global_init, fn, ctx);
}
