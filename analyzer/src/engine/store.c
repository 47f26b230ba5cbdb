/* analyzer/src/engine/store.c — abstract states: a persistent (copy-on-write, reference-counted)
 * radix tree from location id to value, so that copying a state at every branch and call costs
 * O(1) and comparing two states skips everything they still share. Plus the state-level
 * operations the fixpoint needs: equality, join, distance, and diffs (function summaries). */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

#define ST_MASK (ST_FAN - 1)

/* Every node keeps two sums over the slots below it — hash: of every value as av_same sees it
   (provenance ignored), thash: of the values that are not plain integers (device fields are
   tags) — each slot's term keyed by its location id, so a write updates the sums on its path
   in O(depth) and a tree's sums do not depend on its depth: states are compared by these, and
   subtrees with equal sums are skipped even when they are not shared. dmask: a filter of the
   locations the unknown values below were copied from (state_refine_copies), recomputed when
   dvalid was cleared by a write. */
struct st_node {
  uint32_t rc, leaf;
  st_node *next_free;
  uint64_t hash, thash;
  uint64_t dmask;
  uint32_t dvalid;
  st_node *kid[ST_FAN];
};

typedef struct st_leaf {
  uint32_t rc, leaf;
  st_node *next_free;
  uint64_t hash, thash;
  uint64_t dmask;
  uint32_t dvalid;
  aval val[ST_FAN];
} st_leaf;

static uint64_t av_hash(const aval *v) {
  if (v->k == AV_ABSENT) return 0;
  uint64_t h = hash_mix(v->k, (uint64_t)v->i);
  switch ((av_kind)v->k) {
    case AV_ADDR:
      h = hash_mix(h, v->loc);
      h = hash_mix(h, v->neg);
      break;
    case AV_TENSOR:
    case AV_DATAPTR:
      h = hash_mix(h, ((uint64_t)(uint32_t)v->tag.backend << 32) | (uint32_t)v->tag.ordinal);
      h = hash_mix(h, ((uint64_t)(uint32_t)v->tag.autodiff << 32) | (uint32_t)v->tag.kind);
      if (v->loc) h = hash_mix(h, v->loc);
      if (v->neg) h = hash_mix(h, 0x4e11ull);
      break;
    case AV_AVAIL:
      h = hash_mix(h, v->neg);
      break;
    case AV_ABSENT:
    case AV_BOT:
    case AV_MULTI:
    case AV_TOP:
    case AV_POISON:
      h = hash64(v->k);
      break;
    case AV_INT:
    case AV_NE:
    case AV_SYM:
    case AV_FUNC:
      break;
    case AV_ADDRSET:
      h = hash_mix(h, v->neg);
      break;
  }
  return h | 1; /* never 0: 0 is "nothing here" */
}

/* Slot id's terms in the sums: *full for hash, *tags for thash (0 when v is absent). */
static void slot_terms(const tc_eng *e, uint32_t id, const aval *v, uint64_t *full,
                       uint64_t *tags) {
  if (!v || v->k == AV_ABSENT) {
    *full = *tags = 0;
    return;
  }
  *full = hash_mix(av_hash(v), id);
  *tags = av_intlike(v) && !loc_is_device_field(e, id) ? 0 : *full;
}

/* A value that state_refine_copies may refine: an unknown copied from dloc. */
static int is_copy_of_unknown(const aval *a) {
  return a->drel == DR_NE && a->dc == 0 && a->dloc &&
         (a->k == AV_TOP || a->k == AV_BOT || a->k == AV_SYM);
}

static uint64_t dmask_bit(uint32_t loc) { return 1ull << (hash64(loc) & 63); }

static uint64_t node_dmask(st_node *n) {
  if (!n) return 0;
  if (n->dvalid) return n->dmask;
  uint64_t m = 0;
  for (unsigned i = 0; i < ST_FAN; i++) {
    if (n->leaf) {
      const aval *v = &((st_leaf *)n)->val[i];
      if (is_copy_of_unknown(v)) m |= dmask_bit(v->dloc);
    } else {
      m |= node_dmask(n->kid[i]);
    }
  }
  n->dmask = m;
  n->dvalid = 1;
  return m;
}

/* A node from the free lists (or malloc), refcount 1; zeroed unless `raw` (the caller fills
   every field, as node_clone does). */
