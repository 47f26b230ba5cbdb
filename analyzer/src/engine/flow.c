/* analyzer/src/engine/flow.c — one function's analysis: a worklist fixpoint over its blocks in
 * reverse post-order, keeping a bounded set of disjunctive states per block (path-sensitive up
 * to max_states, then joining the closest), joining states that differ only in integers at loop
 * heads (so counters converge), deciding branches from constants and availability tests and
 * refining what each side of an undecided branch knows. Budgets bound the work. */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

/* ------------------------------------------------------------------ state lists */

void slist_push(tc_eng *e, state_list *l, astate s) {
  astate *p = VEC_PUSH(l->items, l->n, l->cap);
  if (!p) {
    e->oom = 1;
    state_release(e, &s);
    return;
  }
  *p = s;
}

void slist_release(tc_eng *e, state_list *l) {
  for (size_t i = 0; i < l->n; i++) state_release(e, &l->items[i]);
  free(l->items);
  memset(l, 0, sizeof *l);
}

void slist_merge_to(tc_eng *e, state_list *l, size_t max) {
  if (max < 1) max = 1;
  if (l->n <= 1) return;
  /* keep the first `max` distinct states; join each further one into its closest */
  uint64_t *hashes = malloc(l->n * sizeof *hashes);
  if (!hashes) {
    e->oom = 1;
    return;
  }
  size_t kept = 0;
  for (size_t i = 0; i < l->n; i++) {
    astate cur = l->items[i];
    uint64_t h = state_hash(e, &cur);
    int dup = 0;
    for (size_t k = 0; k < kept && !dup; k++)
      dup = hashes[k] == h && state_equal(e, &l->items[k], &cur);
    if (dup) {
      state_release(e, &cur);
      continue;
    }
    if (kept < max) {
      hashes[kept] = h;
      l->items[kept++] = cur;
      continue;
    }
    size_t best = kept;
    uint64_t th = state_tag_hash(e, &cur);
    for (size_t k = 0; k < kept && best == kept; k++)
      if (state_tag_hash(e, &l->items[k]) == th) best = k;
    if (best == kept) {
      uint32_t bd = UINT32_MAX;
      best = kept - 1;
      for (size_t k = 0; k < 4 && k < kept; k++) {
        uint32_t d = state_distance(e, &l->items[kept - 1 - k], &cur, NULL, bd);
        if (d < bd) {
          bd = d;
          best = kept - 1 - k;
        }
      }
    }
    if (state_join_into(e, &l->items[best], &cur)) hashes[best] = state_hash(e, &l->items[best]);
    state_release(e, &cur);
  }
  l->n = kept;
  free(hashes);
}

/* ------------------------------------------------------------------ per-function facts */

static void mark_temp_read(uint32_t id, uint32_t blk, uint8_t *cross, uint32_t n_temps,
                           const uint32_t *write_blk) {
  if (id < n_temps && write_blk[id] != blk) cross[id] = 1;
}

/* The temporaries a path reads: its root, and the indices of its elements (`slot[t]`, t
   computed before a `?:` whose arms both store there). */
static void mark_temp_reads_path(const tc_path *p, uint32_t blk, uint32_t *read_blk, uint8_t *cross,
                                 uint32_t n_temps, const uint32_t *write_blk) {
  (void)read_blk;
  if (p->root == TC_ROOT_TEMP) mark_temp_read(p->id, blk, cross, n_temps, write_blk);
  for (uint32_t k = 0; k < p->n_elems; k++)
    if (p->elems[k].kind == TC_ELEM_INDEX_ANY && p->elems[k].index_root == TC_ROOT_TEMP)
      mark_temp_read(p->elems[k].index_id, blk, cross, n_temps, write_blk);
}

static void mark_temp_reads(const tc_opnd *o, uint32_t blk, uint32_t *read_blk, uint8_t *cross,
                            uint32_t n_temps, const uint32_t *write_blk) {
  if (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR)
    mark_temp_reads_path(&o->path, blk, read_blk, cross, n_temps, write_blk);
}

/* Does the temporary o addresses outlive its block through in: its address goes into a
   variable or into a temporary read in another block (`%it := begin(&%t)` of a range-for over
   a returned container, `m := &%t`), which reads it later? */
static int temp_address_kept(const tc_insn *in, const tc_opnd *o, const uint8_t *cross,
                             uint32_t n_temps) {
  if (o->kind != TC_OPND_ADDR || o->path.root != TC_ROOT_TEMP || o->path.id >= n_temps ||
      cross[o->path.id] || !in->has_dst)
    return 0;
  return in->dst.root != TC_ROOT_TEMP || (in->dst.id < n_temps && cross[in->dst.id]);
}

static void mark_kept_temp_addresses(const tc_function *fn, uint8_t *cross) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t b = 0; b < fn->n_blocks; b++)
      for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
        const tc_insn *in = &fn->blocks[b].insns[i];
        const tc_opnd *ops[2] = {&in->a, &in->b};
        for (uint32_t k = 0; k < 2 + in->n_args; k++) {
          const tc_opnd *o = k < 2 ? ops[k] : &in->args[k - 2];
          if (temp_address_kept(in, o, cross, fn->n_temps)) cross[o->path.id] = changed = 1;
        }
      }
  }
}

