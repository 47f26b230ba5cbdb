/* analyzer/src/engine/value.c — abstract values (what a place holds) and their lattice
 * operations, plus the provenance steps and path notes that explain a finding. */
#include <string.h>

#include "engine/eng.h"

aval av_make(av_kind k, int64_t i) {
  aval v;
  memset(&v, 0, sizeof v);
  v.k = (uint8_t)k;
  v.i = i;
  return v;
}

aval av_top(void) { return av_make(AV_TOP, 0); }

aval av_range(int64_t lo, int64_t hi) {
  if (lo == hi) return av_make(AV_INT, lo);
  if (lo == INT64_MIN && hi == INT64_MAX) return av_top();
  aval v = av_make(AV_RANGE, lo);
  v.hi = hi;
  return v;
}

void av_bounds(const aval *v, int64_t *lo, int64_t *hi) {
  *lo = INT64_MIN;
  *hi = INT64_MAX;
  if (v->k == AV_INT) *lo = *hi = v->i;
  if (v->k == AV_RANGE) {
    *lo = v->i;
    *hi = v->hi;
  }
}

/* The join of two integers one of which is a range: their hull when it is one of them (the
   other lies inside) or holds at most RANGE_JOIN_MAX values, else unknown. A chain of joins
   can so only grow a few steps before it reaches unknown: loops stay short. */
#define RANGE_JOIN_MAX 8
static aval range_join(const aval *a, const aval *b) {
  int64_t alo, ahi, blo, bhi;
  av_bounds(a, &alo, &ahi);
  av_bounds(b, &blo, &bhi);
  int64_t lo = alo < blo ? alo : blo, hi = ahi > bhi ? ahi : bhi;
  int a_holds = lo == alo && hi == ahi, b_holds = lo == blo && hi == bhi;
  int small = lo > INT64_MIN && hi < INT64_MAX && (uint64_t)hi - (uint64_t)lo < RANGE_JOIN_MAX;
  if (!a_holds && !b_holds && !small) return av_top();
  aval r = av_range(lo, hi);
  r.prov = a->prov ? a->prov : b->prov;
  return r;
}

aval av_poison_over(const aval *v) {
  poison_nullness n = POISON_MAYBE_NULL;
  if (v->k == AV_INT && v->i == 0) n = POISON_NULL;
  else if (v->k == AV_POISON) n = (poison_nullness)v->i;
  else if ((v->k == AV_TENSOR || v->k == AV_ADDR || v->k == AV_ADDRSET) && !v->neg)
    n = POISON_NOT_NULL;
  else if (v->k == AV_FUNC && !v->neg) n = POISON_NOT_NULL;
  return av_make(AV_POISON, n);
}

int av_same(const aval *a, const aval *b) {
  if (a->k != b->k) return 0;
  switch ((av_kind)a->k) {
    case AV_ABSENT:
    case AV_BOT:
    case AV_MULTI:
    case AV_TOP:
      return 1;
    case AV_POISON:
      return a->i == b->i;
    case AV_INT:
    case AV_NE:
    case AV_SYM:
      return a->i == b->i;
    case AV_FUNC:
      return a->i == b->i && a->neg == b->neg;
    case AV_ADDRSET:
      return a->i == b->i && a->neg == b->neg;
    case AV_ADDR:
      return a->loc == b->loc && a->i == b->i && a->neg == b->neg;
    case AV_TENSOR:
      return tc_tag_same(a->tag, b->tag) && a->i == b->i && a->loc == b->loc && a->neg == b->neg;
    case AV_DATAPTR:
      return tc_tag_same(a->tag, b->tag) && a->i == b->i;
    case AV_AVAIL:
    case AV_SETTEST:
      return a->i == b->i && a->neg == b->neg;
    case AV_STR:
      return a->i == b->i;
    case AV_RANGE:
      return a->i == b->i && a->hi == b->hi;
  }
  return 0;
}

int av_intlike(const aval *a) {
  switch ((av_kind)a->k) {
    case AV_INT:
    case AV_NE:
    case AV_SYM:
    case AV_TOP:
    case AV_AVAIL:
    case AV_SETTEST:
    case AV_BOT:
    case AV_ABSENT:
    case AV_RANGE:
      return 1;
    case AV_MULTI:
    case AV_ADDR:
    case AV_ADDRSET:
    case AV_FUNC:
    case AV_TENSOR:
    case AV_POISON:
    case AV_DATAPTR:
    case AV_STR:
      return 0;
  }
  return 0;
}

const ptset *ptset_get(const tc_eng *e, int64_t id) {
  return id >= 0 && (size_t)id < e->n_ptsets ? &e->ptsets[id] : NULL;
}