static st_node *node_alloc(tc_eng *e, int leaf, int raw) {
  st_node **list = leaf ? &e->free_leaf : &e->free_inner;
  size_t size = leaf ? sizeof(st_leaf) : sizeof(st_node);
  st_node *n = *list;
  if (n) {
    *list = n->next_free;
  } else {
    n = malloc(size);
    if (!n) {
      e->oom = 1;
      return NULL;
    }
  }
  if (!raw) memset(n, 0, size);
  n->rc = 1;
  n->leaf = (uint32_t)leaf;
  return n;
}

static st_node *node_new(tc_eng *e, int leaf) { return node_alloc(e, leaf, 0); }

static void node_release(tc_eng *e, st_node *n) {
  while (n && --n->rc == 0) {
    if (n->leaf) {
      n->next_free = e->free_leaf;
      e->free_leaf = n;
      return;
    }
    for (unsigned i = 1; i < ST_FAN; i++)
      if (n->kid[i]) node_release(e, n->kid[i]);
    st_node *k0 = n->kid[0];
    n->next_free = e->free_inner;
    e->free_inner = n;
    n = k0; /* tail call on the first child */
  }
}

static st_node *node_clone(tc_eng *e, st_node *n) {
  st_node *c = node_alloc(e, (int)n->leaf, 1);
  if (!c) return NULL;
  c->next_free = NULL;
  c->hash = n->hash;
  c->thash = n->thash;
  c->dmask = n->dmask;
  c->dvalid = n->dvalid;
  if (n->leaf) {
    memcpy(((st_leaf *)c)->val, ((st_leaf *)n)->val, sizeof(((st_leaf *)n)->val));
  } else {
    for (unsigned i = 0; i < ST_FAN; i++) {
      c->kid[i] = n->kid[i];
      if (c->kid[i]) c->kid[i]->rc++;
    }
  }
  return c;
}

static uint64_t cap_of(uint8_t depth) {
  return depth ? (uint64_t)1 << (ST_BITS * depth) : 0;
}

/* Raises s to `depth` levels (the old tree becomes the first child). */
static int st_lift(tc_eng *e, st_store *s, uint8_t depth) {
  while (s->depth < depth) {
    if (!s->root) {
      s->depth = depth;
      return 0;
    }
    st_node *n = node_new(e, 0);
    if (!n) return -1;
    n->kid[0] = s->root;
    n->hash = s->root->hash; /* the sums do not depend on the depth */
    n->thash = s->root->thash;
    s->root = n;
    s->depth++;
  }
  return 0;
}

const aval *st_get(const st_store *s, uint32_t id) {
  if ((uint64_t)id >= cap_of(s->depth)) return NULL;
  const st_node *n = s->root;
  for (int lvl = s->depth - 1; lvl > 0 && n; lvl--) n = n->kid[(id >> (ST_BITS * lvl)) & ST_MASK];
  if (!n) return NULL;
  const aval *v = &((const st_leaf *)n)->val[id & ST_MASK];
  return v->k == AV_ABSENT ? NULL : v;
}

void st_set(tc_eng *e, st_store *s, uint32_t id, const aval *v) {
  int clear = !v || v->k == AV_ABSENT;
  const aval *old = st_get(s, id);
  if (clear && !old) return;
  uint64_t of, ot, nf, nt;
  slot_terms(e, id, old, &of, &ot);
  slot_terms(e, id, clear ? NULL : v, &nf, &nt);
  uint64_t df = nf - of, dt = nt - ot; /* the sums change by these (mod 2^64) */
  uint8_t need = 1;
  while ((uint64_t)id >= cap_of(need)) need++;
  if (need > s->depth && st_lift(e, s, need)) return;
  st_node **slot = &s->root;
  for (int lvl = s->depth - 1; lvl >= 0; lvl--) {
    st_node *n = *slot;
    if (!n) {
      n = node_new(e, lvl == 0);
      if (!n) return;
      *slot = n;
    } else if (n->rc > 1) {
      st_node *c = node_clone(e, n);
      if (!c) return;
      n->rc--;
      *slot = c;
      n = c;
    }
    n->hash += df;
    n->thash += dt;
    n->dvalid = 0;
    if (lvl == 0) {
      aval *dst = &((st_leaf *)n)->val[id & ST_MASK];
      if (clear)
        memset(dst, 0, sizeof *dst);
      else
        *dst = *v;
      return;
    }
    slot = &n->kid[(id >> (ST_BITS * lvl)) & ST_MASK];
  }
}

