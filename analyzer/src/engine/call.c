/* analyzer/src/engine/call.c — calls: to API functions (api.c), to user functions (analyzed per
 * distinct entry state — arguments, what they reach, the globals the callee can name (computed
 * once per program: call_scope_prepare) — and memoized as summaries: per
 * exit, the changes to memory; replayed on later calls with the same entry, findings included;
 * an entry's key is proven equal to the callee's previous one, when it is, by comparing the two
 * entry stores where the previous walk read them, instead of walking again),
 * and to unknown functions (unknown result; what their pointer arguments reach is forgotten).
 * Recursion and budgets end in the unknown-function case, which never produces findings. */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"

/* Calls nested deeper than this (a device passed down 256 helpers) are unknown calls: the
   analysis recurses on the C stack (docs/engine.md "Budgets"). */
#define CALL_MAX_DEPTH 256
#define PROV_SENSITIVE_CONTEXTS 8
/* Analyses of a function entered again while it is already being analyzed (recursion: every
   node of a tree built or walked recursively is an entry of its own). */
#define RECURSIVE_CONTEXTS 64
/* Analyses of a function that reaches no API call (it only moves values around: a planner's
   `fits(slot, size)`); past this, calls to it are treated like calls to an unknown function. */
#define IRRELEVANT_CONTEXTS 64

/* Length of the folder part two paths share. */
static size_t shared_folder_len(const char *a, const char *b) {
  size_t n = 0, i = 0;
  while (a[i] && a[i] == b[i]) {
    if (a[i] == '/') n = i + 1;
    i++;
  }
  return n;
}

fninfo *fn_lookup(tc_eng *e, const tc_unit *from, tc_sym usr, tc_sym name) {
  uint32_t idx;
  if (!(usr && map_get(&e->fn_by_usr, usr, &idx)) && !(name && map_get(&e->fn_by_name, name, &idx)))
    return NULL;
  fninfo *best = &e->fns[idx];
  if (!from || !best->next_same_usr) return best;
  const char *here = tc_str(e->prog, from->file);
  size_t best_len = 0;
  for (fninfo *c = best; c; c = c->next_same_usr ? &e->fns[c->next_same_usr - 1] : NULL) {
    if (c->unit == from) return c;
    size_t len = shared_folder_len(here, tc_str(e->prog, c->unit->file));
    if (len > best_len) {
      best_len = len;
      best = c;
    }
  }
  return best;
}

const tc_api_fn *api_lookup(tc_eng *e, tc_sym name) {
  if (!name) return NULL;
  uint32_t v;
  if (map_get(&e->api_by_name, name, &v))
    return v ? &e->rules->fns[v - 1] : NULL;
  const tc_api_fn *f = tc_rules_find(e->rules, tc_str(e->prog, name));
  if (map_put(&e->api_by_name, name, f ? (uint32_t)(f - e->rules->fns) + 1 : 0)) e->oom = 1;
  return f;
}

/* The API function a function designator names, from its USR ("c:@F@dt_add"). */
const tc_api_fn *api_of_usr(tc_eng *e, tc_sym usr) {
  const char *u = tc_str(e->prog, usr);
  const char *at = strstr(u, "@F@");
  if (!at) return NULL;
  return tc_rules_find(e->rules, at + 3);
}

void frame_clear(tc_eng *e, astate *s, fninfo *fi, uint32_t inst) {
  for (size_t i = 0; i < fi->n_roots; i++) {
    uint32_t r = fi->roots[i];
    if (FRAME_INST(e->locs[r].a) != inst) continue;
    if (e->locs[r].first_child) mem_clear_subtree(e, s, r);
    st_set(e, &s->mem, r, NULL);
  }
}

static int const_pointee(const tc_eng *e, const tc_opnd *o) {
  const char *pn = tc_str(e->prog, o->type.pointee_name);
  return strncmp(pn, "const ", 6) == 0;
}

void call_unknown(frame *f, astate *s, const tc_insn *in) {
  tc_eng *e = f->e;
  for (uint32_t i = 0; i < in->n_args; i++) {
    const tc_opnd *o = &in->args[i];
    if (o->kind != TC_OPND_ADDR && o->kind != TC_OPND_PATH) continue;
    if (o->kind == TC_OPND_PATH && o->type.cls != TC_TY_POINTER && o->type.cls != TC_TY_ARRAY &&
        o->type.cls != TC_TY_OTHER)
      continue;
    if (const_pointee(e, o)) continue;
    aval v = mem_eval(f, s, o, NULL);
    ptset pts;
    av_targets(e, &v, &pts);
    for (uint32_t k = 0; k < pts.n; k++) mem_havoc_reachable(e, s, pts.loc[k]);
  }
  if (in->has_dst) {
    targets dt;
    if (mem_resolve(f, s, &in->dst, &dt)) {
      aval top = av_top();
      mem_write_targets(e, s, &dt, &top);
    }
  }
  flow_check_touches(f, s);
}