void av_targets(const tc_eng *e, const aval *v, ptset *s) {
  s->n = 0;
  if (v->k == AV_ADDR) {
    s->n = 1;
    s->loc[0] = v->loc;
    s->idx[0] = v->i;
  } else if (v->k == AV_ADDRSET) {
    const ptset *p = ptset_get(e, v->i);
    if (p) *s = *p;
  }
}

/* Adds (loc, idx) to s, keeping it sorted; same place with another index: any index. */
static int pts_add(ptset *s, uint32_t loc, int64_t idx) {
  for (uint32_t i = 0; i < s->n; i++)
    if (s->loc[i] == loc) {
      if (s->idx[i] != idx) s->idx[i] = IDX_ANY;
      return 0;
    }
  if (s->n >= PTS_MAX) return -1;
  uint32_t i = s->n++;
  while (i > 0 && s->loc[i - 1] > loc) {
    s->loc[i] = s->loc[i - 1];
    s->idx[i] = s->idx[i - 1];
    i--;
  }
  s->loc[i] = loc;
  s->idx[i] = idx;
  return 0;
}

static int64_t ptset_intern(tc_eng *e, const ptset *s) {
  uint64_t h = hash_bytes(0x9157ull, s->loc, s->n * sizeof s->loc[0]);
  h = hash_bytes(h, s->idx, s->n * sizeof s->idx[0]);
  for (uint64_t attempt = 0;; attempt++) {
    uint64_t k = attempt ? hash_mix(h, attempt) : h;
    uint32_t id;
    if (!map_get(&e->ptset_index, k, &id)) {
      ptset *p = VEC_PUSH(e->ptsets, e->n_ptsets, e->cap_ptsets);
      if (!p) {
        e->oom = 1;
        return -1;
      }
      *p = *s;
      id = (uint32_t)(e->n_ptsets - 1);
      if (map_put(&e->ptset_index, k, id)) e->oom = 1;
      return id;
    }
    const ptset *q = &e->ptsets[id];
    if (q->n == s->n && !memcmp(q->loc, s->loc, s->n * sizeof s->loc[0]) &&
        !memcmp(q->idx, s->idx, s->n * sizeof s->idx[0]))
      return id;
  }
}

static aval addr_union(tc_eng *e, const aval *a, const aval *b) {
  ptset s, t;
  av_targets(e, a, &s);
  av_targets(e, b, &t);
  for (uint32_t i = 0; i < t.n; i++)
    if (pts_add(&s, t.loc[i], t.idx[i])) return av_top();
  if (s.n == 1) {
    aval r = av_make(AV_ADDR, s.idx[0]);
    r.loc = s.loc[0];
    return r;
  }
  int64_t id = ptset_intern(e, &s);
  return id < 0 ? av_top() : av_make(AV_ADDRSET, id);
}

void tloc_members(const tc_eng *e, uint32_t loc, ptset *out) {
  out->n = 0;
  if (!(loc & TLOC_SET)) {
    if (loc) {
      out->n = 1;
      out->loc[0] = loc;
      out->idx[0] = IDX_NONE;
    }
    return;
  }
  const ptset *p = ptset_get(e, loc & ~TLOC_SET);
  if (p) *out = *p;
}

uint32_t tloc_of(tc_eng *e, const ptset *objs) {
  ptset s = {0};
  for (uint32_t i = 0; i < objs->n; i++)
    if (objs->loc[i] & TLOC_SET || pts_add(&s, objs->loc[i], IDX_NONE)) return 0;
  if (s.n <= 1) return s.n ? s.loc[0] : 0;
  int64_t id = ptset_intern(e, &s);
  return id < 0 || (uint64_t)id >= TLOC_SET ? 0 : TLOC_SET | (uint32_t)id;
}

uint32_t tloc_union(tc_eng *e, uint32_t a, uint32_t b) {
  if (a == b) return a;
  if (!a || !b) return 0;
  ptset s, t;
  tloc_members(e, a, &s);
  tloc_members(e, b, &t);
  for (uint32_t i = 0; i < t.n; i++)
    if (pts_add(&s, t.loc[i], IDX_NONE)) return 0;
  return tloc_of(e, &s);
}

int tloc_has(const tc_eng *e, uint32_t loc, uint32_t ctx) {
  ptset s;
  tloc_members(e, loc, &s);
  for (uint32_t i = 0; i < s.n; i++)
    if (s.loc[i] == ctx) return 1;
  return 0;
}

