/* analyzer/src/engine/api_size.c — what is known of a container's size and of an iterator's
 * position (rules: store effects, "inserts", "size_of_arg", "empty_of_arg", "position",
 * "iterators_equal"/"iterators_differ", "advance", "may_empty", "constructs_empty";
 * docs/rules.md): a container an element was put in is not empty, so a loop over it
 * (range-for, begin() != end(), i < size(), !empty()) runs at least once; one its default
 * constructor made, or a branch found empty, is empty until something is put in (a count of a
 * key is 0, a find is its end). A pseudo-field no path wrote is unknown (a container made
 * elsewhere may hold anything). */
#include "engine/api_call.h"

/* The place of pseudo-field `field` of obj, when it holds a value of its own on this path. */
static const aval *own_value(const tc_eng *e, const astate *s, uint32_t obj, uint32_t field) {
  uint32_t at = obj && field ? loc_find_child(e, obj, LK_FIELD, field, 0) : 0;
  return at ? st_get(&s->mem, at) : NULL;
}

int api_size_nonempty(const tc_eng *e, const astate *s, uint32_t obj) {
  const aval *v = own_value(e, s, obj, e->f_count);
  if (!v) return 0;
  if (v->k == AV_NE && v->i == 0) return 1; /* a size is never negative */
  int64_t lo, hi;
  av_bounds(v, &lo, &hi);
  return (v->k == AV_RANGE || v->k == AV_INT) && lo >= 1;
}

aval api_size_empty(tc_eng *e, const astate *s, uint32_t obj) {
  if (!obj) return av_top();
  if (api_size_nonempty(e, s, obj)) return av_make(AV_INT, 0);
  if (api_size_known_empty(e, s, obj)) return av_make(AV_INT, 1); /* made or found empty */
  /* not known: true iff the size is 0, so a branch on it says which on each side
     (`if (gpus_.empty()) return;` leaves a container the path knows is empty) */
  uint32_t at = api_pseudo_field(e, obj, e->f_count);
  aval v = av_top();
  if (!at) return v;
  aval snap = mem_eff(e, s, at);
  v.drel = DR_EQ;
  v.dloc = at;
  v.dc = 0;
  v.dsnap_k = snap.k;
  v.dsnap_i = snap.i;
  return v;
}

int api_size_known_empty(const tc_eng *e, const astate *s, uint32_t obj) {
  const aval *v = own_value(e, s, obj, e->f_count);
  return v && v->k == AV_INT && v->i == 0;
}

void api_size_mark_empty(tc_eng *e, astate *s, uint32_t obj) {
  uint32_t at = api_pseudo_field(e, obj, e->f_count);
  if (!at) return;
  aval zero = av_make(AV_INT, 0);
  mem_write(e, s, at, &zero, e->locs[at].summarized); /* one of several: joined */
}

void api_size_mark_nonempty(tc_eng *e, astate *s, uint32_t obj) {
  uint32_t at = api_pseudo_field(e, obj, e->f_count);
  if (!at) return;
  /* a container among several (a summary place) may be another one: joined, which an
     unwritten one makes unknown */
  aval v = e->locs[at].summarized && !api_size_nonempty(e, s, obj) ? av_top()
                                                                   : av_range(1, INT64_MAX);
  mem_write(e, s, at, &v, 0);
}

/* Pseudo-field `field` of obj holds nothing of its own any more (unknown). */
static void forget_own(tc_eng *e, astate *s, uint32_t obj, uint32_t field) {
  uint32_t at = obj && field ? loc_find_child(e, obj, LK_FIELD, field, 0) : 0;
  if (at) st_set(e, &s->mem, at, NULL);
}

void api_size_forget(tc_eng *e, astate *s, uint32_t obj) { forget_own(e, s, obj, e->f_count); }

int api_size_is_pseudo_field(const tc_eng *e, uint32_t loc) {
  const eloc *l = &e->locs[loc];
  return l->kind == LK_FIELD && l->a && (l->a == e->f_count || l->a == e->f_at);
}

/* Positions ($at): an iterator that is a non-empty container's begin(), or an end(). */
/* AT_EMPTY: any iterator of a container known empty (its begin, its end, a find in it) */
enum { AT_BEGIN_NONEMPTY = 1, AT_END = 2, AT_EMPTY = 3 };

void api_position_write(call_ctx *c, int position, uint32_t container) {
  tc_eng *e = c->f->e;
  if (!c->in->has_dst || position == TC_POS_NONE) return;
  targets t;
  if (!mem_resolve(c->f, c->s, &c->in->dst, &t) || t.overflow) return;
  aval v = av_top();
  if (api_size_known_empty(e, c->s, container)) v = av_make(AV_INT, AT_EMPTY);
  else if (position == TC_POS_END) v = av_make(AV_INT, AT_END);
  else if (api_size_nonempty(e, c->s, container)) v = av_make(AV_INT, AT_BEGIN_NONEMPTY);
  if (t.weak || t.n != 1) v = av_top();
  for (int i = 0; i < t.n; i++) {
    uint32_t at = api_pseudo_field(e, t.loc[i], e->f_at);
    if (at) mem_write(e, c->s, at, &v, 0);
  }
}

void api_position_forget(call_ctx *c, int argi) {
  int elem;
  forget_own(c->f->e, c->s, api_memory_target(c, argi, &elem), c->f->e->f_at);
}

aval api_iterators_equal(call_ctx *c, int a, int b) {
  tc_eng *e = c->f->e;
  int elem;
  uint32_t oa = api_memory_target(c, a, &elem), ob = api_memory_target(c, b, &elem);
  const aval *pa = own_value(e, c->s, oa, e->f_at), *pb = own_value(e, c->s, ob, e->f_at);
  if (!pa || !pb || pa->k != AV_INT || pb->k != AV_INT) return av_top();
  if ((pa->i == AT_BEGIN_NONEMPTY && pb->i == AT_END) ||
      (pa->i == AT_END && pb->i == AT_BEGIN_NONEMPTY))
    return av_make(AV_INT, 0);
  /* in an empty container every iterator is its end (comparing iterators of two containers
     is undefined: they are taken to be one container's) */
  if ((pa->i == AT_EMPTY && (pb->i == AT_END || pb->i == AT_EMPTY)) ||
      (pb->i == AT_EMPTY && pa->i == AT_END))
    return av_make(AV_INT, 1);
  return av_top();
}