/* ---- which globals a function can name ---- */

/* The key of a global root (a, b) in `named` (never 0). */
static uint64_t named_key(uint32_t a, int64_t b) {
  return (1ull << 63) | ((uint64_t)(uint32_t)b << 32) | a;
}

static void name_path(tc_eng *e, fninfo *fi, const tc_path *p) {
  const tc_function *fn = fi->fn;
  uint64_t k = 0;
  if (p->root == TC_ROOT_GLOBAL)
    k = named_key(p->id, 0);
  else if (p->root == TC_ROOT_LOCAL && p->id < fn->n_locals && fn->locals[p->id].is_static)
    k = named_key(fn->usr ? fn->usr : fn->name, (int64_t)p->id + 1); /* as mem_root_loc */
  if (k && map_put(&fi->named, k, 1)) e->oom = 1;
  /* an element indexed by a global or static variable reads it too (`g_reg[g_n]`) */
  for (uint32_t i = 0; i < p->n_elems; i++) {
    const tc_elem *el = &p->elems[i];
    if (el->kind != TC_ELEM_INDEX_ANY || !el->index_root) continue;
    tc_path var = {el->index_root, el->index_id, 0, NULL, 0};
    name_path(e, fi, &var);
  }
}

static void name_opnd(tc_eng *e, fninfo *fi, const tc_opnd *o) {
  if (o->kind == TC_OPND_PATH || o->kind == TC_OPND_ADDR) name_path(e, fi, &o->path);
}

/* The user function a direct call reaches (as call_dispatch finds it), or NULL. */
static fninfo *direct_callee(tc_eng *e, const fninfo *fi, const tc_insn *in) {
  if (in->kind != TC_I_CALL || in->callee.indirect || api_lookup(e, in->callee.name)) return NULL;
  return fn_lookup(e, fi->unit, in->callee.usr, in->callee.name);
}

/* Marks every definition of the function a designator names (an indirect call may reach it). */
static void mark_address_taken(tc_eng *e, const tc_opnd *o, uint8_t *taken) {
  uint32_t idx;
  if (o->kind != TC_OPND_FUNC || !o->sym || !map_get(&e->fn_by_usr, o->sym, &idx)) return;
  for (fninfo *c = &e->fns[idx]; c; c = c->next_same_usr ? &e->fns[c->next_same_usr - 1] : NULL)
    taken[c->idx] = 1;
}

/* Adds src's names to dst; returns 1 if dst grew. */
static int named_union(tc_eng *e, tc_map *dst, const tc_map *src) {
  int grew = 0;
  for (size_t s = 0; s < src->cap; s++) {
    uint64_t k = src->keys[s];
    if (!k || map_get(dst, k, NULL)) continue;
    if (map_put(dst, k, 1)) e->oom = 1;
    grew = 1;
  }
  return grew;
}

int call_scope_prepare(tc_eng *e, int with_names) {
  /* indirect: makes an indirect call; taken: its address is taken (an indirect call's target
     is a function designator's value, so one of these) */
  uint8_t *indirect = calloc(e->n_fns ? e->n_fns : 1, 1);
  uint8_t *taken = calloc(e->n_fns ? e->n_fns : 1, 1);
  if (!indirect || !taken) {
    free(indirect);
    free(taken);
    e->oom = 1;
    return -1;
  }
  for (size_t f = 0; f < e->n_fns; f++) {
    fninfo *fi = &e->fns[f];
    const tc_function *fn = fi->fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      const tc_block *bl = &fn->blocks[b];
      for (uint32_t i = 0; i < bl->n_insns; i++) {
        const tc_insn *in = &bl->insns[i];
        if (in->has_dst && with_names) name_path(e, fi, &in->dst);
        const tc_opnd *ops[3] = {&in->a, &in->b, &in->callee.target};
        for (int o = 0; o < 3; o++) {
          if (with_names) name_opnd(e, fi, ops[o]);
          mark_address_taken(e, ops[o], taken);
        }
        for (uint32_t a = 0; a < in->n_args; a++) {
          if (with_names) name_opnd(e, fi, &in->args[a]);
          mark_address_taken(e, &in->args[a], taken);
        }
        if (in->kind == TC_I_CALL && in->callee.indirect) indirect[f] = 1;
      }
      if (with_names) name_opnd(e, fi, &bl->term.cond);
      mark_address_taken(e, &bl->term.cond, taken);
    }
  }
  /* what callees name, their callers name too; an indirect call, what any function whose
     address is taken names */
  tc_map via_pointer = {0};
  for (int changed = with_names; changed && !e->oom;) {
    changed = 0;
    for (size_t f = 0; f < e->n_fns; f++)
      if (taken[f] && named_union(e, &via_pointer, &e->fns[f].named)) changed = 1;
    for (size_t f = 0; f < e->n_fns; f++) {
      fninfo *fi = &e->fns[f];
      if (indirect[f] && named_union(e, &fi->named, &via_pointer)) changed = 1;
      const tc_function *fn = fi->fn;
      for (uint32_t b = 0; b < fn->n_blocks; b++)
        for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
          fninfo *c = direct_callee(e, fi, &fn->blocks[b].insns[i]);
          if (c && c != fi && named_union(e, &fi->named, &c->named)) changed = 1;
        }
    }
  }
  map_free(&via_pointer);
  for (size_t f = 0; f < e->n_fns; f++) e->fns[f].address_taken = taken[f];
  free(indirect);
  free(taken);
  return e->oom ? -1 : 0;
}

