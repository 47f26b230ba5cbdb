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

int av_same(const aval *a, const aval *b) {
  if (a->k != b->k) return 0;
  switch ((av_kind)a->k) {
    case AV_ABSENT:
    case AV_BOT:
    case AV_MULTI:
    case AV_TOP:
      return 1;
    case AV_INT:
    case AV_NE:
    case AV_SYM:
    case AV_FUNC:
      return a->i == b->i;
    case AV_ADDR:
      return a->loc == b->loc && a->i == b->i;
    case AV_TENSOR:
      return tc_tag_same(a->tag, b->tag);
    case AV_AVAIL:
      return a->i == b->i && a->neg == b->neg;
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
    case AV_BOT:
    case AV_ABSENT:
      return 1;
    case AV_MULTI:
    case AV_ADDR:
    case AV_FUNC:
    case AV_TENSOR:
      return 0;
  }
  return 0;
}

aval av_join(const aval *a, const aval *b) {
  if (a->k == AV_ABSENT || a->k == AV_BOT) return *b;
  if (b->k == AV_ABSENT || b->k == AV_BOT) return *a;
  if (av_same(a, b)) {
    aval r = *a;
    if (a->drel != b->drel || a->dloc != b->dloc || a->dc != b->dc) r.drel = DR_NONE;
    return r;
  }
  aval r = av_top();
  if (a->k == AV_MULTI || b->k == AV_MULTI) return av_make(AV_MULTI, 0);
  if (a->k == AV_TENSOR && b->k == AV_TENSOR) {
    r = *a;
    r.tag = tc_tag_join(a->tag, b->tag);
    r.drel = DR_NONE;
    return r;
  }
  if (a->k == AV_ADDR && b->k == AV_ADDR && a->loc == b->loc) {
    r = *a;
    r.i = IDX_ANY;
    return r;
  }
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

int64_t sym_fresh(tc_eng *e) { return e->next_sym++; }
