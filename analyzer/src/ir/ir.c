/* analyzer/src/ir/ir.c — the IR's memory: a program's arena and string table, units, merging
 * per-unit programs into one (the -j workers and the cache produce one program per unit), and
 * overlays and views of a program kept whole (an editor session's lowered units). */
#include "ir/ir.h"
#include "ir/ir_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ---- */

typedef struct tc_chunk {
  struct tc_chunk *next;
  size_t size, used;
  /* payload follows, 16-byte aligned */
} tc_chunk;

struct tc_arena {
  tc_chunk *head; /* the chunk being filled */
  tc_chunk *full; /* older chunks */
};

enum { TC_CHUNK_HDR = (sizeof(tc_chunk) + 15) & ~(size_t)15, TC_CHUNK_MIN = 64 * 1024 };

static unsigned char *chunk_data(tc_chunk *c) { return (unsigned char *)c + TC_CHUNK_HDR; }

static void arena_free_list(tc_chunk *c) {
  while (c) {
    tc_chunk *next = c->next;
    free(c);
    c = next;
  }
}

void *tc_arena_alloc(tc_program *p, size_t bytes) {
  tc_arena *a = p->arena;
  size_t need = (bytes + 15) & ~(size_t)15;
  if (need == 0) need = 16;
  if (!a->head || a->head->size - a->head->used < need) {
    size_t size = need > TC_CHUNK_MIN / 4 ? need : TC_CHUNK_MIN;
    tc_chunk *c = malloc(TC_CHUNK_HDR + size);
    if (!c) return NULL;
    c->size = size;
    c->used = 0;
    if (size == need && a->head) { /* a big block: keep filling the current chunk */
      c->next = a->full;
      a->full = c;
    } else {
      if (a->head) {
        a->head->next = a->full;
        a->full = a->head;
      }
      c->next = NULL;
      a->head = c;
    }
    if (size == need) {
      c->used = need;
      memset(chunk_data(c), 0, need);
      return chunk_data(c);
    }
  }
  void *r = chunk_data(a->head) + a->head->used;
  a->head->used += need;
  memset(r, 0, need);
  return r;
}

/* Moves every chunk of src to dst (pointers into them stay valid). */
static void arena_adopt(tc_arena *dst, tc_arena *src) {
  if (src->head) {
    src->head->next = src->full;
    src->full = src->head;
    src->head = NULL;
  }
  tc_chunk *c = src->full;
  while (c) {
    tc_chunk *next = c->next;
    c->next = dst->full;
    dst->full = c;
    c = next;
  }
  src->full = NULL;
}

/* ---- string table ---- */

struct tc_strtab {
  const char **strs; /* strs[sym]; strs[0] = "" */
  uint32_t *lens;
  uint32_t n, cap;
  uint32_t *slots; /* open addressing: sym or 0 */
  uint32_t n_slots;
};

static uint32_t str_hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

static int strtab_rehash(tc_strtab *t, uint32_t n_slots) {
  uint32_t *slots = calloc(n_slots, sizeof *slots);
  if (!slots) return -1;
  for (uint32_t sym = 1; sym < t->n; sym++) {
    uint32_t i = str_hash(t->strs[sym], t->lens[sym]) & (n_slots - 1);
    while (slots[i]) i = (i + 1) & (n_slots - 1);
    slots[i] = sym;
  }
  free(t->slots);
  t->slots = slots;
  t->n_slots = n_slots;
  return 0;
}

static tc_strtab *strtab_new(void) {
  tc_strtab *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->cap = 256;
  t->strs = malloc(t->cap * sizeof *t->strs);
  t->lens = malloc(t->cap * sizeof *t->lens);
  if (!t->strs || !t->lens || strtab_rehash(t, 512) != 0) {
    free(t->strs);
    free(t->lens);
    free(t);
    return NULL;
  }
  t->strs[0] = "";
  t->lens[0] = 0;
  t->n = 1;
  return t;
}

static void strtab_free(tc_strtab *t) {
  if (!t) return;
  free(t->strs);
  free(t->lens);
  free(t->slots);
  free(t);
}

/* Finds s; when absent and `stored` is non-NULL, adds `stored` (a NUL-terminated copy of s that
   outlives the table) — or, when stored is NULL, asks the caller to make one (returns 0 with
   *slot_out set). */