/* ---- memo keys: the entry state as the callee can see it ---- */

/* A memo key is the sequence of words the walk below produces, kept as two independent 64-bit
   hashes of it and its length (never the words themselves: an entry state reaching a model's
   every tensor is hundreds of thousands of words, once per memo entry). Keys compare equal only
   when all three do; two different sequences agreeing on 128 hash bits is not a case the
   analysis needs to consider. */
typedef struct keybuf {
  uint64_t h1, h2;
  size_t n;
} keybuf;

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline void kb_push(tc_eng *e, keybuf *k, uint64_t x) {
  (void)e;
  /* two chains, each step a bijection of the chain's state for a given word, with unrelated
     constants and rotations; the multiplications of both chains run side by side */
  uint64_t m = x * 0x9e3779b97f4a7c15ull;
  k->h1 = rotl64(k->h1 ^ m, 27) * 0xff51afd7ed558ccdull;
  k->h2 = rotl64(k->h2 + (m ^ (m >> 29)), 31) * 0xc4ceb9fe1a85ec53ull;
  k->n++;
}

static int stamp_visit(tc_eng *e, uint32_t loc) {
  if (loc >= e->cap_visit) {
    size_t nc = e->cap_visit ? e->cap_visit : 1024;
    while (nc <= loc || nc < e->n_locs) nc *= 2;
    uint32_t *nv = realloc(e->visit_stamp, nc * sizeof *nv);
    if (!nv) {
      e->oom = 1;
      return 0;
    }
    memset(nv + e->cap_visit, 0, (nc - e->cap_visit) * sizeof *nv);
    e->visit_stamp = nv;
    e->cap_visit = nc;
  }
  if (e->visit_stamp[loc] == e->stamp) return 0;
  e->visit_stamp[loc] = e->stamp;
  return 1;
}

static int visited(const tc_eng *e, uint32_t loc) {
  return loc < e->cap_visit && e->visit_stamp[loc] == e->stamp;
}

/* Five words at once: each chain takes one word made from all five by products with
   unrelated odd constants (independent multiplications, which the processor runs side by side),
   instead of five steps of its serial chain. */
static inline void kb_push5(keybuf *k, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3,
                            uint64_t w4) {
  uint64_t a = ((w0 * 0x9e3779b97f4a7c15ull) ^ rotl64(w1 * 0xbf58476d1ce4e5b9ull, 13)) +
               ((w2 * 0x94d049bb133111ebull) ^ rotl64(w3 * 0xd6e8feb86659fd93ull, 29)) +
               rotl64(w4 * 0xa0761d6478bd642full, 47);
  uint64_t b = ((w0 * 0xe7037ed1a0b428dbull) + rotl64(w1 * 0x8ebc6af09c88c6e3ull, 37)) ^
               ((w2 * 0x589965cc75374cc3ull) + rotl64(w3 * 0x1d8e4e27c47d124full, 7)) ^
               rotl64(w4 * 0xff51afd7ed558ccdull, 53);
  k->h1 = rotl64(k->h1 ^ a, 27) * 0xff51afd7ed558ccdull;
  k->h2 = rotl64(k->h2 + b, 31) * 0xc4ceb9fe1a85ec53ull;
  k->n += 5;
}

static void key_value(tc_eng *e, keybuf *k, uint32_t loc, const aval *v, int with_prov) {
  kb_push5(k, ((uint64_t)loc << 8) | v->k, (uint64_t)v->i, ((uint64_t)v->loc << 1) | v->neg,
           ((uint64_t)(uint32_t)v->tag.backend << 32) | (uint32_t)v->tag.ordinal,
           ((uint64_t)(uint32_t)v->tag.autodiff << 32) | (uint32_t)v->tag.kind);
  if (with_prov) kb_push(e, k, (uint64_t)(uintptr_t)v->prov);
}

/* One key walk: the entry state it reads, the key it writes, where its last read was. */
typedef struct keywalk {
  tc_eng *e;
  const st_store *mem;
  keybuf *k;
  st_cursor at;
  key_hint *rec; /* the blocks read are appended to rec->blocks */
  uint32_t last_block;
} keywalk;