uint32_t tloc_without(tc_eng *e, uint32_t loc, uint32_t ctx) {
  ptset s, t = {0};
  tloc_members(e, loc, &s);
  for (uint32_t i = 0; i < s.n; i++)
    if (s.loc[i] != ctx) t.loc[t.n++] = s.loc[i], t.idx[t.n - 1] = IDX_NONE;
  return tloc_of(e, &t);
}

static int is_null(const aval *v) { return v->k == AV_INT && v->i == 0; }

aval av_join(tc_eng *e, const aval *a, const aval *b) {
  if (a->k == AV_ABSENT || a->k == AV_BOT) return *b;
  if (b->k == AV_ABSENT || b->k == AV_BOT) return *a;
  /* a poisoned value exists only on paths that already failed a check (which stop there
     when errors abort): the other path's value is the one that matters */
  if (a->k == AV_POISON && b->k == AV_POISON) /* poison both ways: their nullness joined */
    return av_make(AV_POISON, a->i == b->i ? a->i : POISON_MAYBE_NULL);
  if (a->k == AV_POISON) return *b;
  if (b->k == AV_POISON) return *a;
  if (av_same(a, b)) {
    aval r = *a;
    if (a->drel != b->drel || a->dloc != b->dloc || a->dc != b->dc) r.drel = DR_NONE;
    return r;
  }
  aval r = av_top();
  if (a->k == AV_MULTI || b->k == AV_MULTI) return av_make(AV_MULTI, 0);
  if ((a->k == AV_TENSOR && b->k == AV_TENSOR) || (a->k == AV_DATAPTR && b->k == AV_DATAPTR)) {
    r = *a;
    r.tag = tc_tag_join(a->tag, b->tag);
    r.i = 0;
    /* tensors that disagree are one of their tags (tagset.c), not unknown */
    tensor_join_tags(e, a, b, &r); /* a data pointer: of one of its tensors' tags too */
    /* made in different contexts: in one of them (a later allocation of each places it) */
    if (a->loc != b->loc) r.loc = a->k == AV_TENSOR ? tloc_union(e, a->loc, b->loc) : 0;
    r.neg = a->neg | b->neg;
    r.drel = DR_NONE;
    return r;
  }
  if ((a->k == AV_ADDR || a->k == AV_ADDRSET) && (b->k == AV_ADDR || b->k == AV_ADDRSET)) {
    r = addr_union(e, a, b);
    if (r.k != AV_TOP) r.neg = a->neg | b->neg;
    return r;
  }
  /* NULL or an address (or a handle, or a function): that, maybe NULL (a branch on it tells
     which; a call through it calls the function) */
  const aval *ptr = is_null(b) ? a : is_null(a) ? b : NULL;
  if (ptr && (ptr->k == AV_ADDR || ptr->k == AV_ADDRSET || ptr->k == AV_TENSOR ||
              ptr->k == AV_FUNC)) {
    r = *ptr;
    r.neg = 1;
    r.drel = DR_NONE;
    return r;
  }
  if ((a->k == AV_RANGE && (b->k == AV_INT || b->k == AV_RANGE)) ||
      (b->k == AV_RANGE && a->k == AV_INT))
    return range_join(a, b);
  if (a->k == AV_INT && b->k == AV_NE && a->i != b->i) return *b;
  if (a->k == AV_NE && b->k == AV_INT && a->i != b->i) return *a;
  return r;
}

const prov *prov_new(tc_eng *e, prov_kind k, const prov *prev, const tc_srcloc *loc, tc_sym name,
                     tc_sym name2, tc_tag tag) {
  prov *p = bump_alloc(&e->bump, sizeof *p);
  if (!p) {
    e->oom = 1;
    return prev;
  }
  p->prev = prev;
  p->loc = loc;
  p->name = name;
  p->name2 = name2;
  p->kind = (uint8_t)k;
  p->lookup = 0;
  p->n_operands = 0;
  p->operands_partial = 0;
  p->one_of = 0;
  p->operands = NULL;
  p->tag = tag;
  p->depth = (uint16_t)(prev && prev->depth < 60000 ? prev->depth + 1 : 1);
  return p;
}

const pathnote *pathnote_new(tc_eng *e, const pathnote *prev, const tc_srcloc *loc, tc_sym what,
                             int32_t taken, int32_t backend) {
  pathnote *p = bump_alloc(&e->bump, sizeof *p);
  if (!p) {
    e->oom = 1;
    return prev;
  }
  p->prev = prev;
  p->loc = loc;
  p->what = what;
  p->taken = taken;
  p->backend = backend;
  p->depth = prev ? prev->depth + 1 : 1;
  return p;
}

int64_t sym_of_loc(uint32_t loc, unsigned which) { return ((int64_t)loc << 2) | (which & 3); }