static int prepare(tc_eng *e, fninfo *fi) {
  if (fi->prepared) return 0;
  const tc_function *fn = fi->fn;
  uint32_t nb = fn->n_blocks;
  fi->rpo = calloc(nb ? nb : 1, sizeof *fi->rpo);
  fi->loop_head = calloc(nb ? nb : 1, 1);
  fi->loop_last = calloc(nb ? nb : 1, sizeof *fi->loop_last);
  fi->by_rpo = calloc(nb ? nb : 1, sizeof *fi->by_rpo);
  fi->cross_temp = calloc(fn->n_temps ? fn->n_temps : 1, 1);
  uint32_t *stack = calloc(nb ? nb : 1, sizeof *stack);
  uint32_t *next_succ = calloc(nb ? nb : 1, sizeof *next_succ);
  uint8_t *seen = calloc(nb ? nb : 1, 1);
  uint32_t *order = calloc(nb ? nb : 1, sizeof *order);
  uint32_t *write_blk = calloc(fn->n_temps ? fn->n_temps : 1, sizeof *write_blk);
  if (!fi->rpo || !fi->loop_head || !fi->loop_last || !fi->by_rpo || !fi->cross_temp || !stack || !next_succ || !seen || !order ||
      !write_blk) {
    free(stack);
    free(next_succ);
    free(seen);
    free(order);
    free(write_blk);
    e->oom = 1;
    return -1;
  }
  /* iterative DFS for post-order */
  uint32_t n_order = 0, sp = 0;
  for (uint32_t i = 0; i < nb; i++) fi->rpo[i] = UINT32_MAX;
  if (nb) {
    stack[sp++] = 0;
    seen[0] = 1;
  }
  while (sp) {
    uint32_t b = stack[sp - 1];
    const tc_term *t = &fn->blocks[b].term;
    if (next_succ[b] < t->n_succ) {
      uint32_t s = t->succ[next_succ[b]++];
      if (s < nb && !seen[s]) {
        seen[s] = 1;
        stack[sp++] = s;
      }
    } else {
      order[n_order++] = b;
      sp--;
    }
  }
  for (uint32_t i = 0; i < n_order; i++) fi->rpo[order[n_order - 1 - i]] = i;
  uint32_t next = n_order;
  for (uint32_t i = 0; i < nb; i++)
    if (fi->rpo[i] == UINT32_MAX) fi->rpo[i] = next++;
  for (uint32_t b = 0; b < nb; b++) fi->by_rpo[fi->rpo[b]] = b;
  for (uint32_t b = 0; b < nb; b++) {
    const tc_term *t = &fn->blocks[b].term;
    for (uint32_t k = 0; k < t->n_succ; k++) {
      uint32_t h = t->succ[k];
      if (h >= nb || fi->rpo[h] > fi->rpo[b]) continue;
      fi->loop_head[h] = 1;
      if (fi->rpo[b] > fi->loop_last[h]) fi->loop_last[h] = fi->rpo[b];
    }
  }
  /* temps read outside the block that writes them */
  uint32_t n_insns = 0;
  for (uint32_t t = 0; t < fn->n_temps; t++) write_blk[t] = UINT32_MAX;
  for (uint32_t b = 0; b < nb; b++) {
    const tc_block *bl = &fn->blocks[b];
    n_insns += bl->n_insns + 1;
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      const tc_insn *in = &bl->insns[i];
      if (in->has_dst && in->dst.root == TC_ROOT_TEMP && in->dst.id < fn->n_temps) {
        uint32_t id = in->dst.id;
        if (write_blk[id] != UINT32_MAX && write_blk[id] != b) fi->cross_temp[id] = 1;
        write_blk[id] = b;
      }
    }
  }
  for (uint32_t b = 0; b < nb; b++) {
    const tc_block *bl = &fn->blocks[b];
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      const tc_insn *in = &bl->insns[i];
      mark_temp_reads(&in->a, b, NULL, fi->cross_temp, fn->n_temps, write_blk);
      mark_temp_reads(&in->b, b, NULL, fi->cross_temp, fn->n_temps, write_blk);
      mark_temp_reads(&in->callee.target, b, NULL, fi->cross_temp, fn->n_temps, write_blk);
      for (uint32_t a = 0; a < in->n_args; a++)
        mark_temp_reads(&in->args[a], b, NULL, fi->cross_temp, fn->n_temps, write_blk);
      if (in->has_dst && in->dst.n_elems)
        mark_temp_reads_path(&in->dst, b, NULL, fi->cross_temp, fn->n_temps, write_blk);
    }
    mark_temp_reads(&bl->term.cond, b, NULL, fi->cross_temp, fn->n_temps, write_blk);
  }
  mark_kept_temp_addresses(fn, fi->cross_temp);
  fi->n_insns = n_insns;
  if (index_split_prepare(e, fi)) {
    free(stack);
    free(next_succ);
    free(seen);
    free(order);
    free(write_blk);
    return -1;
  }
  free(stack);
  free(next_succ);
  free(seen);
  free(order);
  free(write_blk);
  fi->prepared = 1;
  return 0;
}

/* ------------------------------------------------------------------ refinement */

static int avail_known(const astate *s, int64_t b) {
  if (b < 0 || b >= 32) return -1;
  if (s->avail_yes & (1u << b)) return 1;
  if (s->avail_no & (1u << b)) return 0;
  return -1;
}

static int assume_avail(tc_eng *e, astate *s, int64_t b, int avail) {
  (void)e;
  if (b < 0 || b >= 32) return 1;
  uint32_t bit = 1u << b;
  if (avail) {
    if (s->avail_no & bit) return 0;
    s->avail_yes |= bit;
  } else {
    if (s->avail_yes & bit) return 0;
    s->avail_no |= bit;
  }
  return 1;
}

/* Assumes the tag set test t is `truth`: the sets of its origin keep the members it says. */
static int assume_settest(tc_eng *e, astate *s, const aval *t, int truth) {
  return tagset_narrow(e, s, settest_var(t), settest_mask(t, t->neg ? !truth : truth));
}

/* Narrows the bounds [lo, hi] of an integer by (x rel c); 0 when none is left. */
static int narrow_bounds(drel rel, int64_t c, int64_t *lo, int64_t *hi) {
  switch (rel) {
    case DR_LT:
      if (c == INT64_MIN) return 0;
      if (c - 1 < *hi) *hi = c - 1;
      break;
    case DR_LE:
      if (c < *hi) *hi = c;
      break;
    case DR_GT:
      if (c == INT64_MAX) return 0;
      if (c + 1 > *lo) *lo = c + 1;
      break;
    case DR_GE:
      if (c > *lo) *lo = c;
      break;
    case DR_EQ:
      if (c < *lo || c > *hi) return 0;
      *lo = *hi = c;
      break;
    case DR_NE:
      if (*lo == c && *hi == c) return 0;
      if (*lo == c) (*lo)++;
      else if (*hi == c) (*hi)--;
      break;
    case DR_NONE:
      break;
  }
  return *lo <= *hi;
}

/* Assumes (loc rel c) of an ordering relation, or of any relation on a range: the integer
   becomes the range its bounds allow (a pointer or a test learns nothing). */
static int assume_order(tc_eng *e, astate *s, uint32_t loc, const aval *cur, drel rel,
                        int64_t c) {
  if (!av_intlike(cur) || cur->k == AV_AVAIL || cur->k == AV_SETTEST) return 1;
  int64_t lo, hi;
  av_bounds(cur, &lo, &hi);
  if (!narrow_bounds(rel, c, &lo, &hi)) return 0;
  if (cur->k == AV_NE && !narrow_bounds(DR_NE, cur->i, &lo, &hi)) return 0;
  if (cur->k == AV_INT) return 1;
  aval nv = av_range(lo, hi);
  if (nv.k == AV_TOP) return 1;
  nv.prov = cur->prov;
  mem_write(e, s, loc, &nv, 0);
  return 1;
}