/* Reads place id of the entry state, noting its leaf block for the hint. */
static const aval *walk_read(keywalk *w, uint32_t id) {
  uint32_t block = id >> ST_BITS;
  if (block != w->last_block) {
    uint32_t *slot = VEC_PUSH(w->rec->blocks, w->rec->n_blocks, w->rec->cap_blocks);
    if (slot)
      *slot = block;
    else
      w->e->oom = 1;
    w->last_block = block;
  }
  return st_get_near(w->mem, &w->at, id);
}

static void key_visit(keywalk *w, uint32_t loc) {
  tc_eng *e = w->e;
  if (!stamp_visit(e, loc)) return;
  const aval *v = walk_read(w, loc);
  if (v) {
    key_value(e, w->k, loc, v, 0);
    ptset pts;
    av_targets(e, v, &pts);
    for (uint32_t t = 0; t < pts.n; t++) {
      /* what the target inherits from its enclosing objects; a place already visited had its
         enclosing objects' values written to the key before (by this loop or by the visit of
         its parent), as had every enclosing object of one: the words left out here follow from
         the ones before them, so the keys tell apart exactly the same entry states */
      if (!visited(e, pts.loc[t]))
        for (uint32_t p = e->locs[pts.loc[t]].parent; p && !visited(e, p); p = e->locs[p].parent) {
          const aval *pv = walk_read(w, p);
          if (pv) key_value(e, w->k, p, pv, 0);
        }
      key_visit(w, pts.loc[t]);
    }
  }
  for (uint32_t c = e->locs[loc].first_child; c; c = e->locs[c].next_sibling) key_visit(w, c);
}

/* Appends to callee->named_roots the global roots made since it last looked that it (or its
   callees) can name. */
static void scan_named_roots(tc_eng *e, fninfo *callee) {
  for (; callee->named_scanned < e->n_global_roots; callee->named_scanned++) {
    uint32_t r = e->global_roots[callee->named_scanned];
    if (!map_get(&callee->named, named_key(e->locs[r].a, e->locs[r].b), NULL)) continue;
    uint32_t *slot = VEC_PUSH(callee->named_roots, callee->n_named_roots, callee->cap_named_roots);
    if (!slot) {
      e->oom = 1;
      return;
    }
    *slot = r;
  }
}

static int is_entry_param(const tc_eng *e, uint32_t r, uint32_t inst) {
  return e->locs[r].kind == LK_PARAM && FRAME_INST(e->locs[r].a) == inst;
}

