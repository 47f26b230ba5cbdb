/* analyzer/src/frontend/lower_maps.c — the small containers the lowering uses: lists of child
 * cursors, maps from declaration cursors and from pointer pairs (libclang handles) to values. */
#include "frontend/lower_internal.h"

#include <stdlib.h>
#include <string.h>

void lw_cursors_init(lw_cursors *l) {
  l->v = l->local;
  l->n = 0;
  l->cap = (uint32_t)(sizeof l->local / sizeof l->local[0]);
}

void lw_cursors_free(lw_cursors *l) {
  if (l->v != l->local) free(l->v);
  lw_cursors_init(l);
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  lw_cursors *l = data;
  if (l->n == l->cap) {
    uint32_t cap = l->cap * 2;
    CXCursor *v = malloc(cap * sizeof *v);
    if (!v) return CXChildVisit_Break;
    memcpy(v, l->v, l->n * sizeof *v);
    if (l->v != l->local) free(l->v);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = c;
  return CXChildVisit_Continue;
}

void lw_children(CXCursor c, lw_cursors *l) {
  l->n = 0;
  clang_visitChildren(c, collect, l);
}

/* ---- cursor map ---- */

void lw_cmap_free(lw_cmap *m) {
  free(m->slots);
  memset(m, 0, sizeof *m);
}

lw_cmap_entry *lw_cmap_find(const lw_cmap *m, CXCursor key) {
  if (!m->n_slots) return NULL;
  uint32_t i = clang_hashCursor(key) & (m->n_slots - 1);
  while (m->slots[i].used) {
    if (clang_equalCursors(m->slots[i].key, key)) return &m->slots[i];
    i = (i + 1) & (m->n_slots - 1);
  }
  return NULL;
}

static int cmap_resize(lw_cmap *m, uint32_t n_slots) {
  lw_cmap_entry *slots = calloc(n_slots, sizeof *slots);
  if (!slots) return -1;
  for (uint32_t k = 0; k < m->n_slots; k++) {
    if (!m->slots[k].used) continue;
    uint32_t i = clang_hashCursor(m->slots[k].key) & (n_slots - 1);
    while (slots[i].used) i = (i + 1) & (n_slots - 1);
    slots[i] = m->slots[k];
  }
  free(m->slots);
  m->slots = slots;
  m->n_slots = n_slots;
  return 0;
}

lw_cmap_entry *lw_cmap_put(lw_cmap *m, CXCursor key, int *added) {
  lw_cmap_entry *e = lw_cmap_find(m, key);
  if (added) *added = 0;
  if (e) return e;
  if ((m->n + 1) * 2 > m->n_slots && cmap_resize(m, m->n_slots ? m->n_slots * 2 : 64) != 0)
    return NULL;
  uint32_t i = clang_hashCursor(key) & (m->n_slots - 1);
  while (m->slots[i].used) i = (i + 1) & (m->n_slots - 1);
  e = &m->slots[i];
  memset(e, 0, sizeof *e);
  e->key = key;
  e->used = 1;
  m->n++;
  if (added) *added = 1;
  return e;
}

/* ---- pointer-pair map ---- */

static uint32_t ptr_hash(const void *k1, const void *k2) {
  uint64_t h = (uint64_t)(uintptr_t)k1 * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(uintptr_t)k2 + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= h >> 29;
  return (uint32_t)h;
}

void lw_pmap_free(lw_pmap *m) {
  free(m->slots);
  memset(m, 0, sizeof *m);
}

uint32_t *lw_pmap_get(const lw_pmap *m, const void *k1, const void *k2) {
  if (!m->n_slots) return NULL;
  uint32_t i = ptr_hash(k1, k2) & (m->n_slots - 1);
  while (m->slots[i].used) {
    if (m->slots[i].k1 == k1 && m->slots[i].k2 == k2) return &m->slots[i].value;
    i = (i + 1) & (m->n_slots - 1);
  }
  return NULL;
}

static int pmap_resize(lw_pmap *m, uint32_t n_slots) {
  lw_pmap_entry *slots = calloc(n_slots, sizeof *slots);
  if (!slots) return -1;
  for (uint32_t k = 0; k < m->n_slots; k++) {
    if (!m->slots[k].used) continue;
    uint32_t i = ptr_hash(m->slots[k].k1, m->slots[k].k2) & (n_slots - 1);
    while (slots[i].used) i = (i + 1) & (n_slots - 1);
    slots[i] = m->slots[k];
  }
  free(m->slots);
  m->slots = slots;
  m->n_slots = n_slots;
  return 0;
}

uint32_t *lw_pmap_put(lw_pmap *m, const void *k1, const void *k2) {
  uint32_t *v = lw_pmap_get(m, k1, k2);
  if (v) return v;
  if ((m->n + 1) * 2 > m->n_slots && pmap_resize(m, m->n_slots ? m->n_slots * 2 : 64) != 0)
    return NULL;
  uint32_t i = ptr_hash(k1, k2) & (m->n_slots - 1);
  while (m->slots[i].used) i = (i + 1) & (m->n_slots - 1);
  m->slots[i].used = 1;
  m->slots[i].k1 = k1;
  m->slots[i].k2 = k2;
  m->slots[i].value = LW_NONE;
  m->n++;
  return &m->slots[i].value;
}