/* Assumes (loc rel c); returns 0 when the state contradicts it. */
static int assume_rel(tc_eng *e, astate *s, uint32_t loc, drel rel, int64_t c,
                      const tc_srcloc *at) {
  (void)at;
  aval cur = mem_eff(e, s, loc);
  aval nv;
  if (rel >= DR_LT || cur.k == AV_RANGE) return assume_order(e, s, loc, &cur, rel, c);
  switch ((av_kind)cur.k) {
    case AV_INT:
      return rel == DR_EQ ? cur.i == c : cur.i != c;
    case AV_NE:
      if (rel == DR_EQ) {
        if (cur.i == c) return 0;
        nv = av_make(AV_INT, c);
        nv.prov = cur.prov;
        mem_write(e, s, loc, &nv, 0);
      }
      return 1;
    case AV_SYM:
    case AV_TOP:
    case AV_BOT:
    case AV_ABSENT:
      nv = av_make(rel == DR_EQ ? AV_INT : AV_NE, c);
      nv.prov = cur.prov;
      mem_write(e, s, loc, &nv, 0);
      if (c == 0) state_refine_copies(e, s, loc, &cur, &nv);
      return 1;
    case AV_AVAIL: {
      int avail = rel == DR_EQ ? (c != 0) : (c == 0);
      if (rel == DR_NE && c != 0) return 1; /* "!= 1" says little */
      return assume_avail(e, s, cur.i, cur.neg ? !avail : avail);
    }
    case AV_SETTEST: {
      int truth = rel == DR_EQ ? (c != 0) : (c == 0);
      if (rel == DR_NE && c != 0) return 1;
      return assume_settest(e, s, &cur, truth);
    }
    case AV_ADDR:
    case AV_ADDRSET:
    case AV_FUNC:
      if (c == 0 && cur.neg) { /* maybe NULL: the branch tells */
        if (rel == DR_EQ) {
          nv = av_make(AV_INT, 0);
        } else {
          nv = cur;
          nv.neg = 0;
        }
        mem_write(e, s, loc, &nv, 0);
        return 1;
      }
      if (c == 0) return rel == DR_NE;
      return 1;
    case AV_STR:
      if (c == 0) return rel == DR_NE;
      return 1;
    case AV_POISON: /* a failed call's result (NULL where the API returns it), or the
                       consequence of a finding, with the nullness of the value it replaced */
      if (c != 0 || cur.i == POISON_MAYBE_NULL) return 1;
      return cur.i == POISON_NULL ? rel == DR_EQ : rel == DR_NE;
    case AV_DATAPTR:
      return 1;
    case AV_TENSOR:
      if (c == 0 && rel == DR_EQ) { /* the handle is NULL on this path */
        nv = av_make(AV_INT, 0);
        mem_write(e, s, loc, &nv, 0);
      } else if (c == 0 && cur.neg) { /* and not NULL on this one */
        nv = cur;
        nv.neg = 0;
        mem_write(e, s, loc, &nv, 0);
      }
      return 1;
    case AV_MULTI:
    case AV_RANGE:
      return 1;
  }
  return 1;
}

int flow_assume(tc_eng *e, astate *s, const aval *v, int truth) {
  if (v->k == AV_AVAIL) {
    if (!assume_avail(e, s, v->i, v->neg ? !truth : truth)) return 0;
  }
  if (v->k == AV_SETTEST && !assume_settest(e, s, v, truth)) return 0;
  if (v->drel != DR_NONE && v->dloc) {
    aval cur = mem_eff(e, s, v->dloc);
    int fresh = cur.k == v->dsnap_k &&
                (cur.k == AV_TOP || cur.k == AV_BOT || cur.i == v->dsnap_i);
    if (fresh) {
      drel r = (drel)v->drel;
      if (!truth) r = drel_negate(r);
      if (!assume_rel(e, s, v->dloc, r, v->dc, NULL)) return 0;
    }
  }
  return 1;
}

/* A test a branch on refines the state by (availability, tag set member): `!` and `== 0`
   negate it. */
static int is_test(const aval *v) { return v->k == AV_AVAIL || v->k == AV_SETTEST; }

/* 1 true, 0 false, -1 unknown */
static int truth_of(const astate *s, const aval *v) {
  switch ((av_kind)v->k) {
    case AV_INT:
      return v->i != 0;
    case AV_NE:
      return v->i == 0 ? 1 : -1;
    case AV_ADDR:
    case AV_ADDRSET:
      return v->neg ? -1 : 1;
    case AV_TENSOR: /* a handle an API call returned (a failed call's result is poison) */
      return v->neg ? -1 : 1;
    case AV_FUNC: /* a function, or maybe NULL (a zero-filled slot joined with one) */
      return v->neg ? -1 : 1;
    case AV_STR:
      return 1;
    case AV_AVAIL: {
      int k = avail_known(s, v->i);
      return k < 0 ? -1 : (v->neg ? !k : k);
    }
    case AV_ABSENT:
    case AV_BOT:
    case AV_MULTI:
    case AV_TOP:
      return -1;
    case AV_POISON: /* a failed call's result (NULL where the API returns it), or a value's
                       consequence of a finding (its nullness kept) */
      return v->i == POISON_NULL ? 0 : v->i == POISON_NOT_NULL ? 1 : -1;
    case AV_SYM:
    case AV_DATAPTR:
    case AV_SETTEST:
      return -1;
    case AV_RANGE:
      return v->i > 0 || v->hi < 0 ? 1 : -1;
  }
  return -1;
}

static void set_derivation(aval *v, uint32_t loc, drel rel, int64_t c, const aval *snap) {
  v->drel = (uint8_t)rel;
  v->dloc = loc;
  v->dc = c;
  v->dsnap_k = snap->k;
  v->dsnap_i = snap->i;
}

/* ------------------------------------------------------------------ instructions */

static int is_named_place(const tc_path *p) { return p->root != TC_ROOT_TEMP && p->spelling; }

static void do_assign(frame *f, astate *s, const tc_insn *in) {
  tc_eng *e = f->e;
  if (!in->has_dst) return;
  targets dt;
  if (!mem_resolve(f, s, &in->dst, &dt)) return;
  tc_sym name = is_named_place(&in->dst) ? in->dst.spelling : 0;
  if (mem_is_record_type(&in->dst_type) && in->a.kind == TC_OPND_PATH) {
    targets st;
    if (mem_resolve(f, s, &in->a.path, &st) && st.n >= 1 && !st.overflow) {
      copy_note cn = {PV_ASSIGN, &in->loc, name, 0};
      for (int i = 0; i < dt.n; i++)
        mem_copy_joined(e, s, dt.loc[i], &st, &in->dst_type, dt.weak || dt.n > 1, &cn);
      return;
    }
    aval top = av_top();
    mem_write_targets(e, s, &dt, &top);
    return;
  }
  uint32_t single = 0;
  aval v = mem_eval(f, s, &in->a, &single);
  if (in->dst_type.cls == TC_TY_FLOAT) { /* floats are not followed: only the read counts */
    aval top = av_top();
    mem_write_targets(e, s, &dt, &top);
    return;
  }
  if (v.drel == DR_NONE && single && av_intlike(&v) && v.k != AV_AVAIL && v.k != AV_SETTEST) {
    aval snap = v;
    set_derivation(&v, single, DR_NE, 0, &snap);
  }
  if (name && v.prov && v.k == AV_TENSOR && v.prov->loc != &in->loc &&
      !(v.prov->loc && v.prov->loc->line == in->loc.line && v.prov->loc->file == in->loc.file))
    v.prov = prov_new(e, PV_ASSIGN, v.prov, &in->loc, name, 0, v.tag);
  mem_write_targets(e, s, &dt, &v);
}