/* The parameter roots of activation inst made so far (the walk starts from each). */
static size_t entry_params(const tc_eng *e, const fninfo *callee, uint32_t inst) {
  size_t n = 0;
  for (size_t i = 0; i < callee->n_roots; i++) n += is_entry_param(e, callee->roots[i], inst);
  return n;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Entry states kept as key hints at once: each keeps alive the parts of its store no live
   state shares any more, so all functions' hints would hold a store each. 32, not 128: on a
   25-unit ggml subset the keys proven without a walk are the same to 0.1% (the hints reused
   are recent ones) and the analysis child's peak is 35 MB lower. */
#define HINTS_HELD 32

/* Gives up what a function's hint holds. */
static void hint_drop(tc_eng *e, key_hint *h) {
  st_release(e, &h->mem);
  free(h->blocks);
  h->blocks = NULL;
  h->n_blocks = h->cap_blocks = 0;
  h->valid = h->held = 0;
}

void call_hints_release(tc_eng *e) {
  for (size_t i = 0; i < e->n_hint_holders; i++) hint_drop(e, &e->fns[e->hint_holders[i]].hint);
  e->n_hint_holders = e->hint_oldest = 0;
}

/* callee is about to hold a hint: it joins the holders, the oldest leaving when they are
   HINTS_HELD. Returns 0 when out of memory. */
static int hint_hold(tc_eng *e, fninfo *callee) {
  if (callee->hint.held) return 1;
  if (!e->hint_holders) {
    e->hint_holders = calloc(HINTS_HELD, sizeof *e->hint_holders);
    if (!e->hint_holders) return 0;
  }
  if (e->n_hint_holders < HINTS_HELD) {
    e->hint_holders[e->n_hint_holders++] = callee->idx;
  } else {
    hint_drop(e, &e->fns[e->hint_holders[e->hint_oldest]].hint);
    e->hint_holders[e->hint_oldest] = callee->idx;
    e->hint_oldest = (e->hint_oldest + 1) % HINTS_HELD;
  }
  callee->hint.held = 1;
  return 1;
}

/* The key of the entry state (after scan_named_roots), recorded with what it read as the
   callee's hint. */
static void build_key(tc_eng *e, const astate *entry, fninfo *callee, uint32_t inst,
                      int with_prov, keybuf *k) {
  e->stamp++;
  if (e->stamp == 0) {
    memset(e->visit_stamp, 0, e->cap_visit * sizeof *e->visit_stamp);
    e->stamp = 1;
  }
  key_hint *h = &callee->hint;
  if (!hint_hold(e, callee)) e->oom = 1;
  h->valid = 0;
  h->n_blocks = 0;
  keywalk w = {e, &entry->mem, k, {0}, h, UINT32_MAX};
  kb_push(e, k, FRAME_KEY(callee->idx, inst));
  kb_push(e, k, ((uint64_t)entry->avail_yes << 32) | entry->avail_no);
  kb_push(e, k, entry->avail_reported);
  if (callee->allocates) kb_push(e, k, e->cur_chain);
  for (size_t i = 0; i < callee->n_roots; i++) {
    uint32_t r = callee->roots[i];
    if (!is_entry_param(e, r, inst)) continue;
    const aval *v = walk_read(&w, r);
    if (v && with_prov) key_value(e, k, r, v, 1);
    key_visit(&w, r);
  }
  kb_push(e, k, 0xfeedull);
  /* the globals the callee (or its callees) can name; the others it reaches only through
     pointers, which the walk above and below follows */
  for (size_t g = 0; g < callee->n_named_roots; g++) key_visit(&w, callee->named_roots[g]);
  if (e->oom) return;
  /* the hint: the blocks read, sorted and distinct */
  if (h->n_blocks > 1) qsort(h->blocks, h->n_blocks, sizeof *h->blocks, cmp_u32);
  size_t n = 0;
  for (size_t i = 0; i < h->n_blocks; i++)
    if (!n || h->blocks[n - 1] != h->blocks[i]) h->blocks[n++] = h->blocks[i];
  h->n_blocks = n;
  st_release(e, &h->mem);
  h->mem = st_copy(&entry->mem);
  h->h1 = k->h1;
  h->h2 = k->h2;
  h->n = k->n;
  h->inst = inst;
  h->avail_yes = entry->avail_yes;
  h->avail_no = entry->avail_no;
  h->avail_reported = entry->avail_reported;
  h->chain = e->cur_chain;
  h->n_locs = (uint32_t)e->n_locs;
  h->n_named_roots = callee->n_named_roots;
  h->n_params = entry_params(e, callee, inst);
  h->with_prov = (uint8_t)with_prov;
  h->valid = 1;
}

/* ---- reusing the hint: the same key without the walk ---- */

static int hint_has_block(const key_hint *h, uint32_t block) {
  size_t lo = 0, hi = h->n_blocks;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (h->blocks[mid] < block)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < h->n_blocks && h->blocks[lo] == block;
}

/* Do two values push the same words to a key (key_value without provenance)? */
static int key_value_same(const aval *a, const aval *b) {
  if (a->k != b->k) return 0;
  if (a->k == AV_ABSENT) return 1;
  return a->i == b->i && a->loc == b->loc && a->neg == b->neg &&
         a->tag.backend == b->tag.backend && a->tag.ordinal == b->tag.ordinal &&
         a->tag.autodiff == b->tag.autodiff && a->tag.kind == b->tag.kind;
}

typedef struct hint_check {
  tc_eng *e;
  const key_hint *h;
} hint_check;

/* A leaf where the entry (a) and the hint's state (b) are not shared: 1 when the walk could
   read something different there — a block it read holding another value, or a place made
   since the walk (a child of a place it visited would be visited too) holding a value. */
static int hint_leaf_differs(void *user, uint32_t block, const aval *a, const aval *b) {
  hint_check *c = user;
  const aval absent = {0};
  int read = hint_has_block(c->h, block);
  if (!read && ((block + 1) << ST_BITS) <= c->h->n_locs) return 0; /* no place made since */
  for (unsigned i = 0; i < ST_FAN; i++) {
    const aval *va = a ? &a[i] : &absent, *vb = b ? &b[i] : &absent;
    if (key_value_same(va, vb)) continue;
    if (read) return 1;
    /* a place the walk did not read: it matters only if made since, inside a place that
       existed then (a new root is reached only through a pointer some read place holds, or as
       a parameter or named global, whose counts the caller compares) */
    uint32_t id = (block << ST_BITS) | i, p = id;
    while (p >= c->h->n_locs && c->e->locs[p].parent) p = c->e->locs[p].parent;
    if (p != id && p < c->h->n_locs && hint_has_block(c->h, p >> ST_BITS)) return 1;
  }
  return 0;
}

/* Is the key of this entry the hint's (the walk would push the same words)? */
static int hint_applies(tc_eng *e, const astate *entry, fninfo *callee, uint32_t inst,
                        int with_prov) {
  key_hint *h = &callee->hint;
  if (!h->valid || h->inst != inst || h->with_prov != with_prov ||
      h->avail_yes != entry->avail_yes || h->avail_no != entry->avail_no ||
      h->avail_reported != entry->avail_reported ||
      (callee->allocates && h->chain != e->cur_chain) ||
      h->n_named_roots != callee->n_named_roots || h->n_params != entry_params(e, callee, inst))
    return 0;
  if (with_prov)
    for (size_t i = 0; i < callee->n_roots; i++) {
      uint32_t r = callee->roots[i];
      if (!is_entry_param(e, r, inst)) continue;
      const aval *a = st_get(&entry->mem, r), *b = st_get(&h->mem, r);
      if (a && b && a->prov != b->prov) return 0;
    }
  hint_check c = {e, h};
  return !st_walk_leaves(e, &entry->mem, &h->mem, hint_leaf_differs, &c);
}

static int key_same(uint64_t h1, uint64_t h2, size_t n, const keybuf *k) {
  return h1 == k->h1 && h2 == k->h2 && n == k->n;
}

static memo_entry *memo_find(fninfo *fi, const keybuf *k) {
  for (memo_entry *m = fi->memo; m; m = m->next)
    if (key_same(m->hash, m->hash2, m->n_key, k)) return m;
  return NULL;
}

static uint32_t memo_count(const fninfo *fi) {
  uint32_t n = 0;
  for (const memo_entry *m = fi->memo; m; m = m->next) n++;
  return n;
}

/* ---- binding and returning ---- */

static void bind_params(frame *f, astate *entry, const tc_insn *in, fninfo *callee,
                        uint32_t inst) {
  tc_eng *e = f->e;
  const tc_function *fn = callee->fn;
  for (uint32_t i = 0; i < fn->n_params; i++) {
    uint32_t ploc = loc_root(e, LK_PARAM, FRAME_KEY(callee->idx, inst), i, callee->idx);
    if (!ploc || i >= in->n_args) continue;
    const tc_opnd *o = &in->args[i];
    if (mem_is_record_type(&fn->params[i].type) && o->kind == TC_OPND_PATH) {
      targets st;
      if (mem_resolve(f, entry, &o->path, &st) && st.n >= 1 && !st.overflow) {
        copy_note cn = {PV_PARAM, &in->loc, fn->name, fn->params[i].name};
        mem_copy_joined(e, entry, ploc, &st, &fn->params[i].type, 0, &cn);
      } else {
        aval top = av_top();
        mem_write(e, entry, ploc, &top, 0);
      }
      continue;
    }
    aval v = mem_eval(f, entry, o, NULL);
    v.drel = DR_NONE;
    if (v.prov && v.k == AV_TENSOR)
      v.prov = prov_new(e, PV_PARAM, v.prov, &in->loc, fn->name, fn->params[i].name, v.tag);
    mem_write(e, entry, ploc, &v, 0);
  }
}

static void post_return(frame *f, astate *x, const tc_insn *in, fninfo *callee,
                        uint32_t inst) {
  tc_eng *e = f->e;
  if (in->has_dst) {
    uint32_t ret = loc_root(e, LK_RET, FRAME_KEY(callee->idx, inst), 0, callee->idx);
    targets dt;
    if (ret && mem_resolve(f, x, &in->dst, &dt)) {
      if (mem_is_record_type(&callee->fn->ret_type)) {
        copy_note cn = {PV_RETURN, &in->loc, callee->fn->name, 0};
        for (int i = 0; i < dt.n; i++)
          mem_copy_subtree(e, x, dt.loc[i], ret, dt.weak || dt.n > 1, &cn);
      } else {
        aval v = mem_eff(e, x, ret);
        if (v.prov && v.k == AV_TENSOR)
          v.prov = prov_new(e, PV_RETURN, v.prov, &in->loc, callee->fn->name, 0, v.tag);
        mem_write_targets(e, x, &dt, &v);
      }
    }
  }
  frame_clear(e, x, callee, inst);
}

/* Is id a local, parameter or temporary of the activation frame_key (or a part of one)? */
static int in_frame_body(const tc_eng *e, uint32_t id, uint32_t frame_key) {
  const eloc *r = &e->locs[e->locs[id].root];
  return (r->kind == LK_LOCAL || r->kind == LK_PARAM || r->kind == LK_TEMP) && r->a == frame_key;
}

static int path_derefs(const tc_path *p) {
  for (uint32_t i = 0; i < p->n_elems; i++)
    if (p->elems[i].kind == TC_ELEM_DEREF) return 1;
  return 0;
}

static void memo_free_partial(memo_entry *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n_exits; i++) free(m->exits[i].delta);
  free(m->exits);
  free(m);
}