static tc_sym strtab_find(tc_strtab *t, const char *s, size_t n, uint32_t *slot_out) {
  uint32_t i = str_hash(s, n) & (t->n_slots - 1);
  while (t->slots[i]) {
    uint32_t sym = t->slots[i];
    if (t->lens[sym] == n && memcmp(t->strs[sym], s, n) == 0) return sym;
    i = (i + 1) & (t->n_slots - 1);
  }
  *slot_out = i;
  return 0;
}

static tc_sym strtab_add(tc_strtab *t, uint32_t slot, const char *stored, size_t n) {
  if (t->n == t->cap) {
    uint32_t cap = t->cap * 2;
    const char **strs = realloc(t->strs, cap * sizeof *strs);
    if (!strs) return 0;
    t->strs = strs;
    uint32_t *lens = realloc(t->lens, cap * sizeof *lens);
    if (!lens) return 0;
    t->lens = lens;
    t->cap = cap;
  }
  tc_sym sym = t->n++;
  t->strs[sym] = stored;
  t->lens[sym] = (uint32_t)n;
  t->slots[slot] = sym;
  if ((uint64_t)t->n * 2 > t->n_slots && strtab_rehash(t, t->n_slots * 2) != 0) return 0;
  return sym;
}

tc_sym tc_intern_n(tc_program *p, const char *s, size_t n) {
  if (!s || n == 0) return 0;
  if (n > UINT32_MAX / 2) n = UINT32_MAX / 2;
  uint32_t slot;
  tc_sym sym = strtab_find(p->strings, s, n, &slot);
  if (sym) return sym;
  char *copy = tc_arena_alloc(p, n + 1);
  if (!copy) return 0;
  memcpy(copy, s, n);
  return strtab_add(p->strings, slot, copy, n);
}

tc_sym tc_intern(tc_program *p, const char *s) { return s ? tc_intern_n(p, s, strlen(s)) : 0; }

uint32_t tc_ir_sym_count(const tc_program *p) { return p->strings->n; }

uint32_t tc_program_n_strings(const tc_program *p) { return p && p->strings ? p->strings->n : 0; }

const char *tc_str(const tc_program *p, tc_sym s) {
  if (!p || s == 0 || s >= p->strings->n) return "";
  return p->strings->strs[s];
}

/* ---- program ---- */

tc_program *tc_program_new(void) {
  tc_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->arena = calloc(1, sizeof *p->arena);
  p->strings = strtab_new();
  if (!p->arena || !p->strings) {
    tc_program_free(p);
    return NULL;
  }
  return p;
}

tc_program *tc_program_overlay(const tc_program *base) {
  tc_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->base = base;
  p->arena = calloc(1, sizeof *p->arena);
  p->strings = calloc(1, sizeof *p->strings);
  if (!p->arena || !p->strings) goto oom;
  const tc_strtab *b = base->strings;
  tc_strtab *t = p->strings;
  t->strs = malloc(b->cap * sizeof *t->strs);
  t->lens = malloc(b->cap * sizeof *t->lens);
  t->slots = malloc(b->n_slots * sizeof *t->slots);
  if (!t->strs || !t->lens || !t->slots) goto oom;
  memcpy(t->strs, b->strs, b->n * sizeof *t->strs); /* the strings stay in base's arena */
  memcpy(t->lens, b->lens, b->n * sizeof *t->lens);
  memcpy(t->slots, b->slots, b->n_slots * sizeof *t->slots);
  t->n = b->n;
  t->cap = b->cap;
  t->n_slots = b->n_slots;
  return p;
oom:
  tc_program_free(p);
  return NULL;
}

tc_program *tc_program_view(const tc_program *base, uint32_t i) {
  if (i >= base->n_units) return NULL;
  tc_program *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->base = base;
  p->view = 1;
  p->strings = base->strings;
  p->units = &base->units[i];
  p->n_units = 1;
  return p;
}

void tc_program_free(tc_program *p) {
  if (!p) return;
  if (p->view) { /* everything it points at is base's */
    free(p);
    return;
  }
  if (p->arena) {
    arena_free_list(p->arena->head);
    arena_free_list(p->arena->full);
    free(p->arena);
  }
  strtab_free(p->strings);
  free(p->units);
  free(p);
}