static int64_t fold(tc_opcode op, int64_t a, int64_t b, int *ok) {
  *ok = 1;
  switch (op) {
    case TC_OPC_ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
    case TC_OPC_SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
    case TC_OPC_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
    case TC_OPC_DIV:
      if (b == 0 || (a == INT64_MIN && b == -1)) break;
      return a / b;
    case TC_OPC_REM:
      if (b == 0 || (a == INT64_MIN && b == -1)) break;
      return a % b;
    case TC_OPC_EQ: return a == b;
    case TC_OPC_NE: return a != b;
    case TC_OPC_LT: return a < b;
    case TC_OPC_LE: return a <= b;
    case TC_OPC_GT: return a > b;
    case TC_OPC_GE: return a >= b;
    case TC_OPC_AND: return a & b;
    case TC_OPC_OR: return a | b;
    case TC_OPC_XOR: return a ^ b;
    case TC_OPC_SHL:
      if (b < 0 || b > 62 || a < 0) break;
      return (int64_t)((uint64_t)a << b);
    case TC_OPC_SHR:
      if (b < 0 || b > 62) break;
      return a >> b;
    case TC_OPC_NONE:
    case TC_OPC_NOT:
    case TC_OPC_NEG:
    case TC_OPC_BITNOT:
      break;
  }
  *ok = 0;
  return 0;
}

/* The relation an ordering comparison tests (DR_NONE for other operators). */
static drel order_rel(tc_opcode op) {
  if (op == TC_OPC_LT) return DR_LT;
  if (op == TC_OPC_LE) return DR_LE;
  if (op == TC_OPC_GT) return DR_GT;
  if (op == TC_OPC_GE) return DR_GE;
  return DR_NONE;
}

/* A comparison of two integers, one of them a range, that their bounds decide: 1 or 0;
   -1 when they overlap (or it is not such a comparison). */
static int decide_by_bounds(tc_opcode op, const aval *a, const aval *b) {
  if (!(a->k == AV_RANGE || b->k == AV_RANGE) || !(a->k == AV_INT || a->k == AV_RANGE) ||
      !(b->k == AV_INT || b->k == AV_RANGE))
    return -1;
  int64_t alo, ahi, blo, bhi;
  av_bounds(a, &alo, &ahi);
  av_bounds(b, &blo, &bhi);
  int disjoint = ahi < blo || bhi < alo;
  if (op == TC_OPC_LT) return ahi < blo ? 1 : alo >= bhi ? 0 : -1;
  if (op == TC_OPC_LE) return ahi <= blo ? 1 : alo > bhi ? 0 : -1;
  if (op == TC_OPC_GT) return alo > bhi ? 1 : ahi <= blo ? 0 : -1;
  if (op == TC_OPC_GE) return alo >= bhi ? 1 : ahi < blo ? 0 : -1;
  if (op == TC_OPC_EQ) return disjoint ? 0 : -1;
  if (op == TC_OPC_NE) return disjoint ? 1 : -1;
  return -1;
}

static aval eval_binop(frame *f, astate *s, const tc_insn *in) {
  tc_eng *e = f->e;
  uint32_t la = 0, lb = 0;
  aval a = mem_eval(f, s, &in->a, &la);
  aval b = mem_eval(f, s, &in->b, &lb);
  tc_opcode op = in->opc;
  if (a.k == AV_INT && b.k == AV_INT) {
    int ok;
    int64_t r = fold(op, a.i, b.i, &ok);
    return ok ? av_make(AV_INT, r) : av_top();
  }
  int by_bounds = decide_by_bounds(op, &a, &b);
  if (by_bounds >= 0) return av_make(AV_INT, by_bounds);
  drel order = order_rel(op);
  if (order != DR_NONE) {
    /* a bound the program writes (`k > 1`), not a value the analysis happens to know (a
       loop counter's: narrowing `n` by each `i < n` would keep every count of iterations
       apart), narrows the integer compared to it on each side of the branch */
    aval r = av_top();
    int a_bound = in->a.kind == TC_OPND_INT, b_bound = in->b.kind == TC_OPND_INT;
    if (b_bound && la && av_intlike(&a) && a.k != AV_AVAIL)
      set_derivation(&r, la, order, b.i, &a);
    else if (a_bound && lb && av_intlike(&b) && b.k != AV_AVAIL)
      set_derivation(&r, lb, drel_mirror(order), a.i, &b);
    else if (b_bound && a.drel == DR_NE && a.dc == 0 && a.dloc && av_intlike(&a)) {
      aval snap = av_make((av_kind)a.dsnap_k, a.dsnap_i);
      set_derivation(&r, a.dloc, order, b.i, &snap);
    }
    return r;
  }
  if (op == TC_OPC_EQ || op == TC_OPC_NE) {
    int eq = -1;
    if ((a.k == AV_INT && b.k == AV_NE && a.i == b.i) || (a.k == AV_NE && b.k == AV_INT && a.i == b.i))
      eq = 0;
    else if (a.k == AV_SYM && b.k == AV_SYM && a.i == b.i)
      eq = 1;
    else if (((a.k == AV_ADDR || a.k == AV_ADDRSET || a.k == AV_TENSOR) && !a.neg &&
              b.k == AV_INT && b.i == 0) ||
             ((b.k == AV_ADDR || b.k == AV_ADDRSET || b.k == AV_TENSOR) && !b.neg &&
              a.k == AV_INT && a.i == 0))
      eq = 0;
    else if (a.k == AV_ADDR && b.k == AV_ADDR && a.i != IDX_ANY && b.i != IDX_ANY)
      eq = a.loc == b.loc && a.i == b.i;
    else if (a.k == AV_FUNC && b.k == AV_FUNC && !a.neg && !b.neg)
      eq = a.i == b.i;
    else if ((a.k == AV_STR && b.k == AV_INT && b.i == 0) ||
             (b.k == AV_STR && a.k == AV_INT && a.i == 0))
      eq = 0; /* a string literal is not NULL */
    else if ((a.k == AV_POISON && a.i && b.k == AV_INT && b.i == 0) ||
             (b.k == AV_POISON && b.i && a.k == AV_INT && a.i == 0))
      eq = 1; /* a failed call's result, NULL where the API returns it (as truth_of) */
    if (eq >= 0) return av_make(AV_INT, op == TC_OPC_EQ ? eq : !eq);
    uint32_t set;
    int field;
    const aval *dv = devset_field(&a, &set, &field) && field == 0 && b.k == AV_INT   ? &b
                     : devset_field(&b, &set, &field) && field == 0 && a.k == AV_INT ? &a
                                                                                    : NULL;
    if (dv) { /* the backend of one of several devices against an enum constant */
      aval t = devset_backend_test(e, set, dv->i);
      if (t.k == AV_INT) return av_make(AV_INT, op == TC_OPC_EQ ? t.i : !t.i);
      if (t.k == AV_SETTEST && op == TC_OPC_NE) t.neg = 1;
      return t;
    }
    if ((is_test(&a) && b.k == AV_INT && b.i == 0) || (is_test(&b) && a.k == AV_INT && a.i == 0)) {
      aval r = is_test(&a) ? a : b;
      if (op == TC_OPC_EQ) r.neg = !r.neg;
      r.drel = DR_NONE;
      return r;
    }
    aval r = av_top();
    int a_maybe_null = (a.k == AV_ADDR || a.k == AV_ADDRSET || a.k == AV_TENSOR) && a.neg;
    int b_maybe_null = (b.k == AV_ADDR || b.k == AV_ADDRSET || b.k == AV_TENSOR) && b.neg;
    if (la && a_maybe_null && b.k == AV_INT && b.i == 0)
      set_derivation(&r, la, op == TC_OPC_EQ ? DR_EQ : DR_NE, 0, &a);
    else if (lb && b_maybe_null && a.k == AV_INT && a.i == 0)
      set_derivation(&r, lb, op == TC_OPC_EQ ? DR_EQ : DR_NE, 0, &b);
    else if (la && av_intlike(&a) && b.k == AV_INT)
      set_derivation(&r, la, op == TC_OPC_EQ ? DR_EQ : DR_NE, b.i, &a);
    else if (lb && av_intlike(&b) && a.k == AV_INT)
      set_derivation(&r, lb, op == TC_OPC_EQ ? DR_EQ : DR_NE, a.i, &b);
    else if (a.drel == DR_NE && a.dc == 0 && b.k == AV_INT && av_intlike(&a)) {
      aval snap = av_make((av_kind)a.dsnap_k, a.dsnap_i);
      set_derivation(&r, a.dloc, op == TC_OPC_EQ ? DR_EQ : DR_NE, b.i, &snap);
    }
    return r;
  }
  if ((op == TC_OPC_ADD || op == TC_OPC_SUB) && a.k == AV_ADDR && b.k == AV_INT) {
    aval r = a;
    if (a.i == IDX_ANY) return r;
    int64_t base = a.i == IDX_NONE ? 0 : a.i;
    if (a.i == IDX_NONE && b.i != 0 && !e->locs[a.loc].is_array) return av_top();
    r.i = op == TC_OPC_ADD ? base + b.i : base - b.i;
    if (r.i < 0) return av_top();
    return r;
  }
  if (op == TC_OPC_ADD && b.k == AV_ADDR && a.k == AV_INT) {
    aval r = b;
    if (b.i == IDX_ANY) return r;
    int64_t base = b.i == IDX_NONE ? 0 : b.i;
    if (b.i == IDX_NONE && a.i != 0 && !e->locs[b.loc].is_array) return av_top();
    r.i = base + a.i;
    return r;
  }
  /* an offset into a tensor's data is in the same memory */
  if ((op == TC_OPC_ADD || op == TC_OPC_SUB) && a.k == AV_DATAPTR && av_intlike(&b)) return a;
  if (op == TC_OPC_ADD && b.k == AV_DATAPTR && av_intlike(&a)) return b;
  if (op == TC_OPC_AND && ((a.k == AV_INT && a.i == 0) || (b.k == AV_INT && b.i == 0)))
    return av_make(AV_INT, 0);
  if (op == TC_OPC_MUL && ((a.k == AV_INT && a.i == 0) || (b.k == AV_INT && b.i == 0)))
    return av_make(AV_INT, 0);
  return av_top();
}