/* Is the same function already being analyzed from the same entry (recursion that makes no
   progress)? */
static int recursing(const tc_eng *e, const fninfo *callee, const keybuf *k) {
  for (size_t i = 0; i < e->n_act; i++) {
    const struct active_call *a = &e->act[i];
    if (a->fi == callee && key_same(a->hash, a->hash2, a->n_key, k)) return 1;
  }
  return 0;
}

static void unknown_instead(frame *f, astate entry, const tc_insn *in, fninfo *callee,
                            uint32_t inst, state_list *out) {
  frame_clear(f->e, &entry, callee, inst);
  call_unknown(f, &entry, in);
  slist_push(f->e, out, entry);
}

void call_user(frame *f, astate s, const tc_insn *in, fninfo *callee, state_list *out) {
  tc_eng *e = f->e;
  uint32_t inst = callee->active;
  if (inst >= MAX_INSTANCES || e->depth >= CALL_MAX_DEPTH || callee->too_costly ||
      e->work > e->work_limit || !callee->fn->n_blocks || e->oom) {
    call_unknown(f, &s, in);
    slist_push(e, out, s);
    return;
  }
  astate entry = state_copy(&s);
  state_release(e, &s);
  frame_clear(e, &entry, callee, inst);
  bind_params(f, &entry, in, callee, inst);
  flow_check_touches(f, &entry); /* the arguments' reads, before the callee runs */

  keybuf k = {0x51ed27ull, 0x2545f4914f6cdd1dull, 0};
  int with_prov = callee->n_fresh < PROV_SENSITIVE_CONTEXTS;
  scan_named_roots(e, callee);
  if (hint_applies(e, &entry, callee, inst, with_prov)) {
    k.h1 = callee->hint.h1;
    k.h2 = callee->hint.h2;
    k.n = callee->hint.n;
    e->n_keys_reused++;
  } else {
    build_key(e, &entry, callee, inst, with_prov, &k);
    e->n_keys_walked++;
  }
  if (recursing(e, callee, &k)) {
    unknown_instead(f, entry, in, callee, inst, out);
    return;
  }
  memo_entry *m = memo_find(callee, &k);
  uint32_t chain = chain_intern(e, e->cur_chain, in, callee->idx);
  if (m) {
    if (m->chain != chain)
      outcomes_replay(e, m->out_begin, m->out_end, m->depth, chain,
                      !entry.uncertain && !e->outer_uncertain);
  } else if (memo_count(callee) >= (callee->relevant ? e->max_contexts : IRRELEVANT_CONTEXTS) ||
             (inst > 0 && callee->n_recursive >= RECURSIVE_CONTEXTS)) {
    unknown_instead(f, entry, in, callee, inst, out);
    return;
  } else {
    m = calloc(1, sizeof *m);
    struct active_call *ac = m ? VEC_PUSH(e->act, e->n_act, e->cap_act) : NULL;
    if (!ac) {
      free(m);
      e->oom = 1;
      slist_push(e, out, entry);
      return;
    }
    m->hash = k.h1;
    m->hash2 = k.h2;
    m->n_key = k.n;
    m->chain = chain;
    ac->fi = callee;
    ac->hash = k.h1;
    ac->hash2 = k.h2;
    ac->n_key = k.n;
    uint32_t saved_chain = e->cur_chain;
    int saved_uncertain = e->outer_uncertain;
    e->cur_chain = chain;
    e->outer_uncertain = saved_uncertain || entry.uncertain;
    astate body_entry = state_copy(&entry);
    body_entry.uncertain = 0; /* the callee's own paths, relative to its entry */
    callee->active++;
    e->depth++;
    m->depth = e->depth;
    m->out_begin = e->n_outs;
    size_t saved_slice = e->slice_begin;
    e->slice_begin = e->n_outs;
    state_list exits = {0};
    int rc = flow_analyze(e, callee, inst, body_entry, &exits);
    e->outer_uncertain = saved_uncertain;
    e->depth--;
    callee->active--;
    e->n_act--;
    e->slice_begin = saved_slice;
    e->cur_chain = saved_chain;
    callee->n_fresh++;
    if (inst > 0) callee->n_recursive++;
    callee->analyzed = 1;
    m->out_end = e->n_outs;
    if (rc < 0) {
      if (e->work <= e->work_limit) callee->too_costly = 1;
      memo_free_partial(m);
      slist_release(e, &exits);
      unknown_instead(f, entry, in, callee, inst, out);
      return;
    }
    m->exits = calloc(exits.n ? exits.n : 1, sizeof *m->exits);
    if (!m->exits) e->oom = 1;
    for (size_t i = 0; m->exits && i < exits.n; i++) {
      size_t cap = 0;
      state_diff(e, &entry, &exits.items[i], &m->exits[i].delta, &m->exits[i].n_delta, &cap);
      m->exits[i].avail_yes = exits.items[i].avail_yes;
      m->exits[i].avail_no = exits.items[i].avail_no;
      m->exits[i].avail_reported = exits.items[i].avail_reported;
      m->exits[i].uncertain = exits.items[i].uncertain;
      m->exits[i].merged = exits.items[i].merged;
      m->exits[i].decorrelated = exits.items[i].decorrelated > entry.decorrelated;
    }
    m->n_exits = m->exits ? exits.n : 0;
    slist_release(e, &exits);
    m->next = callee->memo;
    callee->memo = m;
  }
  /* continue with each exit of the callee; its locals, parameters and temporaries are
     forgotten on return (post_return): not written at all when nothing reads them before —
     the destination is reached without pointers (which could lead into the callee's frame) */
  uint32_t frame_key = FRAME_KEY(callee->idx, inst);
  int skip_frame = !in->has_dst || !path_derefs(&in->dst);
  for (size_t i = 0; i < m->n_exits; i++) {
    astate x = state_copy(&entry);
    const memo_exit *me = &m->exits[i];
    for (size_t d = 0; d < me->n_delta; d++) {
      if (skip_frame && in_frame_body(e, me->delta[d].id, frame_key)) continue;
      st_set(e, &x.mem, me->delta[d].id, &me->delta[d].v);
    }
    x.avail_yes = me->avail_yes | entry.avail_yes;
    x.avail_no = me->avail_no | entry.avail_no;
    x.avail_reported = me->avail_reported | entry.avail_reported;
    x.uncertain = entry.uncertain | me->uncertain;
    x.merged = entry.merged | me->merged;
    /* a branch in the callee decorrelated the sets that exist now (a replayed analysis's
       branch ran "during" this call too) */
    x.decorrelated = me->decorrelated ? (uint32_t)e->n_tagsets : entry.decorrelated;
    post_return(f, &x, in, callee, inst);
    flow_check_touches(f, &x);
    slist_push(e, out, x);
  }
  state_release(e, &entry);
}

