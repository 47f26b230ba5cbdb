/* analyzer/src/engine/index_split.c — one state per element when one unknown index picks
 * from several arrays. `dev[s]` and `table[s]` with s unknown are each "one of the elements",
 * and read apart they are unrelated: a tensor made on dev[s] and multiplied with table[s] would
 * seem to be on either device of either. When a function indexes two different arrays with one
 * variable (a shard number, a layer's stage), an instruction that reads through it at an index
 * this path does not know, into an array whose elements were stored one by one, runs once per
 * element, the variable set to that index: what the rest of the block computes from the arrays
 * is exact for each element, as it would be for a known index. The states join where the
 * budget says (a block's end, past max_states). */
#include <stdlib.h>

#include "engine/eng.h"

typedef struct index_use {
  tc_root_kind root;
  uint32_t id;
  const tc_path *path; /* the first path that indexes with it, and where */
  uint32_t at;
  int shared; /* another path indexes a different array with it */
  uint32_t writes; /* assignments to the variable */
} index_use;

typedef struct use_list {
  index_use *items;
  size_t n, cap;
} use_list;

/* The arrays of two paths before their index elements (a at ia, b at ib) are the same place. */
static int same_array(const tc_path *a, uint32_t ia, const tc_path *b, uint32_t ib) {
  if (a->root != b->root || a->id != b->id || ia != ib) return 0;
  for (uint32_t i = 0; i < ia; i++) {
    const tc_elem *x = &a->elems[i], *y = &b->elems[i];
    if (x->kind != y->kind) return 0;
    if (x->kind == TC_ELEM_FIELD && x->field != y->field) return 0;
    if (x->kind == TC_ELEM_INDEX && x->index != y->index) return 0;
    if (x->kind == TC_ELEM_INDEX_ANY &&
        (x->index_root != y->index_root || x->index_id != y->index_id))
      return 0;
  }
  return 1;
}

static int note_path(use_list *l, const tc_path *p) {
  for (uint32_t i = 0; i < p->n_elems; i++) {
    const tc_elem *el = &p->elems[i];
    if (el->kind != TC_ELEM_INDEX_ANY || !el->index_root) continue;
    index_use *u = NULL;
    for (size_t k = 0; k < l->n && !u; k++)
      if (l->items[k].root == el->index_root && l->items[k].id == el->index_id) u = &l->items[k];
    if (u) {
      if (!same_array(u->path, u->at, p, i)) u->shared = 1;
      continue;
    }
    u = VEC_PUSH(l->items, l->n, l->cap);
    if (!u) return -1;
    *u = (index_use){el->index_root, el->index_id, p, i, 0, 0};
  }
  return 0;
}

static int note_opnd(use_list *l, const tc_opnd *o) {
  return (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) ? note_path(l, &o->path) : 0;
}

int index_split_prepare(tc_eng *e, fninfo *fi) {
  use_list l = {0};
  int bad = 0;
  const tc_function *fn = fi->fn;
  for (uint32_t b = 0; b < fn->n_blocks && !bad; b++) {
    const tc_block *bl = &fn->blocks[b];
    for (uint32_t i = 0; i < bl->n_insns && !bad; i++) {
      const tc_insn *in = &bl->insns[i];
      if (in->has_dst) bad |= note_path(&l, &in->dst);
      bad |= note_opnd(&l, &in->a) | note_opnd(&l, &in->b);
      for (uint32_t a = 0; a < in->n_args; a++) bad |= note_opnd(&l, &in->args[a]);
    }
  }
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    const tc_block *bl = &fn->blocks[b];
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      const tc_insn *in = &bl->insns[i];
      for (size_t k = 0; k < l.n && in->has_dst; k++)
        if (l.items[k].root == in->dst.root && l.items[k].id == in->dst.id) l.items[k].writes++;
    }
  }
  /* a variable assigned once (a shard number computed from the input) or never (a
     parameter): a loop's counter, which a split would unroll, is left alone */
  for (size_t k = 0; k < l.n && !bad; k++) {
    if (!l.items[k].shared || l.items[k].writes > 1) continue;
    index_var *v = VEC_PUSH(fi->split_vars, fi->n_split_vars, fi->cap_split_vars);
    if (!v) bad = 1;
    else *v = (index_var){l.items[k].root, l.items[k].id};
  }
  free(l.items);
  if (bad) e->oom = 1;
  return bad ? -1 : 0;
}

static int is_split_var(const fninfo *fi, const tc_elem *el) {
  for (size_t i = 0; i < fi->n_split_vars; i++)
    if (fi->split_vars[i].root == el->index_root && fi->split_vars[i].id == el->index_id) return 1;
  return 0;
}

/* Whether an index with value v may be k. */
static int may_be(const aval *v, int64_t k) {
  if (v->k == AV_INT) return v->i == k;
  if (v->k == AV_NE) return v->i != k;
  if (v->k == AV_RANGE) return v->i <= k && k <= v->hi;
  return 1;
}

/* The split p's element at i asks for: the index variable's place and the elements' indices. */
static int split_at(frame *f, astate *s, const tc_path *p, uint32_t i, index_split *out) {
  tc_eng *e = f->e;
  const tc_elem *el = &p->elems[i];
  tc_path var = {el->index_root, el->index_id, 0, NULL, 0};
  uint32_t vl = mem_root_loc(f, &var);
  if (!vl) return 0;
  aval v = mem_eff(e, s, vl);
  if (v.k == AV_INT || (!av_intlike(&v) && v.k != AV_RANGE)) return 0;
  tc_path arr = *p;
  arr.n_elems = i;
  targets t;
  f->addr_only = 1;
  int found = mem_resolve(f, s, &arr, &t);
  f->addr_only = 0;
  if (!found || t.n != 1 || t.overflow) return 0;
  uint32_t a = t.loc[0];
  uint32_t any = loc_find_child(e, a, LK_ANY, 0, 0);
  if (any && mem_subtree_has_values(e, s, any)) return 0; /* stored through unknown indices */
  out->var = vl;
  out->n = 0;
  out->prov = v.prov;
  for (uint32_t c = e->locs[a].first_child; c; c = e->locs[c].next_sibling) {
    const eloc *cl = &e->locs[c];
    if (cl->kind != LK_INDEX || !mem_subtree_has_values(e, s, c) || !may_be(&v, cl->b)) continue;
    if (out->n == INDEX_SPLIT_MAX) return 0;
    out->k[out->n++] = cl->b;
  }
  return out->n >= 2;
}

static int split_path(frame *f, astate *s, const tc_path *p, index_split *out) {
  for (uint32_t i = 0; i < p->n_elems; i++) {
    const tc_elem *el = &p->elems[i];
    if (el->kind == TC_ELEM_INDEX_ANY && el->index_root && is_split_var(f->fi, el) &&
        split_at(f, s, p, i, out))
      return 1;
  }
  return 0;
}

static int split_opnd(frame *f, astate *s, const tc_opnd *o, index_split *out) {
  return (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) && split_path(f, s, &o->path, out);
}

int index_split_find(frame *f, astate *s, const tc_insn *in, index_split *out) {
  if (!f->fi->n_split_vars) return 0;
  if (split_opnd(f, s, &in->a, out) || split_opnd(f, s, &in->b, out)) return 1;
  for (uint32_t a = 0; a < in->n_args; a++)
    if (split_opnd(f, s, &in->args[a], out)) return 1;
  return in->has_dst && split_path(f, s, &in->dst, out);
}
