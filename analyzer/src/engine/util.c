/* analyzer/src/engine/util.c — the engine's small containers: a bump allocator for things that
 * live as long as one analysis (provenance, notes, messages), growable arrays, and an
 * open-addressing map from 64-bit keys to 32-bit values. */
#include <stdlib.h>
#include <string.h>

#include "engine/eng.h"
#include "base/bytes.h"

struct tc_chunk {
  tc_chunk *next;
  size_t size;
  max_align_t data[];
};

void *bump_alloc(tc_bump *b, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!b->head || b->used + n > b->cap) {
    size_t cap = n > 65536 ? n : 65536;
    tc_chunk *c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->next = b->head;
    c->size = cap;
    b->head = c;
    b->used = 0;
    b->cap = cap;
  }
  void *p = (char *)b->head->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *bump_strdup(tc_bump *b, const char *s) {
  size_t n = strlen(s) + 1;
  char *d = bump_alloc(b, n);
  if (d) memcpy(d, s, n);
  return d;
}

void bump_free(tc_bump *b) {
  tc_chunk *c = b->head;
  while (c) {
    tc_chunk *n = c->next;
    free(c);
    c = n;
  }
  b->head = NULL;
  b->used = b->cap = 0;
}

void *vec_push(void *items_ptr, size_t *n, size_t *cap, size_t elem) {
  void *items;
  memcpy(&items, items_ptr, sizeof items);
  if (*n >= *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    void *p = realloc(items, nc * elem);
    if (!p) return NULL;
    items = p;
    *cap = nc;
    memcpy(items_ptr, &items, sizeof items);
  }
  return (char *)items + (*n)++ * elem;
}

uint64_t hash_bytes(uint64_t h, const void *p, size_t n) { return hash64(tc_fnv64(h, p, n)); }

/* Keys are stored +1-free: key 0 is reserved as "empty", so keys are remapped. */
static uint64_t map_key(uint64_t k) { return k ? k : 0x8000000000000001ull; }

static int map_rehash(tc_map *m, size_t ncap) {
  uint64_t *nk = calloc(ncap, sizeof *nk);
  uint32_t *nv = calloc(ncap, sizeof *nv);
  if (!nk || !nv) {
    free(nk);
    free(nv);
    return -1;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i]) continue;
    size_t h = hash64(m->keys[i]) & (ncap - 1);
    while (nk[h]) h = (h + 1) & (ncap - 1);
    nk[h] = m->keys[i];
    nv[h] = m->vals[i];
  }
  free(m->keys);
  free(m->vals);
  m->keys = nk;
  m->vals = nv;
  m->cap = ncap;
  return 0;
}

int map_put(tc_map *m, uint64_t key, uint32_t val) {
  key = map_key(key);
  if ((m->n + 1) * 2 > m->cap && map_rehash(m, m->cap ? m->cap * 2 : 64)) return -1;
  size_t h = hash64(key) & (m->cap - 1);
  while (m->keys[h] && m->keys[h] != key) h = (h + 1) & (m->cap - 1);
  if (!m->keys[h]) m->n++;
  m->keys[h] = key;
  m->vals[h] = val;
  return 0;
}

int map_get(const tc_map *m, uint64_t key, uint32_t *val) {
  if (!m->cap) return 0;
  key = map_key(key);
  size_t h = hash64(key) & (m->cap - 1);
  while (m->keys[h]) {
    if (m->keys[h] == key) {
      if (val) *val = m->vals[h];
      return 1;
    }
    h = (h + 1) & (m->cap - 1);
  }
  return 0;
}

void map_free(tc_map *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}