st_store st_copy(const st_store *s) {
  if (s->root) s->root->rc++;
  return *s;
}

void st_release(tc_eng *e, st_store *s) {
  if (s->root) node_release(e, s->root);
  s->root = NULL;
  s->depth = 0;
}

astate state_copy(const astate *s) {
  astate c = *s;
  c.mem = st_copy(&s->mem);
  return c;
}

void state_release(tc_eng *e, astate *s) { st_release(e, &s->mem); }

/* ---- walking two trees together ---- */

typedef struct diff_ctx {
  tc_eng *e;
  int (*fn)(struct diff_ctx *d, uint32_t id, const aval *a, const aval *b); /* nonzero: stop */
  void *user;
  int stop;
  int by_content; /* subtrees with equal content hashes are equal (provenance ignored) */
} diff_ctx;

static const aval k_absent; /* all zero: AV_ABSENT */

static void walk2(diff_ctx *d, const st_node *a, const st_node *b, int lvl, uint32_t base) {
  if (d->stop || a == b) return;
  if (d->by_content && a && b && a->hash == b->hash) return;
  if (lvl == 0) {
    const st_leaf *la = (const st_leaf *)a, *lb = (const st_leaf *)b;
    for (unsigned i = 0; i < ST_FAN && !d->stop; i++) {
      const aval *va = la ? &la->val[i] : &k_absent;
      const aval *vb = lb ? &lb->val[i] : &k_absent;
      if (va->k == AV_ABSENT && vb->k == AV_ABSENT) continue;
      if (d->fn(d, base + i, va, vb)) d->stop = 1;
    }
    return;
  }
  for (unsigned i = 0; i < ST_FAN && !d->stop; i++) {
    const st_node *ka = a ? a->kid[i] : NULL, *kb = b ? b->kid[i] : NULL;
    if (ka || kb) walk2(d, ka, kb, lvl - 1, base + (i << (ST_BITS * lvl)));
  }
}

static void walk_states(diff_ctx *d, const astate *a, const astate *b) {
  uint8_t depth = a->mem.depth > b->mem.depth ? a->mem.depth : b->mem.depth;
  if (!depth) return;
  /* lifting keeps the contents; it only changes the representation */
  st_lift(d->e, (st_store *)&((astate *)a)->mem, depth);
  st_lift(d->e, (st_store *)&((astate *)b)->mem, depth);
  walk2(d, a->mem.root, b->mem.root, depth - 1, 0);
}

static int identical(const aval *a, const aval *b) {
  return av_same(a, b) && a->prov == b->prov && a->drel == b->drel && a->dloc == b->dloc &&
         a->dc == b->dc && a->neg == b->neg;
}

