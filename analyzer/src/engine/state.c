/* analyzer/src/engine/state.c — the state algebra the fixpoint needs, above the memory model:
 * copying and releasing abstract states, equality and hashes, join (device fields joined as one
 * device among a few, read through mem.c), distance, diffs (function summaries) and refining
 * the copies of a refined value. The map itself is the store's (store.c). */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

astate state_copy(const astate *s) {
  astate c = *s;
  c.mem = st_copy(&s->mem);
  return c;
}

void state_release(tc_eng *e, astate *s) { st_release(e, &s->mem); }

/* ---- comparing, joining and diffing states ---- */

static int identical(const aval *a, const aval *b) {
  return av_same(a, b) && a->prov == b->prov && a->drel == b->drel && a->dloc == b->dloc &&
         a->dc == b->dc && a->neg == b->neg;
}

static uint64_t state_hash2(tc_eng *e, const astate *s, int tags_only) {
  (void)e;
  uint64_t h = st_content_hash(&s->mem, tags_only);
  /* whether the state is decorrelated, not since when: a loop that meets its branch again
     (with more tag sets interned by then) reaches its fixpoint as before */
  h = hash_mix(h, 0x5ea1ull + (s->decorrelated != 0));
  return hash_mix(hash_mix(h, ((uint64_t)s->avail_yes << 32) | s->avail_no), s->avail_reported);
}

uint64_t state_hash(tc_eng *e, const astate *s) { return state_hash2(e, s, 0); }

uint64_t state_tag_hash(tc_eng *e, const astate *s) { return state_hash2(e, s, 1); }

int state_equal(tc_eng *e, const astate *a, const astate *b) {
  /* contents as av_same sees them, by their 64-bit hashes */
  return state_hash(e, a) == state_hash(e, b);
}

typedef struct join_ent {
  uint32_t id;
  aval v;
} join_ent;

typedef struct join_acc {
  tc_eng *e;
  const astate *a, *b;
  join_ent *ents;
  size_t n, cap;
} join_acc;

/* The devices the struct holding device field `id` holds in s, into out; 0 if unknown. */
static int devices_at(tc_eng *e, const astate *s, uint32_t id, tagset *out) {
  int k;
  const struct devtype *dt = devtype_of_field(e, e->locs[id].a, &k);
  uint32_t parent = e->locs[id].parent;
  if (!dt || !parent) return 0;
  uint32_t fids[3] = {dt->f_backend, dt->f_ordinal, dt->f_autodiff};
  aval fv[3];
  for (int f = 0; f < 3; f++) {
    uint32_t fl = loc_find_child(e, parent, LK_FIELD, fids[f], 0);
    fv[f] = fl ? mem_eff(e, s, fl) : av_top();
    if (!av_intlike(&fv[f]) || fv[f].k == AV_BOT || fv[f].k == AV_ABSENT) return 0;
  }
  return device_members(e, fv, out);
}

/* A device field whose paths disagree: field k of the set of both paths' devices, so the
   three fields stay one device among a few (dt_sim(0) on one path, dt_cpu() on the other)
   instead of three unknown integers. 0 when that cannot be said. */
static int join_device_field(tc_eng *e, const astate *sa, const astate *sb, uint32_t id,
                             const aval *ea, const aval *eb, aval *r) {
  int k;
  if (!av_intlike(ea) || !av_intlike(eb) || !devtype_of_field(e, e->locs[id].a, &k)) return 0;
  tagset a, b, x;
  if (!devices_at(e, sa, id, &a) || !devices_at(e, sb, id, &b) || tagset_union(&a, &b, &x))
    return 0;
  for (uint32_t i = 0; i < x.n; i++)
    if (!TC_TAGF_KNOWN(x.tag[i].backend) && !TC_TAGF_KNOWN(x.tag[i].ordinal)) return 0;
  uint32_t set = tagset_intern(e, &x);
  if (!set) return 0;
  *r = device_field_of_set(e, set, k, ea->prov ? ea->prov : eb->prov);
  return 1;
}