/* The units array grows by powers of two: capacity is derived from the count. */
static int units_reserve(tc_program *p, uint32_t want) {
  uint32_t cap = 4;
  while (cap < p->n_units) cap *= 2;
  if (p->units && want <= cap) return 0;
  while (cap < want) cap *= 2;
  tc_unit *u = realloc(p->units, cap * sizeof *u);
  if (!u) return -1;
  p->units = u;
  return 0;
}

tc_unit *tc_program_add_unit(tc_program *p, tc_sym file) {
  if (units_reserve(p, p->n_units + 1) != 0) return NULL;
  tc_unit *u = &p->units[p->n_units++];
  memset(u, 0, sizeof *u);
  u->file = file;
  return u;
}

static void remap_sym(tc_sym *s, void *ctx) {
  const tc_sym *map = ctx;
  *s = map[*s];
}

int tc_program_merge(tc_program *dst, tc_program *src) {
  if (!src) return 0;
  int rc = -1;
  if (src->view) { /* its symbols are base's, which an overlay of base numbers the same */
    if (dst->base == src->base && !dst->view && units_reserve(dst, dst->n_units + 1) == 0) {
      dst->units[dst->n_units++] = src->units[0];
      rc = 0;
    }
    tc_program_free(src);
    return rc;
  }
  tc_strtab *st = src->strings;
  tc_sym *map = malloc(st->n * sizeof *map);
  if (!map || units_reserve(dst, dst->n_units + src->n_units) != 0) goto done;
  /* The strings live in src's arena, which dst adopts: intern the pointers, no copies. */
  arena_adopt(dst->arena, src->arena);
  map[0] = 0;
  for (uint32_t s = 1; s < st->n; s++) {
    uint32_t slot;
    tc_sym d = strtab_find(dst->strings, st->strs[s], st->lens[s], &slot);
    if (!d) d = strtab_add(dst->strings, slot, st->strs[s], st->lens[s]);
    if (!d) goto done;
    map[s] = d;
  }
  for (uint32_t i = 0; i < src->n_units; i++) {
    tc_unit *u = &dst->units[dst->n_units++];
    *u = src->units[i];
    tc_ir_walk_unit_syms(u, remap_sym, map);
  }
  rc = 0;
done:
  free(map);
  tc_program_free(src);
  return rc;
}

/* ---- front-end coverage (--stats) ---- */

void tc_lower_stats_add(tc_lower_stats *a, const tc_lower_stats *b) {
  a->functions += b->functions;
  a->methods += b->methods;
  a->constructors += b->constructors;
  a->lambdas += b->lambdas;
  a->generic_lambdas += b->generic_lambdas;
  a->instantiations += b->instantiations;
  a->patterns += b->patterns;
  a->skipped_instantiated += b->skipped_instantiated;
  a->skipped_system += b->skipped_system;
  a->unknown_stmts += b->unknown_stmts;
  a->unknown_exprs += b->unknown_exprs;
  a->virtual_calls += b->virtual_calls;
  a->truncated += b->truncated;
}

void tc_lower_stats_print(const tc_lower_stats *s, uint32_t n_units, void *file) {
  FILE *f = file;
  fprintf(f, "tagcheck: stats: %u units, %u function bodies analyzed (%u member functions and "
             "operators, %u constructors and destructors, %u lambdas (%u generic), %u template "
             "instantiations, %u uninstantiated template patterns)\n",
          n_units, s->functions, s->methods, s->constructors, s->lambdas, s->generic_lambdas,
          s->instantiations,
          s->patterns);
  fprintf(f, "tagcheck: stats: bodies not analyzed: %u template patterns (analyzed through "
             "their instantiations), %u instantiations of system-header templates\n",
          s->skipped_instantiated, s->skipped_system);
  fprintf(f, "tagcheck: stats: constructs lowered as unknown: %u statements, %u expressions, "
             "%u virtual calls (callee unknown); %u bodies nested too deeply to lower whole\n",
          s->unknown_stmts, s->unknown_exprs, s->virtual_calls, s->truncated);
}