static uint64_t state_hash2(tc_eng *e, const astate *s, int tags_only) {
  (void)e;
  uint64_t h = 0;
  if (s->mem.root) h = tags_only ? s->mem.root->thash : s->mem.root->hash;
  h = hash_mix(h, 0x5ea1ull + s->decorrelated);
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

static int join_fn(diff_ctx *d, uint32_t id, const aval *a, const aval *b) {
  join_acc *j = d->user;
  if (av_same(a, b)) return 0;
  aval ea = a->k == AV_ABSENT ? mem_eff(d->e, j->a, id) : *a;
  aval eb = b->k == AV_ABSENT ? mem_eff(d->e, j->b, id) : *b;
  aval r;
  if (!(loc_is_device_field(d->e, id) && join_device_field(d->e, j->a, j->b, id, &ea, &eb, &r)))
    r = av_join(d->e, &ea, &eb);
  if (a->k != AV_ABSENT && av_same(&r, a)) return 0;
  if (a->k == AV_ABSENT && av_same(&r, &ea)) return 0;
  join_ent *je = VEC_PUSH(j->ents, j->n, j->cap);
  if (!je) {
    d->e->oom = 1;
    return 1;
  }
  je->id = id;
  je->v = r;
  return 0;
}

int state_join_into(tc_eng *e, astate *a, const astate *b) {
  join_acc j = {a, b, NULL, 0, 0};
  diff_ctx d = {e, join_fn, &j, 0, 1};
  walk_states(&d, a, b);
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
  a->decorrelated |= b->decorrelated;
  if (a->path != b->path) a->path = NULL; /* the joined state took no single path */
  return changed;
}

typedef struct dist_acc {
  uint32_t dist, limit;
  int int_only;
} dist_acc;

static int dist_fn(diff_ctx *d, uint32_t id, const aval *a, const aval *b) {
  dist_acc *x = d->user;
  if (av_same(a, b)) return 0;
  if (av_intlike(a) && av_intlike(b) && !loc_is_device_field(d->e, id)) {
    x->dist += 1;
  } else {
    x->dist += 16;
    x->int_only = 0;
  }
  return x->dist > x->limit;
}

uint32_t state_distance(tc_eng *e, const astate *a, const astate *b, int *int_only,
                        uint32_t limit) {
  dist_acc x = {0, limit, 1};
  diff_ctx d = {e, dist_fn, &x, 0, 1};
  walk_states(&d, a, b);
  if (a->avail_yes != b->avail_yes || a->avail_no != b->avail_no) {
    x.dist += 16;
    x.int_only = 0;
  }
  if (int_only) *int_only = x.int_only;
  return x.dist;
}

typedef struct diff_acc {
  delta_ent **out;
  size_t *n, *cap;
} diff_acc;

static int diff_fn(diff_ctx *d, uint32_t id, const aval *a, const aval *b) {
  diff_acc *x = d->user;
  if (identical(a, b)) return 0;
  delta_ent *de = VEC_PUSH(*x->out, *x->n, *x->cap);
  if (!de) {
    d->e->oom = 1;
    return 1;
  }
  de->id = id;
  de->v = *b;
  return 0;
}

int state_diff(tc_eng *e, const astate *from, const astate *to, delta_ent **out, size_t *n,
               size_t *cap) {
  diff_acc x = {out, n, cap};
  diff_ctx d = {e, diff_fn, &x, 0, 0};
  walk_states(&d, from, to);
  return e->oom ? -1 : 0;
}

/* ---- refining the copies of a refined value ---- */
typedef struct copies_acc {
  uint32_t src;
  const aval *before;
  uint64_t bit;
  uint32_t *ids;
  size_t n, cap;
  int oom;
} copies_acc;

static void copies_visit(copies_acc *x, const aval *a, uint32_t id) {
  if (id == x->src || !is_copy_of_unknown(a) || a->dloc != x->src) return;
  if (a->dsnap_k != x->before->k || (a->k == AV_SYM && a->dsnap_i != x->before->i)) return;
  if (x->n == x->cap) {
    size_t cap = x->cap ? 2 * x->cap : 16;
    uint32_t *ids = realloc(x->ids, cap * sizeof *ids);
    if (!ids) {
      x->oom = 1;
      return;
    }
    x->ids = ids;
    x->cap = cap;
  }
  x->ids[x->n++] = id;
}

/* Collects, in id order, the slots below n holding an unknown copied from x->src (skipping
   the subtrees whose filter rules it out). */
static void copies_walk(copies_acc *x, st_node *n, int lvl, uint32_t base) {
  if (!n || x->oom || !(node_dmask(n) & x->bit)) return;
  if (lvl == 0) {
    const st_leaf *l = (const st_leaf *)n;
    for (unsigned i = 0; i < ST_FAN; i++) copies_visit(x, &l->val[i], base + i);
    return;
  }
  for (unsigned i = 0; i < ST_FAN; i++)
    copies_walk(x, n->kid[i], lvl - 1, base + (i << (ST_BITS * lvl)));
}

void state_refine_copies(tc_eng *e, astate *s, uint32_t src, const aval *before,
                         const aval *now) {
  copies_acc x = {src, before, dmask_bit(src), NULL, 0, 0, 0};
  if (s->mem.depth) copies_walk(&x, s->mem.root, s->mem.depth - 1, 0);
  if (x.oom) e->oom = 1;
  for (size_t i = 0; i < x.n; i++) {
    const aval *old = st_get(&s->mem, x.ids[i]);
    aval nv = *now;
    nv.prov = old ? old->prov : now->prov;
    st_set(e, &s->mem, x.ids[i], &nv);
  }
  free(x.ids);
}

void st_free_all(tc_eng *e) {
  while (e->free_inner) {
    st_node *n = e->free_inner->next_free;
    free(e->free_inner);
    e->free_inner = n;
  }
  while (e->free_leaf) {
    st_node *n = e->free_leaf->next_free;
    free(e->free_leaf);
    e->free_leaf = n;
  }
}

int state_differ_in_ints_only(tc_eng *e, const astate *a, const astate *b) {
  return state_tag_hash(e, a) == state_tag_hash(e, b);
}
