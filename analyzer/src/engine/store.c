/* analyzer/src/engine/store.c — the store: a persistent (copy-on-write, reference-counted)
 * radix tree from location id to value, so that copying a state at every branch and call costs
 * O(1) and comparing two maps skips everything they still share. A pure map: it knows no
 * memory model and no rule; the state algebra above it (state.c) walks two maps with
 * st_walk_pairs. */
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
    case AV_SETTEST:
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
    case AV_STR:
      break;
    case AV_FUNC:
    case AV_ADDRSET:
      h = hash_mix(h, v->neg);
      break;
    case AV_RANGE:
      h = hash_mix(h, (uint64_t)v->hi);
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

const aval *st_get_near(const st_store *s, st_cursor *c, uint32_t id) {
  if (c->root != s->root || c->block != id >> ST_BITS || !c->valid) {
    if ((uint64_t)id >= cap_of(s->depth)) return NULL;
    const st_node *n = s->root;
    for (int lvl = s->depth - 1; lvl > 0 && n; lvl--)
      n = n->kid[(id >> (ST_BITS * lvl)) & ST_MASK];
    c->root = s->root;
    c->block = id >> ST_BITS;
    c->leaf = n;
    c->valid = 1;
  }
  if (!c->leaf) return NULL;
  const aval *v = &((const st_leaf *)c->leaf)->val[id & ST_MASK];
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

/* ---- walking two maps together ---- */

typedef struct walk_ctx {
  st_pair_fn fn;
  void *user;
  int stop;
  int by_content; /* subtrees with equal content hashes are equal (provenance ignored) */
} walk_ctx;

static const aval k_absent; /* all zero: AV_ABSENT */

static void walk2(walk_ctx *d, const st_node *a, const st_node *b, int lvl, uint32_t base) {
  if (d->stop || a == b) return;
  if (d->by_content && a && b && a->hash == b->hash) return;
  if (lvl == 0) {
    const st_leaf *la = (const st_leaf *)a, *lb = (const st_leaf *)b;
    for (unsigned i = 0; i < ST_FAN && !d->stop; i++) {
      const aval *va = la ? &la->val[i] : &k_absent;
      const aval *vb = lb ? &lb->val[i] : &k_absent;
      if (va->k == AV_ABSENT && vb->k == AV_ABSENT) continue;
      if (d->fn(d->user, base + i, va, vb)) d->stop = 1;
    }
    return;
  }
  for (unsigned i = 0; i < ST_FAN && !d->stop; i++) {
    const st_node *ka = a ? a->kid[i] : NULL, *kb = b ? b->kid[i] : NULL;
    if (ka || kb) walk2(d, ka, kb, lvl - 1, base + (i << (ST_BITS * lvl)));
  }
}

void st_walk_pairs(tc_eng *e, const st_store *a, const st_store *b, int by_content,
                   st_pair_fn fn, void *user) {
  walk_ctx d = {fn, user, 0, by_content};
  uint8_t depth = a->depth > b->depth ? a->depth : b->depth;
  if (!depth) return;
  /* lifting keeps the contents; it only changes the representation */
  st_lift(e, (st_store *)a, depth);
  st_lift(e, (st_store *)b, depth);
  walk2(&d, a->root, b->root, depth - 1, 0);
}

typedef struct leaf_walk {
  st_leaf_fn fn;
  void *user;
} leaf_walk;

static int walk_leaves(const leaf_walk *w, const st_node *a, const st_node *b, int lvl,
                       uint32_t base) {
  if (a == b) return 0;
  if (lvl == 0)
    return w->fn(w->user, base >> ST_BITS, a ? ((const st_leaf *)a)->val : NULL,
                 b ? ((const st_leaf *)b)->val : NULL);
  for (unsigned i = 0; i < ST_FAN; i++) {
    const st_node *ka = a ? a->kid[i] : NULL, *kb = b ? b->kid[i] : NULL;
    int r = ka || kb ? walk_leaves(w, ka, kb, lvl - 1, base + (i << (ST_BITS * lvl))) : 0;
    if (r) return r;
  }
  return 0;
}

int st_walk_leaves(tc_eng *e, const st_store *a, const st_store *b, st_leaf_fn fn, void *user) {
  leaf_walk w = {fn, user};
  uint8_t depth = a->depth > b->depth ? a->depth : b->depth;
  if (!depth) return 0;
  st_lift(e, (st_store *)a, depth); /* as st_walk_pairs: the contents stay */
  st_lift(e, (st_store *)b, depth);
  return walk_leaves(&w, a->root, b->root, depth - 1, 0);
}

uint64_t st_content_hash(const st_store *s, int tags_only) {
  if (!s->root) return 0;
  return tags_only ? s->root->thash : s->root->hash;
}

/* ---- the slots holding an unknown copied from a location ---- */
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

size_t st_find_copies(tc_eng *e, const st_store *s, uint32_t src, const aval *before,
                      uint32_t **ids) {
  copies_acc x = {src, before, dmask_bit(src), NULL, 0, 0, 0};
  if (s->depth) copies_walk(&x, s->root, s->depth - 1, 0);
  if (x.oom) e->oom = 1;
  *ids = x.ids;
  return x.n;
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
