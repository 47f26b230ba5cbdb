/* analyzer/src/engine/mem.c — memory: turning IR places (root + .field / [i] / * elements) into
 * abstract locations, reading what they hold (with defaults inherited from enclosing objects:
 * zero-filled aggregates, unknown parameters, uninitialized locals), writing strongly or weakly
 * (array summaries, several possible places), copying struct values, and forgetting what an
 * unknown function could change. A dereference of tensor data is only noted (frame.touched):
 * the transfer function runs the check. */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

int mem_is_record_type(const tc_type *t) {
  return t->cls == TC_TY_RECORD || t->cls == TC_TY_ARRAY;
}

static aval root_default(const eloc *l) {
  switch ((loc_kind)l->kind) {
    case LK_LOCAL:
    case LK_TEMP:
    case LK_HEAP:
      return av_make(AV_BOT, 0);
    case LK_PARAM:
    case LK_GLOBAL:
    case LK_EXT:
    case LK_RET:
    case LK_NONE:
    case LK_FIELD:
    case LK_INDEX:
    case LK_ANY:
      return av_top();
  }
  return av_top();
}

aval mem_eff(tc_eng *e, const astate *s, uint32_t loc) {
  for (int guard = 0; loc && guard < 64; guard++) {
    const aval *v = st_get(&s->mem, loc);
    if (v) {
      if (v->k == AV_MULTI) return av_make(AV_BOT, 0);
      return *v;
    }
    const eloc *l = &e->locs[loc];
    if (l->kind == LK_INDEX) {
      uint32_t any = e->locs[l->parent].any_child;
      const aval *w = any ? st_get(&s->mem, any) : NULL;
      if (w) return *w;
    }
    if (!l->parent) return root_default(l);
    /* inherit from the enclosing object */
    const aval *pv = st_get(&s->mem, l->parent);
    if (pv) {
      switch ((av_kind)pv->k) {
        case AV_INT:
          return pv->i == 0 ? av_make(AV_INT, 0) : av_top();
        case AV_BOT:
        case AV_MULTI:
        case AV_ABSENT:
          return av_make(AV_BOT, 0);
        case AV_POISON:
          return *pv;
        case AV_TOP:
        case AV_NE:
        case AV_SYM:
        case AV_RANGE:
        case AV_ADDR:
        case AV_ADDRSET:
        case AV_FUNC:
        case AV_TENSOR:
        case AV_AVAIL:
        case AV_SETTEST:
        case AV_STR:
        case AV_DATAPTR:
          return av_top();
      }
    }
    loc = l->parent;
    if (e->locs[loc].kind == LK_INDEX) {
      /* the parent element may take its value from the array summary */
      uint32_t any = e->locs[e->locs[loc].parent].any_child;
      const aval *w = any ? st_get(&s->mem, any) : NULL;
      if (w && !st_get(&s->mem, loc)) {
        if (w->k == AV_INT && w->i == 0) return av_make(AV_INT, 0);
        if (w->k == AV_BOT) return av_make(AV_BOT, 0);
        return av_top();
      }
    }
  }
  return av_top();
}

uint32_t mem_root_loc(frame *f, const tc_path *p) {
  tc_eng *e = f->e;
  fninfo *fi = f->fi;
  switch (p->root) {
    case TC_ROOT_LOCAL:
      if (p->id < fi->fn->n_locals && fi->fn->locals[p->id].is_static)
        return loc_root(e, LK_GLOBAL, fi->fn->usr ? fi->fn->usr : fi->fn->name,
                        (int64_t)p->id + 1, fi->idx);
      return loc_root(e, LK_LOCAL, FRAME_KEY(fi->idx, f->inst), p->id, fi->idx);
    case TC_ROOT_PARAM:
      return loc_root(e, LK_PARAM, FRAME_KEY(fi->idx, f->inst), p->id, fi->idx);
    case TC_ROOT_TEMP:
      return loc_root(e, LK_TEMP, FRAME_KEY(fi->idx, f->inst), p->id, fi->idx);
    case TC_ROOT_GLOBAL:
      return loc_root(e, LK_GLOBAL, p->id, 0, fi->idx);
  }
  return 0;
}