static int join_fn(void *user, uint32_t id, const aval *a, const aval *b) {
  join_acc *j = user;
  if (av_same(a, b)) return 0;
  aval ea = a->k == AV_ABSENT ? mem_eff(j->e, j->a, id) : *a;
  aval eb = b->k == AV_ABSENT ? mem_eff(j->e, j->b, id) : *b;
  aval r;
  if (api_size_is_pseudo_field(j->e, id) && (a->k == AV_ABSENT || b->k == AV_ABSENT))
    r = av_top(); /* known on one path only: a container not filled there may be empty */
  else if (!(loc_is_device_field(j->e, id) &&
             join_device_field(j->e, j->a, j->b, id, &ea, &eb, &r)))
    r = av_join(j->e, &ea, &eb);
  if (a->k != AV_ABSENT && av_same(&r, a)) return 0;
  if (a->k == AV_ABSENT && av_same(&r, &ea)) return 0;
  join_ent *je = VEC_PUSH(j->ents, j->n, j->cap);
  if (!je) {
    j->e->oom = 1;
    return 1;
  }
  je->id = id;
  je->v = r;
  return 0;
}

int state_join_into(tc_eng *e, astate *a, const astate *b) {
  join_acc j = {e, a, b, NULL, 0, 0};
  st_walk_pairs(e, &a->mem, &b->mem, 1, join_fn, &j);
  int changed = j.n > 0;
  for (size_t i = 0; i < j.n; i++) st_set(e, &a->mem, j.ents[i].id, &j.ents[i].v);
  free(j.ents);
  uint32_t ay = a->avail_yes & b->avail_yes, an = a->avail_no & b->avail_no;
  if (ay != a->avail_yes || an != a->avail_no) changed = 1;
  a->avail_yes = ay;
  a->avail_no = an;
  if ((a->avail_reported & b->avail_reported) != a->avail_reported) changed = 1;
  a->avail_reported &= b->avail_reported;
  a->uncertain |= b->uncertain | (a->path != b->path);
  a->merged |= b->merged | (a->path != b->path);
  a->decided_branches &= b->decided_branches;
  if (b->decorrelated > a->decorrelated) a->decorrelated = b->decorrelated;
  if (a->path != b->path) a->path = NULL; /* the joined state took no single path */
  return changed;
}

typedef struct dist_acc {
  tc_eng *e;
  uint32_t dist, limit;
  int int_only;
} dist_acc;

static int dist_fn(void *user, uint32_t id, const aval *a, const aval *b) {
  dist_acc *x = user;
  if (av_same(a, b)) return 0;
  if (av_intlike(a) && av_intlike(b) && !loc_is_device_field(x->e, id)) {
    x->dist += 1;
  } else {
    x->dist += 16;
    x->int_only = 0;
  }
  return x->dist > x->limit;
}

uint32_t state_distance(tc_eng *e, const astate *a, const astate *b, int *int_only,
                        uint32_t limit) {
  dist_acc x = {e, 0, limit, 1};
  st_walk_pairs(e, &a->mem, &b->mem, 1, dist_fn, &x);
  if (a->avail_yes != b->avail_yes || a->avail_no != b->avail_no) {
    x.dist += 16;
    x.int_only = 0;
  }
  if (int_only) *int_only = x.int_only;
  return x.dist;
}

typedef struct diff_acc {
  tc_eng *e;
  delta_ent **out;
  size_t *n, *cap;
} diff_acc;

static int diff_fn(void *user, uint32_t id, const aval *a, const aval *b) {
  diff_acc *x = user;
  if (identical(a, b)) return 0;
  delta_ent *de = VEC_PUSH(*x->out, *x->n, *x->cap);
  if (!de) {
    x->e->oom = 1;
    return 1;
  }
  de->id = id;
  de->v = *b;
  return 0;
}

int state_diff(tc_eng *e, const astate *from, const astate *to, delta_ent **out, size_t *n,
               size_t *cap) {
  diff_acc x = {e, out, n, cap};
  st_walk_pairs(e, &from->mem, &to->mem, 0, diff_fn, &x);
  return e->oom ? -1 : 0;
}

void state_refine_copies(tc_eng *e, astate *s, uint32_t src, const aval *before,
                         const aval *now) {
  uint32_t *ids = NULL;
  size_t n = st_find_copies(e, &s->mem, src, before, &ids);
  for (size_t i = 0; i < n; i++) {
    const aval *old = st_get(&s->mem, ids[i]);
    aval nv = *now;
    nv.prov = old ? old->prov : now->prov;
    st_set(e, &s->mem, ids[i], &nv);
  }
  free(ids);
}

int state_differ_in_ints_only(tc_eng *e, const astate *a, const astate *b) {
  return state_tag_hash(e, a) == state_tag_hash(e, b);
}