static aval eval_unop(frame *f, astate *s, const tc_insn *in) {
  uint32_t la = 0;
  aval a = mem_eval(f, s, &in->a, &la);
  switch (in->opc) {
    case TC_OPC_NOT: {
      int t = truth_of(s, &a);
      if (!is_test(&a) && t >= 0) return av_make(AV_INT, !t);
      if (is_test(&a)) {
        aval r = a;
        r.neg = !r.neg;
        r.drel = DR_NONE;
        return r;
      }
      aval r = av_top();
      if (a.drel != DR_NONE && a.dloc) {
        aval snap = av_make((av_kind)a.dsnap_k, a.dsnap_i);
        set_derivation(&r, a.dloc, drel_negate((drel)a.drel), a.dc, &snap);
      } else if (la && av_intlike(&a)) {
        set_derivation(&r, la, DR_EQ, 0, &a);
      }
      return r;
    }
    case TC_OPC_NEG:
      return a.k == AV_INT ? av_make(AV_INT, (int64_t)(0 - (uint64_t)a.i)) : av_top();
    case TC_OPC_BITNOT:
      return a.k == AV_INT ? av_make(AV_INT, ~a.i) : av_top();
    case TC_OPC_NONE:
    case TC_OPC_ADD:
    case TC_OPC_SUB:
    case TC_OPC_MUL:
    case TC_OPC_DIV:
    case TC_OPC_REM:
    case TC_OPC_EQ:
    case TC_OPC_NE:
    case TC_OPC_LT:
    case TC_OPC_LE:
    case TC_OPC_GT:
    case TC_OPC_GE:
    case TC_OPC_AND:
    case TC_OPC_OR:
    case TC_OPC_XOR:
    case TC_OPC_SHL:
    case TC_OPC_SHR:
      break;
  }
  return av_top();
}

static void write_dst(frame *f, astate *s, const tc_insn *in, const aval *v) {
  if (!in->has_dst) return;
  targets dt;
  if (!mem_resolve(f, s, &in->dst, &dt)) return;
  mem_write_targets(f->e, s, &dt, v);
}

void flow_check_touches(frame *f, astate *s) {
  for (size_t i = 0; i < f->n_touched; i++) {
    host_touch t = f->touched[i];
    api_host_access(f, s, &t.ptr, t.spelling);
  }
  f->n_touched = 0;
}

/* Applies one instruction to s; the states that follow go to out. Calls (call_dispatch) check
   the dereferences their arguments make themselves, before a callee is analyzed. */
static void transfer(frame *f, astate s, const tc_insn *in, state_list *out) {
  tc_eng *e = f->e;
  f->in = in;
  index_split sp;
  if (index_split_find(f, &s, in, &sp)) {
    for (uint32_t i = 0; i < sp.n; i++) {
      astate x = i + 1 < sp.n ? state_copy(&s) : s;
      aval k = av_make(AV_INT, sp.k[i]);
      k.prov = sp.prov;
      mem_write(e, &x, sp.var, &k, 0);
      x.uncertain = 1; /* which element it is, the path does not decide */
      transfer(f, x, in, out);
    }
    return;
  }
  size_t first = out->n;
  if (e->observe) observe_before(f, &s, in);
  switch (in->kind) {
    case TC_I_ASSIGN:
      do_assign(f, &s, in);
      if (in->per_object) {
        flow_check_touches(f, &s);
        flow_split_per_object(f, s, in, out);
        if (e->observe) observe_after(f, out, first, in);
        return;
      }
      break;
    case TC_I_UNOP: {
      aval v = eval_unop(f, &s, in);
      write_dst(f, &s, in, &v);
      break;
    }
    case TC_I_BINOP: {
      aval v = eval_binop(f, &s, in);
      write_dst(f, &s, in, &v);
      break;
    }
    case TC_I_AGGREGATE: {
      aval z = av_make(AV_INT, 0);
      write_dst(f, &s, in, &z);
      break;
    }
    case TC_I_HAVOC: {
      aval t = av_top();
      write_dst(f, &s, in, &t);
      break;
    }
    case TC_I_CALL:
      call_dispatch(f, s, in, out);
      if (e->observe) observe_after(f, out, first, in);
      return;
  }
  flow_check_touches(f, &s);
  slist_push(e, out, s);
  if (e->observe) observe_after(f, out, first, in);
}

/* ------------------------------------------------------------------ the fixpoint */