static int is_heap_multi(tc_eng *e, const astate *s, uint32_t loc) {
  uint32_t r = e->locs[loc].root;
  if (e->locs[r].kind != LK_HEAP) return 0;
  const aval *v = st_get(&s->mem, r);
  return v && v->k == AV_MULTI;
}

/* Adds every element place of array a (its summary and each constant index) to t. */
static void add_elements(tc_eng *e, uint32_t a, targets *t) {
  uint32_t any = loc_child(e, a, LK_ANY, 0, 0);
  if (!any) {
    t->overflow = 1;
    return;
  }
  t->weak = 1;
  if (t->n >= MEM_MAX_TARGETS) {
    t->overflow = 1;
    return;
  }
  t->loc[t->n++] = any;
  for (uint32_t c = e->locs[a].first_child; c; c = e->locs[c].next_sibling) {
    if (e->locs[c].kind != LK_INDEX) continue;
    if (t->n >= MEM_MAX_TARGETS) {
      t->overflow = 1;
      return;
    }
    t->loc[t->n++] = c;
  }
}

static void add_target(targets *t, uint32_t loc) {
  if (!loc) {
    t->overflow = 1;
    return;
  }
  if (t->n >= MEM_MAX_TARGETS) {
    t->overflow = 1;
    return;
  }
  t->loc[t->n++] = loc;
}

/* The place *p denotes given p's value v held at `holder`; `next` is the element after the
   dereference (consumed when it indexes). Returns how many elements were consumed (0 or 1),
   or -1 when unresolvable. */
/* Adds the place (tgt, idx) designates, indexed by `next` when it is an index (returns 1 when
   it consumed it), to out; -1 when unresolvable. */
static int deref_target(tc_eng *e, uint32_t tgt, int64_t idx, const tc_elem *next, targets *out) {
  if (next && (next->kind == TC_ELEM_INDEX || next->kind == TC_ELEM_INDEX_ANY)) {
    if (next->kind == TC_ELEM_INDEX_ANY || idx == IDX_ANY) {
      add_elements(e, tgt, out);
    } else if (idx == IDX_NONE) {
      if (e->locs[tgt].is_array)
        add_target(out, loc_child(e, tgt, LK_INDEX, 0, next->index));
      else if (next->index == 0)
        add_target(out, tgt);
      else
        return -1;
    } else {
      add_target(out, loc_child(e, tgt, LK_INDEX, 0, idx + next->index));
    }
    return 1;
  }
  if (idx == IDX_NONE)
    add_target(out, tgt);
  else if (idx == IDX_ANY)
    add_elements(e, tgt, out);
  else
    add_target(out, loc_child(e, tgt, LK_INDEX, 0, idx));
  return 0;
}

/* The host dereferences tensor data: noted for the transfer function to check (memory judges
   nothing). */
static void note_touch(frame *f, const aval *ptr, tc_sym spelling) {
  host_touch *t = VEC_PUSH(f->touched, f->n_touched, f->cap_touched);
  if (!t) {
    f->e->oom = 1;
    return;
  }
  t->ptr = *ptr;
  t->spelling = spelling;
}

/* The places *p denotes given p's value held at `holder`; `next` is the element after the
   dereference (consumed when it indexes). Returns how many elements were consumed (0 or 1),
   or -1 when unresolvable. */
static int deref_one(frame *f, astate *s, uint32_t holder, int holder_strong, const tc_elem *next,
                     targets *out, tc_sym spelling) {
  tc_eng *e = f->e;
  aval v = mem_eff(e, s, holder);
  if (v.k == AV_DATAPTR) { /* the host touches a tensor's data: where is it? */
    if (!f->addr_only) note_touch(f, &v, spelling);
    return -1;
  }
  if (v.k == AV_TENSOR) { /* t->data, t->buffer: the fields the rules describe */
    uint32_t obj = api_tensor_object(f, s, holder, &v);
    if (!obj) return -1;
    add_target(out, obj);
    return 0;
  }
  ptset pts;
  av_targets(e, &v, &pts);
  if (!pts.n && (v.k == AV_TOP || v.k == AV_BOT || v.k == AV_SYM) && holder_strong) {
    /* an unknown pointer: stands for an object of its own from now on (a new one each time
       the pointer is found unknown again) */
    uint32_t tgt = loc_root(e, LK_EXT, holder, 0, f->fi->idx);
    if (!tgt) return -1;
    mem_clear_subtree(e, s, tgt);
    st_set(e, &s->mem, tgt, NULL);
    aval a = av_make(AV_ADDR, IDX_NONE);
    a.loc = tgt;
    mem_write(e, s, holder, &a, 0);
    av_targets(e, &a, &pts);
  }
  if (!pts.n) return -1;
  int consumed = 0;
  for (uint32_t i = 0; i < pts.n; i++) {
    int c = deref_target(e, pts.loc[i], pts.idx[i], next, out);
    if (c < 0) {
      if (pts.n == 1) return -1;
      continue;
    }
    consumed = c;
  }
  if (pts.n > 1) out->weak = 1;
  return consumed;
}