/* Values an argument reads through a pointer (`printf("%f", y[0])`) are memory the host
   touches: read them, so that an API whose tensors hold data pointers (rules with tensor
   fields) gets the access checked even when the callee ignores the value. */
static void touch_args(frame *f, astate *s, const tc_insn *in) {
  if (!f->e->f_data) return;
  for (uint32_t i = 0; i < in->n_args; i++) {
    const tc_opnd *o = &in->args[i];
    if (o->kind != TC_OPND_PATH) continue;
    int through_pointer = 0;
    for (uint32_t k = 0; k < o->path.n_elems; k++)
      through_pointer |= o->path.elems[k].kind == TC_ELEM_DEREF;
    if (through_pointer) (void)mem_eval(f, s, o, NULL);
  }
}

/* 1 when a direct call's callee is a function the rules say never returns ("noreturn"). */
static int ends_path(tc_eng *e, const tc_insn *in) {
  if (in->callee.indirect || !in->callee.name) return 0;
  uint32_t v;
  if (map_get(&e->noreturn_by_name, in->callee.name, &v)) return v == 2;
  int nr = tc_rules_is_noreturn(e->rules, tc_str(e->prog, in->callee.name));
  if (map_put(&e->noreturn_by_name, in->callee.name, 1u + (uint32_t)nr)) e->oom = 1;
  return nr;
}