typedef struct bstate {
  astate st;
  uint8_t done;
} bstate;

typedef struct blist {
  bstate *items;
  size_t n, cap;
  /* hashes of the states an iteration kept apart dropped from items (start_iteration): a
     state seen before is not run again (state_equal compares these hashes) */
  tc_map dropped;
} blist;

typedef struct wl {
  uint32_t *heap; /* block ids ordered by rpo */
  size_t n, cap;
  uint8_t *queued;
  const uint32_t *rpo;
} wl;

static void wl_push(tc_eng *e, wl *w, uint32_t b) {
  if (w->queued[b]) return;
  uint32_t *slot = VEC_PUSH(w->heap, w->n, w->cap);
  if (!slot) {
    e->oom = 1;
    return;
  }
  w->queued[b] = 1;
  size_t i = w->n - 1;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (w->rpo[w->heap[p]] <= w->rpo[b]) break;
    w->heap[i] = w->heap[p];
    i = p;
  }
  w->heap[i] = b;
}

static uint32_t wl_pop(wl *w) {
  uint32_t top = w->heap[0];
  uint32_t last = w->heap[--w->n];
  size_t i = 0;
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    uint32_t mv = last;
    if (l < w->n && w->rpo[w->heap[l]] < w->rpo[mv]) {
      m = l;
      mv = w->heap[l];
    }
    if (r < w->n && w->rpo[w->heap[r]] < w->rpo[mv]) {
      m = r;
      mv = w->heap[r];
    }
    if (m == i) break;
    w->heap[i] = w->heap[m];
    i = m;
  }
  if (w->n) w->heap[i] = last;
  w->queued[top] = 0;
  return top;
}

typedef struct fctx {
  frame fr;
  blist *in;
  wl w;
  size_t max_states; /* per block: e->max_states, or 1 in code that reaches no API call */
  uint8_t *decided; /* per block: its branch was decided from constants for some state */
  /* a loop head whose branch some state decided keeps this many states entering it (not
     coming back) apart before joining those that differ only in integers */
#define LOOP_ENTRIES_APART 8
  uint64_t work_start, budget; /* e->work when the analysis began; its budget */
  uint8_t *next_iteration; /* per loop head: a jump back reached it since it last ran */
  int joined_rerun; /* analyzed again past its budget: no loop keeps iterations apart */
} fctx;

static uint64_t branch_bit(uint32_t b) { return 1ull << (b & 63); }

/* The share of a function's budget (1/UNROLL_SHARE) its loops may spend keeping iterations
   apart: work, not a count of iterations. */
#define UNROLL_SHARE 8

/* A state coming back to a loop head whose branch (or the jumping block's: a do-while) it
   decided on its last pass (a bound it knows: `for (s = 0; s < 24; s++)`) starts an iteration
   of its own, however many the loop runs, so what the loop leaves behind is exact (stage s%2
   after the 24th stage, the 10th write of a ring); only once the function has used an eighth
   of its budget does it join states that differ only in integers, as loops with unknown
   bounds always do. No iteration count is involved. */
static int keep_iterations_apart(const fctx *c, uint32_t from, uint32_t head, const astate *s) {
  const fninfo *fi = c->fr.fi;
  if (!fi->loop_head[head] || fi->rpo[from] < fi->rpo[head]) return 0; /* not a jump back */
  if (!(s->decided_branches & (branch_bit(head) | branch_bit(from))) || c->joined_rerun) return 0;
  return c->fr.e->work - c->work_start < c->budget / UNROLL_SHARE;
}

/* Over budget: the state st joins a state that differs from it only in integers if there is
   one, else the closest of the last few. */
#define JOIN_CANDIDATES 4
static size_t join_target(tc_eng *e, const blist *bl, const astate *st) {
  uint64_t th = state_tag_hash(e, st);
  for (size_t i = 0; i < bl->n; i++)
    if (state_tag_hash(e, &bl->items[i].st) == th) return i;
  size_t best = bl->n - 1;
  uint32_t bd = UINT32_MAX;
  for (size_t k = 0; k < JOIN_CANDIDATES && k < bl->n; k++) {
    size_t i = bl->n - 1 - k;
    uint32_t d = state_distance(e, &bl->items[i].st, st, NULL, bd);
    if (d < bd) {
      bd = d;
      best = i;
    }
  }
  return best;
}

static void add_state(fctx *c, uint32_t b, astate st, int unroll) {
  tc_eng *e = c->fr.e;
  fninfo *fi = c->fr.fi;
  blist *bl = &c->in[b];
  for (size_t i = 0; i < bl->n; i++)
    if (state_equal(e, &bl->items[i].st, &st)) {
      state_release(e, &st);
      return;
    }
  if (bl->dropped.n && map_get(&bl->dropped, state_hash(e, &st), NULL)) {
    state_release(e, &st);
    return;
  }
  size_t target = SIZE_MAX;
  if (fi->loop_head[b] && !unroll && !(c->decided[b] && bl->n < LOOP_ENTRIES_APART)) {
    for (size_t i = 0; i < bl->n && target == SIZE_MAX; i++)
      if (state_differ_in_ints_only(e, &bl->items[i].st, &st)) target = i;
  }
  if (target == SIZE_MAX && (bl->n < c->max_states || unroll)) {
    bstate *p = VEC_PUSH(bl->items, bl->n, bl->cap);
    if (!p) {
      e->oom = 1;
      state_release(e, &st);
      return;
    }
    p->st = st;
    p->done = 0;
    wl_push(e, &c->w, b);
    return;
  }
  if (target == SIZE_MAX) target = join_target(e, bl, &st);
  if (state_join_into(e, &bl->items[target].st, &st)) {
    bl->items[target].done = 0;
    wl_push(e, &c->w, b);
  }
  state_release(e, &st);
}

/* Forgets the temporaries block b wrote that no other block reads. */
static void kill_block_temps(fctx *c, uint32_t b, astate *s) {
  tc_eng *e = c->fr.e;
  fninfo *fi = c->fr.fi;
  const tc_block *bl = &fi->fn->blocks[b];
  for (uint32_t i = 0; i < bl->n_insns; i++) {
    const tc_insn *in = &bl->insns[i];
    if (!in->has_dst || in->dst.root != TC_ROOT_TEMP || in->dst.id >= fi->fn->n_temps ||
        fi->cross_temp[in->dst.id])
      continue;
    uint32_t l = loc_root(e, LK_TEMP, FRAME_KEY(fi->idx, c->fr.inst), in->dst.id, fi->idx);
    if (!l) continue;
    mem_clear_subtree(e, s, l);
    st_set(e, &s->mem, l, NULL);
  }
}

/* A new iteration of a loop whose iterations are kept apart: the states its body's blocks
   hold from the previous iteration (all processed: the worklist runs blocks in reverse post-
   order, the jump back comes last) are dropped, so each iteration has the whole per-block
   state budget and none is joined with an earlier one. Done when the loop head is next run
   (never while a block of the body is running). */