/* `a[i]` where this state knows i: the element `a[k]` (el rewritten as a constant index). */
static const tc_elem *known_index(frame *f, astate *s, const tc_elem *el, tc_elem *tmp) {
  if (!el || el->kind != TC_ELEM_INDEX_ANY || !el->index_root) return el;
  tc_path var = {el->index_root, el->index_id, 0, NULL, 0};
  uint32_t loc = mem_root_loc(f, &var);
  if (!loc) return el;
  aval v = mem_eff(f->e, s, loc);
  if (v.k != AV_INT || v.i < 0 || v.i > (int64_t)1 << 40) return el;
  *tmp = *el;
  tmp->kind = TC_ELEM_INDEX;
  tmp->index = v.i;
  return tmp;
}

int mem_resolve(frame *f, astate *s, const tc_path *p, targets *out) {
  tc_eng *e = f->e;
  memset(out, 0, sizeof *out);
  uint32_t root = mem_root_loc(f, p);
  if (!root) {
    out->overflow = 1;
    return 0;
  }
  out->loc[out->n++] = root;
  for (uint32_t i = 0; i < p->n_elems; i++) {
    tc_elem tmp, tmp2;
    const tc_elem *el = known_index(f, s, &p->elems[i], &tmp);
    targets next;
    memset(&next, 0, sizeof next);
    next.weak = out->weak;
    int consumed = 0, resolved = 0;
    for (int t = 0; t < out->n; t++) {
      uint32_t cur = out->loc[t];
      switch (el->kind) {
        case TC_ELEM_FIELD:
          add_target(&next, loc_child(e, cur, LK_FIELD, field_id_of_sym(e, el->field), 0));
          break;
        case TC_ELEM_INDEX:
          add_target(&next, loc_child(e, cur, LK_INDEX, 0, el->index));
          break;
        case TC_ELEM_INDEX_ANY:
          add_elements(e, cur, &next);
          break;
        case TC_ELEM_DEREF: {
          /* holders that hold no address (a NULL-filled summary) are skipped when others do */
          const tc_elem *nx =
              i + 1 < p->n_elems ? known_index(f, s, &p->elems[i + 1], &tmp2) : NULL;
          int c = deref_one(f, s, cur, out->n == 1 && !out->weak, nx, &next, p->spelling);
          if (c >= 0) {
            consumed = c;
            resolved++;
          }
          if (out->n > 1) next.weak = 1;
          break;
        }
      }
    }
    if (el->kind == TC_ELEM_DEREF && !resolved) next.overflow = 1;
    i += (uint32_t)consumed;
    *out = next;
    if (out->overflow || out->n == 0) {
      out->overflow = 1;
      return 0;
    }
  }
  if (out->n == 1 && (e->locs[out->loc[0]].summarized || is_heap_multi(e, s, out->loc[0])))
    out->weak = 1;
  return out->n;
}

static int has_value(const tc_eng *e, const astate *s, uint32_t loc, int whole) {
  return whole ? mem_subtree_has_values(e, s, loc) : st_get(&s->mem, loc) != NULL;
}

/* The place `up` levels above loc (0 when there is none). */
static uint32_t ancestor(const tc_eng *e, uint32_t loc, uint32_t up) {
  while (loc && up--) loc = e->locs[loc].parent;
  return loc;
}