static void dispatch(frame *f, astate s, const tc_insn *in, state_list *out) {
  tc_eng *e = f->e;
  const tc_api_fn *api = NULL;
  fninfo *callee = NULL;
  if (!in->callee.indirect) {
    api = api_lookup(e, in->callee.name);
    if (!api) callee = fn_lookup(e, f->fi->unit, in->callee.usr, in->callee.name);
  } else {
    aval t = mem_eval(f, &s, &in->callee.target, NULL);
    if (t.k == AV_FUNC) {
      callee = fn_lookup(e, f->fi->unit, (tc_sym)t.i, 0);
      if (!callee) api = api_of_usr(e, (tc_sym)t.i);
    }
  }
  if (api) {
    touch_args(f, &s, in);
    api_call(f, &s, in, api);
    flow_check_touches(f, &s);
    slist_push(e, out, s);
    return;
  }
  if (callee) {
    call_user(f, s, in, callee, out);
    return;
  }
  touch_args(f, &s, in);
  if (in->callee.indirect || !api_family_call(f, &s, in)) call_unknown(f, &s, in);
  slist_push(e, out, s);
}

void call_dispatch(frame *f, astate s, const tc_insn *in, state_list *out) {
  if (!ends_path(f->e, in)) {
    dispatch(f, s, in, out);
    return;
  }
  /* the call is made (its arguments checked like any call's), then the path ends */
  state_list ended = {0};
  dispatch(f, s, in, &ended);
  for (size_t k = 0; k < ended.n; k++) state_release(f->e, &ended.items[k]);
  free(ended.items);
}

int api_usr_is_api(tc_eng *e, tc_sym usr) {
  const tc_api_fn *f = api_of_usr(e, usr);
  return f && f->api;
}