static void start_iteration(fctx *c, uint32_t head) {
  tc_eng *e = c->fr.e;
  fninfo *fi = c->fr.fi;
  for (uint32_t r = fi->rpo[head]; r <= fi->loop_last[head]; r++) {
    blist *bl = &c->in[fi->by_rpo[r]];
    size_t kept = 0;
    for (size_t i = 0; i < bl->n; i++) {
      if (!bl->items[i].done) {
        bl->items[kept++] = bl->items[i];
        continue;
      }
      /* the head remembers what it ran, so a loop that comes back to a state it had does
         not run it again; its list stays as short as one iteration's */
      if (r == fi->rpo[head] && map_put(&bl->dropped, state_hash(e, &bl->items[i].st), 1))
        e->oom = 1;
      state_release(e, &bl->items[i].st);
    }
    bl->n = kept;
  }
}

static void to_succ(fctx *c, uint32_t from, uint32_t to, astate s) {
  fninfo *fi = c->fr.fi;
  if (to >= fi->fn->n_blocks) {
    state_release(c->fr.e, &s);
    return;
  }
  kill_block_temps(c, from, &s);
  int unroll = keep_iterations_apart(c, from, to, &s);
  if (unroll) c->next_iteration[to] = 1;
  add_state(c, to, s, unroll);
}

/* A branch that left the integer at loc in a range of at most RANGE_SPLIT_MAX values (a
   clamp: `if (k < 0 || k > 1) k = 0;`) sends one state per value on, as a switch over them
   would: what depends on it is exact for each value. Two values at most: splitting a range of
   eight (`n >= 1 && n <= 8 ? n : 3`) before a loop up to n multiplied the program's work past
   its budget. */
#define RANGE_SPLIT_MAX 2
static void to_succ_split(fctx *c, uint32_t from, uint32_t to, astate s, uint32_t loc) {
  tc_eng *e = c->fr.e;
  aval v = loc ? mem_eff(e, &s, loc) : av_top();
  if (v.k != AV_RANGE || v.i == INT64_MIN || v.hi == INT64_MAX ||
      (uint64_t)v.hi - (uint64_t)v.i >= RANGE_SPLIT_MAX) {
    to_succ(c, from, to, s);
    return;
  }
  for (int64_t k = v.i;; k++) {
    astate x = k == v.hi ? s : state_copy(&s);
    aval nv = av_make(AV_INT, k);
    nv.prov = v.prov;
    mem_write(e, &x, loc, &nv, 0);
    to_succ(c, from, to, x);
    if (k == v.hi) break;
  }
}

static tc_sym cond_name(const tc_opnd *o) {
  return (o->kind == TC_OPND_PATH && o->path.root != TC_ROOT_TEMP) ? o->path.spelling : 0;
}

/* An instruction standing for terminator t (its location), so that a check made while it reads
   its condition or returned value (a dereference) has a place to be recorded. */
static const tc_insn *term_insn(tc_eng *e, const tc_term *t) {
  uint64_t key = (uint64_t)(uintptr_t)t;
  uint32_t idx;
  if (map_get(&e->term_insns, key, &idx)) return e->term_insn_list[idx];
  tc_insn *in = bump_alloc(&e->bump, sizeof *in);
  tc_insn **slot = in ? VEC_PUSH(e->term_insn_list, e->n_term_insns, e->cap_term_insns) : NULL;
  if (!slot) {
    e->oom = 1;
    return NULL;
  }
  in->kind = TC_I_ASSIGN;
  in->loc = t->loc;
  *slot = in;
  if (map_put(&e->term_insns, key, (uint32_t)(e->n_term_insns - 1))) e->oom = 1;
  return in;
}

/* A switch over the backend of one of several devices (`switch (ggml_backend_dev_type(dev))`)
   takes case `value` (truth 1) or passes it by (truth 0) only for the members it allows:
   0 when none does, else 1 with the set narrowed (as the comparison `== value` would). */
static int assume_backend_case(tc_eng *e, astate *s, uint32_t set, int64_t value, int truth) {
  aval t = devset_backend_test(e, set, value);
  if (t.k == AV_INT) return (t.i != 0) == truth;
  return t.k == AV_SETTEST ? flow_assume(e, s, &t, truth) : 1;
}

static void terminate(fctx *c, uint32_t b, astate s, state_list *exits) {
  tc_eng *e = c->fr.e;
  fninfo *fi = c->fr.fi;
  const tc_term *t = &fi->fn->blocks[b].term;
  c->fr.in = e->f_data ? term_insn(e, t) : NULL;
  switch (t->kind) {
    case TC_T_GOTO:
      if (t->n_succ >= 1)
        to_succ(c, b, t->succ[0], s);
      else
        state_release(e, &s);
      return;
    case TC_T_BRANCH: {
      if (t->n_succ < 2) {
        state_release(e, &s);
        return;
      }
      uint32_t single = 0;
      aval v = mem_eval(&c->fr, &s, &t->cond, &single);
      flow_check_touches(&c->fr, &s);
      int tr = truth_of(&s, &v);
      if (tr >= 0) {
        c->decided[b] = 1;
        s.decided_branches |= branch_bit(b);
        to_succ(c, b, t->succ[tr ? 0 : 1], s);
        return;
      }
      if (t->only_when_known) { /* a test that only decides: not known, the usual way on */
        to_succ(c, b, t->succ[0], s);
        return;
      }
      uint32_t s_avail_no = s.avail_no;
      for (int side = 1; side >= 0; side--) {
        astate x = side ? state_copy(&s) : s;
        int ok = flow_assume(e, &x, &v, side);
        if (ok && single) ok = assume_rel(e, &x, single, side ? DR_NE : DR_EQ, 0, &t->loc);
        uint32_t learned = x.avail_no & ~s_avail_no;
        for (int bk = 0; ok && bk < 32; bk++)
          if (learned & (1u << bk)) x.path = pathnote_new(e, x.path, &t->loc, 0, 0, bk);
        if (ok) x.path = pathnote_new(e, x.path, &t->loc, cond_name(&t->cond), side, -1);
        x.uncertain = 1;
        if (x.merged) x.decorrelated = (uint32_t)e->n_tagsets;
        x.decided_branches &= ~branch_bit(b);
        if (ok)
          to_succ_split(c, b, t->succ[side ? 0 : 1], x, v.drel != DR_NONE ? v.dloc : 0);
        else
          state_release(e, &x);
      }
      return;
    }
    case TC_T_SWITCH: {
      uint32_t single = 0;
      aval v = mem_eval(&c->fr, &s, &t->cond, &single);
      flow_check_touches(&c->fr, &s);
      if (t->n_succ < t->n_cases + 1) {
        state_release(e, &s);
        return;
      }
      if (v.k == AV_INT) {
        uint32_t k = t->n_cases;
        for (uint32_t i = 0; i < t->n_cases; i++)
          if (t->case_values[i] == v.i) {
            k = i;
            break;
          }
        to_succ(c, b, t->succ[k], s);
        return;
      }
      uint32_t src = single;
      if (!src && v.drel == DR_NE && v.dc == 0) src = v.dloc;
      uint32_t set = 0;
      int field = -1;
      if (!devset_field(&v, &set, &field) || field != 0) set = 0;
      for (uint32_t i = 0; i <= t->n_cases; i++) {
        astate x = state_copy(&s);
        x.uncertain = 1;
        if (x.merged) x.decorrelated = (uint32_t)e->n_tagsets;
        int ok = 1;
        if (i < t->n_cases) {
          if (v.k == AV_NE && v.i == t->case_values[i]) ok = 0;
          if (ok && src) ok = assume_rel(e, &x, src, DR_EQ, t->case_values[i], &t->loc);
          if (ok && set) ok = assume_backend_case(e, &x, set, t->case_values[i], 1);
          if (ok)
            x.path = pathnote_new(e, x.path, &t->loc, cond_name(&t->cond),
                                  (int32_t)(t->case_values[i] + 2), -1);
        } else if (src) {
          for (uint32_t k = 0; k < t->n_cases && ok; k++)
            ok = assume_rel(e, &x, src, DR_NE, t->case_values[k], &t->loc);
        }
        for (uint32_t k = 0; i == t->n_cases && set && k < t->n_cases && ok; k++)
          ok = assume_backend_case(e, &x, set, t->case_values[k], 0);
        if (ok)
          to_succ_split(c, b, t->succ[i], x, src);
        else
          state_release(e, &x);
      }
      state_release(e, &s);
      return;
    }
    case TC_T_RETURN:
      if (t->cond.kind != TC_OPND_NONE) {
        uint32_t ret = loc_root(e, LK_RET, FRAME_KEY(fi->idx, c->fr.inst), 0, fi->idx);
        targets st;
        if (mem_is_record_type(&fi->fn->ret_type) && t->cond.kind == TC_OPND_PATH &&
            mem_resolve(&c->fr, &s, &t->cond.path, &st) && st.n >= 1 && !st.overflow) {
          mem_copy_joined(e, &s, ret, &st, &fi->fn->ret_type, 0, NULL);
        } else {
          aval v = mem_eval(&c->fr, &s, &t->cond, NULL);
          v.drel = DR_NONE;
          mem_write(e, &s, ret, &v, 0);
        }
        flow_check_touches(&c->fr, &s);
      }
      slist_push(e, exits, s);
      return;
    case TC_T_UNREACHABLE:
      state_release(e, &s);
      return;
  }
  state_release(e, &s);
}