int mem_skip_summary(const tc_eng *e, const astate *s, const targets *t, int i, int whole) {
  uint32_t l = t->loc[i];
  if (has_value(e, s, l, whole)) return 0;
  /* the summary at or above l (a[*] of a[*].dev), nothing stored on the way to it */
  uint32_t any = l, up = 0;
  while (any && e->locs[any].kind != LK_ANY) {
    if (any != l && st_get(&s->mem, any)) return 0;
    any = e->locs[any].parent;
    up++;
  }
  if (!any || st_get(&s->mem, any)) return 0;
  /* another target is the same place in an element stored one by one (a[0].dev) */
  for (int k = 0; k < t->n; k++) {
    uint32_t el = k != i ? ancestor(e, t->loc[k], up) : 0;
    if (el && e->locs[el].kind == LK_INDEX && e->locs[el].parent == e->locs[any].parent &&
        has_value(e, s, t->loc[k], whole))
      return 1;
  }
  return 0;
}

aval mem_read_targets(tc_eng *e, const astate *s, const targets *t) {
  if (t->overflow || t->n == 0) return av_top();
  int have = 0;
  aval r = av_top();
  for (int i = 0; i < t->n; i++) {
    if (t->n > 1 && mem_skip_summary(e, s, t, i, 0)) continue;
    aval v = mem_eff(e, s, t->loc[i]);
    r = have ? av_join(e, &r, &v) : v;
    have = 1;
  }
  return r;
}

/* The value of a place, made a symbol when nothing is known and it is one place (so that
   two reads of the same unknown agree). The symbol is named after the place, so a loop that
   reads an unknown again and again reaches a fixpoint. */
aval mem_read_materialized(tc_eng *e, astate *s, uint32_t loc, int weak) {
  aval v = mem_eff(e, s, loc);
  if (!weak && (v.k == AV_TOP || v.k == AV_BOT)) {
    v = av_make(AV_SYM, sym_of_loc(loc, 0));
    mem_write(e, s, loc, &v, 0);
  }
  return v;
}

aval mem_read_path(frame *f, astate *s, const tc_path *p, uint32_t *single) {
  targets t;
  if (single) *single = 0;
  if (!mem_resolve(f, s, p, &t)) return av_top();
  if (t.n == 1 && !t.weak && single) *single = t.loc[0];
  return mem_read_targets(f->e, s, &t);
}

aval mem_addr_of(frame *f, astate *s, const tc_path *p) {
  tc_eng *e = f->e;
  targets t;
  f->addr_only = 1;
  int found = mem_resolve(f, s, p, &t);
  f->addr_only = 0;
  if (!found) return av_top();
  aval a = av_make(AV_ADDR, IDX_NONE);
  uint32_t l0 = t.loc[0];
  if (t.n > 1) {
    uint32_t parent = e->locs[l0].parent;
    for (int i = 0; i < t.n; i++) {
      const eloc *l = &e->locs[t.loc[i]];
      if (l->parent != parent || (l->kind != LK_INDEX && l->kind != LK_ANY)) return av_top();
    }
    a.loc = parent;
    a.i = IDX_ANY;
    return a;
  }
  const eloc *l = &e->locs[l0];
  if (l->kind == LK_INDEX) {
    a.loc = l->parent;
    a.i = l->b;
  } else if (l->kind == LK_ANY) {
    a.loc = l->parent;
    a.i = IDX_ANY;
  } else {
    a.loc = l0;
    int is_array_var = 0;
    if (p->n_elems == 0) {
      const tc_function *fn = f->fi->fn;
      if (p->root == TC_ROOT_LOCAL && p->id < fn->n_locals)
        is_array_var = fn->locals[p->id].type.cls == TC_TY_ARRAY;
      else if (p->root == TC_ROOT_PARAM && p->id < fn->n_params)
        is_array_var = fn->params[p->id].type.cls == TC_TY_ARRAY;
      else if (p->root == TC_ROOT_GLOBAL) {
        for (uint32_t u = 0; u < e->prog->n_units && !is_array_var; u++)
          for (uint32_t g = 0; g < e->prog->units[u].n_globals; g++)
            if (e->prog->units[u].globals[g].usr == p->id) {
              is_array_var = e->prog->units[u].globals[g].type.cls == TC_TY_ARRAY;
              break;
            }
      }
    }
    if (is_array_var || l->is_array) a.i = 0;
  }
  return a;
}

aval mem_eval(frame *f, astate *s, const tc_opnd *o, uint32_t *single) {
  if (single) *single = 0;
  switch (o->kind) {
    case TC_OPND_PATH:
      return mem_read_path(f, s, &o->path, single);
    case TC_OPND_ADDR:
      return mem_addr_of(f, s, &o->path);
    case TC_OPND_INT:
      return av_make(AV_INT, o->ival);
    case TC_OPND_NULL:
      return av_make(AV_INT, 0);
    case TC_OPND_FUNC:
      return av_make(AV_FUNC, (int64_t)o->sym);
    case TC_OPND_UNKNOWN: /* a string literal keeps its text */
      return o->sym ? av_make(AV_STR, (int64_t)o->sym) : av_top();
    case TC_OPND_NONE:
      return av_top();
  }
  return av_top();
}

void mem_clear_subtree(tc_eng *e, astate *s, uint32_t loc) {
  for (uint32_t c = e->locs[loc].first_child; c; c = e->locs[c].next_sibling) {
    st_set(e, &s->mem, c, NULL);
    if (e->locs[c].first_child) mem_clear_subtree(e, s, c);
  }
}

void mem_write(tc_eng *e, astate *s, uint32_t loc, const aval *v, int weak) {
  if (!loc) return;
  if (weak) {
    aval old = mem_eff(e, s, loc);
    /* a NULL-filled array of handles being filled: the NULL is not a tag (pointers keep
       their NULL: it ends lists) */
    if (old.k == AV_INT && old.i == 0 && v->k == AV_TENSOR) old = av_make(AV_BOT, 0);
    /* a flagged call's result stored into one of several places (a container's element
       through an index the path does not know): what is read back there may be it, so a
       handle read there is a consequence of the finding, not a tensor to check again */
    if (v->k == AV_POISON && old.k == AV_TENSOR) {
      st_set(e, &s->mem, loc, v);
      return;
    }
    aval nv = av_join(e, &old, v);
    st_set(e, &s->mem, loc, &nv);
    return;
  }
  if (e->locs[loc].first_child) mem_clear_subtree(e, s, loc);
  st_set(e, &s->mem, loc, v);
}

void mem_write_targets(tc_eng *e, astate *s, const targets *t, const aval *v) {
  if (t->overflow) return;
  for (int i = 0; i < t->n; i++) mem_write(e, s, t->loc[i], v, t->weak || t->n > 1);
}

int mem_subtree_has_values(const tc_eng *e, const astate *s, uint32_t loc) {
  if (st_get(&s->mem, loc)) return 1;
  for (uint32_t c = e->locs[loc].first_child; c; c = e->locs[c].next_sibling)
    if (mem_subtree_has_values(e, s, c)) return 1;
  return 0;
}

static aval with_step(tc_eng *e, aval v, const copy_note *cn) {
  if (cn && v.prov && cn->name && cn->at && v.prov->loc != cn->at)
    v.prov = prov_new(e, cn->kind, v.prov, cn->at, cn->name, cn->name2, v.prov->tag);
  return v;
}

static void copy_children(tc_eng *e, astate *s, uint32_t dst, uint32_t src, int weak,
                          const copy_note *cn) {
  for (uint32_t c = e->locs[src].first_child; c; c = e->locs[c].next_sibling) {
    if (!mem_subtree_has_values(e, s, c)) continue;
    const eloc *cl = &e->locs[c];
    uint32_t dc = loc_child(e, dst, (loc_kind)cl->kind, cl->a, cl->b);
    if (!dc) continue;
    const aval *v = st_get(&s->mem, c);
    if (v) {
      aval nv = with_step(e, *v, cn);
      nv.drel = DR_NONE;
      mem_write(e, s, dc, &nv, weak);
    }
    copy_children(e, s, dc, c, weak, cn);
  }
}

void mem_copy_subtree(tc_eng *e, astate *s, uint32_t dst, uint32_t src, int weak,
                      const copy_note *cn) {
  if (!dst || dst == src) return;
  aval sv = mem_eff(e, s, src);
  sv.drel = DR_NONE;
  if (!weak) {
    mem_clear_subtree(e, s, dst);
    aval nv = with_step(e, sv, cn);
    st_set(e, &s->mem, dst, &nv);
  } else {
    mem_write(e, s, dst, &sv, 1);
  }
  copy_children(e, s, dst, src, weak, cn);
}