static void run_block(fctx *c, uint32_t b, astate st, state_list *exits) {
  tc_eng *e = c->fr.e;
  const tc_block *bl = &c->fr.fi->fn->blocks[b];
  state_list cur = {0};
  slist_push(e, &cur, st);
  for (uint32_t i = 0; i < bl->n_insns && cur.n; i++) {
    state_list next = {0};
    e->work += cur.n;
    for (size_t k = 0; k < cur.n; k++) transfer(&c->fr, cur.items[k], &bl->insns[i], &next);
    free(cur.items);
    cur = next;
    if (cur.n > c->max_states) slist_merge_to(e, &cur, c->max_states);
  }
  for (size_t k = 0; k < cur.n; k++) terminate(c, b, cur.items[k], exits);
  free(cur.items);
}

#define RERUN_BUDGET 4

/* Runs c's worklist from entry (ownership taken) within budget: 1 when it ran past it. */
static int explore(fctx *c, astate entry, uint64_t budget, state_list *exits) {
  tc_eng *e = c->fr.e;
  uint64_t start = e->work;
  c->work_start = start;
  c->budget = budget;
  add_state(c, 0, entry, 0);
  while (c->w.n) {
    uint32_t b = wl_pop(&c->w);
    if (c->next_iteration[b]) start_iteration(c, b);
    c->next_iteration[b] = 0;
    for (size_t i = 0; i < c->in[b].n; i++) {
      if (c->in[b].items[i].done) continue;
      c->in[b].items[i].done = 1;
      astate st = state_copy(&c->in[b].items[i].st);
      run_block(c, b, st, exits);
      if (e->work - start > budget || e->work > e->work_limit || e->oom) return 1;
    }
  }
  return 0;
}

/* Forgets every block's states and the worklist (c stays ready for another exploration). */
static void drop_block_states(fctx *c, uint32_t nb) {
  tc_eng *e = c->fr.e;
  for (uint32_t b = 0; b < nb; b++) {
    for (size_t i = 0; i < c->in[b].n; i++) state_release(e, &c->in[b].items[i].st);
    free(c->in[b].items);
    map_free(&c->in[b].dropped);
    memset(&c->in[b], 0, sizeof c->in[b]);
  }
  c->w.n = 0;
  memset(c->w.queued, 0, nb);
  memset(c->decided, 0, nb);
  memset(c->next_iteration, 0, nb);
}

int flow_analyze(tc_eng *e, fninfo *fi, uint32_t inst, astate entry, state_list *exits) {
  if (prepare(e, fi) || !fi->fn->n_blocks) {
    state_release(e, &entry);
    return e->oom ? -1 : 0;
  }
  uint32_t nb = fi->fn->n_blocks;
  fctx c;
  memset(&c, 0, sizeof c);
  c.fr.e = e;
  c.fr.fi = fi;
  c.fr.inst = inst;
  c.max_states = fi->relevant || fi->moves_tags ? e->max_states : 1;
  c.in = calloc(nb, sizeof *c.in);
  c.w.queued = calloc(nb, 1);
  c.decided = calloc(nb, 1);
  c.next_iteration = calloc(nb, 1);
  c.w.rpo = fi->rpo;
  if (!c.in || !c.w.queued || !c.decided || !c.next_iteration) {
    free(c.in);
    free(c.w.queued);
    free(c.decided);
    free(c.next_iteration);
    state_release(e, &entry);
    e->oom = 1;
    return -1;
  }
  uint64_t budget = 20000 + 200ull * fi->n_insns;
  /* past its budget a function is analyzed again joined: one state per block, no loop
     unrolled, a fresh budget of RERUN_BUDGET times the first (most of a caller's work is its
     callees', which their own budgets bound); it gives what joined states can say (warnings where paths
     differ) instead of nothing, so the code after its costly part — a main whose options
     parser returns a state per flag — is analyzed at all */
  astate spare = c.max_states > 1 ? state_copy(&entry) : (astate){0};
  int have_spare = c.max_states > 1;
  if (e->observe) observe_entry(&c.fr, &entry);
  int aborted = explore(&c, entry, budget, exits);
  if (aborted && have_spare && !e->oom && e->work <= e->work_limit) {
    slist_release(e, exits);
    drop_block_states(&c, nb);
    c.max_states = 1;
    c.joined_rerun = 1;
    e->n_budget_reruns++;
    have_spare = 0;
    aborted = explore(&c, spare, budget * RERUN_BUDGET, exits);
  }
  if (have_spare) state_release(e, &spare);
  if (aborted) e->n_budget_stops++;
  drop_block_states(&c, nb);
  free(c.fr.touched);
  free(c.in);
  free(c.w.heap);
  free(c.w.queued);
  free(c.decided);
  free(c.next_iteration);
  if (aborted) {
    slist_release(e, exits);
    return -1;
  }
  slist_merge_to(e, exits, c.max_states);
  return 0;
}