/* A device struct copied from several: its fields say "one of their devices" together */
static int copy_device_joined(tc_eng *e, astate *s, uint32_t dst, const targets *src,
                              const tc_type *ty, int weak) {
  const struct devtype *dt = devtype_for(e, ty);
  aval fv[3];
  tagset members;
  if (!dt || src->n < 2 || !device_members_at(e, s, dt, src, fv, &members) || members.n < 2)
    return 0;
  uint32_t set = tagset_intern(e, &members);
  if (!set) return 0;
  if (!weak) mem_clear_subtree(e, s, dst);
  uint32_t fids[3] = {dt->f_backend, dt->f_ordinal, dt->f_autodiff};
  for (int k = 0; k < 3; k++) {
    aval v = device_field_of_set(e, set, k, fv[k].prov);
    mem_write(e, s, loc_child(e, dst, LK_FIELD, fids[k], 0), &v, weak);
  }
  return 1;
}

void mem_copy_joined(tc_eng *e, astate *s, uint32_t dst, const targets *src, const tc_type *ty,
                     int weak, const copy_note *cn) {
  if (copy_device_joined(e, s, dst, src, ty, weak)) return;
  int copied = 0;
  for (int i = 0; i < src->n; i++) {
    if (src->loc[i] == dst || (src->n > 1 && mem_skip_summary(e, s, src, i, 1))) continue;
    mem_copy_subtree(e, s, dst, src->loc[i], weak || copied, cn);
    copied = 1;
  }
}

static void havoc_rec(tc_eng *e, astate *s, uint32_t loc);

/* Havocs what the pointers stored anywhere inside loc's object point to. */
static void havoc_pointees(tc_eng *e, astate *s, uint32_t loc) {
  const aval *v = st_get(&s->mem, loc);
  if (v) {
    ptset pts;
    av_targets(e, v, &pts);
    for (uint32_t i = 0; i < pts.n; i++) havoc_rec(e, s, pts.loc[i]);
  }
  for (uint32_t c = e->locs[loc].first_child; c; c = e->locs[c].next_sibling)
    havoc_pointees(e, s, c);
}

static void havoc_rec(tc_eng *e, astate *s, uint32_t loc) {
  if (loc >= e->cap_visit) {
    size_t nc = e->cap_visit ? e->cap_visit : 1024;
    while (nc <= loc || nc < e->n_locs) nc *= 2;
    uint32_t *nv = realloc(e->visit_stamp, nc * sizeof *nv);
    if (!nv) {
      e->oom = 1;
      return;
    }
    memset(nv + e->cap_visit, 0, (nc - e->cap_visit) * sizeof *nv);
    e->visit_stamp = nv;
    e->cap_visit = nc;
  }
  if (e->visit_stamp[loc] == e->stamp) return;
  e->visit_stamp[loc] = e->stamp;
  /* first what this object points to, then the object itself; what an API object is (the
     context a graph was made in, where a context places its tensors: pseudo-fields no C code
     can write) stays */
  havoc_pointees(e, s, loc);
  uint32_t ids[2] = {e->f_context, e->f_placement};
  uint32_t keep_at[2] = {0, 0};
  aval keep[2];
  for (int k = 0; k < 2; k++) {
    keep_at[k] = ids[k] ? loc_find_child(e, loc, LK_FIELD, ids[k], 0) : 0;
    const aval *kv = keep_at[k] ? st_get(&s->mem, keep_at[k]) : NULL;
    if (kv) keep[k] = *kv;
    else keep_at[k] = 0;
  }
  mem_clear_subtree(e, s, loc);
  aval top = av_top();
  st_set(e, &s->mem, loc, &top);
  for (int k = 0; k < 2; k++)
    if (keep_at[k]) st_set(e, &s->mem, keep_at[k], &keep[k]);
}

void mem_havoc_reachable(tc_eng *e, astate *s, uint32_t loc) {
  if (!loc) return;
  e->stamp++;
  if (e->stamp == 0) {
    memset(e->visit_stamp, 0, e->cap_visit * sizeof *e->visit_stamp);
    e->stamp = 1;
  }
  havoc_rec(e, s, loc);
}
