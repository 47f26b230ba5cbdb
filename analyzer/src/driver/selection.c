/* analyzer/src/driver/selection.c — named files, shards of programs, calls into other units
 * (driver/selection.h). */
#include "driver/selection.h"

#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "base/bytes.h"

static int named(const tc_selection *s, const char *file) {
  for (size_t i = 0; file && i < s->n_files; i++)
    if (strcmp(s->files[i], file) == 0) return 1;
  return 0;
}

int tc_selection_has_unit(const tc_selection *s, const char *file, const tc_job_unit *u) {
  if (named(s, file)) return 1;
  for (size_t i = 0; i < u->n_deps; i++)
    if (named(s, u->deps[i])) return 1;
  return 0;
}

int tc_selection_keeps(const tc_selection *s, const tc_diag *d) {
  if (s->n_files == 0 || named(s, d->loc.file)) return 1;
  for (size_t i = 0; i < d->n_notes; i++)
    if (named(s, d->notes[i].loc.file)) return 1;
  return 0;
}

static size_t unit_size(const tc_job_unit *u) {
  size_t size = 1;
  for (uint32_t k = 0; u->prog && k < u->prog->n_units; k++) {
    const tc_unit *un = &u->prog->units[k];
    for (uint32_t f = 0; f < un->n_functions; f++)
      for (uint32_t b = 0; b < un->functions[f].n_blocks; b++)
        size += un->functions[f].blocks[b].n_insns + 1;
  }
  return size;
}

typedef struct sized {
  size_t root, size;
} sized;

static int larger_first(const void *a, const void *b) {
  const sized *x = a, *y = b;
  if (x->size != y->size) return x->size < y->size ? 1 : -1;
  return x->root < y->root ? -1 : x->root > y->root; /* the same order in every shard job */
}

void tc_shard_components(const tc_job_unit *units, size_t n, const size_t *comp, int count,
                         int *shard) {
  sized *v = calloc(n ? n : 1, sizeof *v);
  size_t *load = calloc((size_t)count, sizeof *load);
  size_t *size_of = calloc(n ? n : 1, sizeof *size_of);
  if (!v || !load || !size_of) { /* out of memory: one shard takes all (still exact) */
    for (size_t i = 0; i < n; i++) shard[i] = 0;
    goto done;
  }
  for (size_t i = 0; i < n; i++) size_of[comp[i]] += unit_size(&units[i]);
  size_t nc = 0;
  for (size_t i = 0; i < n; i++)
    if (comp[i] == i) v[nc++] = (sized){i, size_of[i]};
  qsort(v, nc, sizeof *v, larger_first);
  /* a binary heap of shards by (load, index): the least loaded, lowest-numbered one on top */
  int *heap = calloc((size_t)count, sizeof *heap);
  if (!heap) {
    for (size_t i = 0; i < n; i++) shard[i] = 0;
    goto done;
  }
  for (int k = 0; k < count; k++) heap[k] = k;
#define SHARD_LESS(a, b) (load[a] < load[b] || (load[a] == load[b] && (a) < (b)))
  for (size_t k = 0; k < nc; k++) {
    int best = heap[0];
    shard[v[k].root] = best;
    load[best] += v[k].size;
    size_t i = 0; /* sift the top down */
    for (;;) {
      size_t l = 2 * i + 1, r = l + 1, m = i;
      if (l < (size_t)count && SHARD_LESS(heap[l], heap[m])) m = l;
      if (r < (size_t)count && SHARD_LESS(heap[r], heap[m])) m = r;
      if (m == i) break;
      int t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
  }
#undef SHARD_LESS
  free(heap);
done:
  free(v);
  free(load);
  free(size_of);
}

/* The type names a tensor handle or a device: a value whose tag the analysis follows. */
static int tagged_type(const tc_program *p, const tc_rules *r, const tc_type *t) {
  const char *names[] = {tc_str(p, t->base_record), tc_str(p, t->record_name), tc_str(p, t->name)};
  for (size_t k = 0; k < 3; k++) {
    if (!names[k][0]) continue;
    for (size_t i = 0; i < r->n_tensor_types; i++)
      if (strcmp(names[k], r->tensor_types[i]) == 0) return 1;
    for (size_t i = 0; i < r->n_device_types; i++)
      if (strcmp(names[k], r->device_types[i].name) == 0) return 1;
  }
  return 0;
}

static int tagged_call(const tc_program *p, const tc_rules *r, const tc_insn *in) {
  if (in->has_dst && tagged_type(p, r, &in->dst_type)) return 1;
  for (uint32_t a = 0; a < in->n_args; a++)
    if (tagged_type(p, r, &in->args[a].type)) return 1;
  return 0;
}

/* A set of symbols (open addressing; 0 is never a symbol). */
typedef struct symset {
  tc_sym *v;
  size_t cap, n;
} symset;

static int symset_add(symset *s, tc_sym x) {
  if ((s->n + 1) * 2 > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 256;
    tc_sym *nv = calloc(cap, sizeof *nv);
    if (!nv) return -1;
    for (size_t i = 0; i < s->cap; i++) {
      if (!s->v[i]) continue;
      size_t j = s->v[i] & (cap - 1);
      while (nv[j]) j = (j + 1) & (cap - 1);
      nv[j] = s->v[i];
    }
    free(s->v);
    s->v = nv;
    s->cap = cap;
  }
  size_t j = x & (s->cap - 1);
  while (s->v[j] && s->v[j] != x) j = (j + 1) & (s->cap - 1);
  if (s->v[j]) return 0;
  s->v[j] = x;
  s->n++;
  return 1;
}

static int symset_has(const symset *s, tc_sym x) {
  if (!s->cap) return 0;
  size_t j = x & (s->cap - 1);
  while (s->v[j]) {
    if (s->v[j] == x) return 1;
    j = (j + 1) & (s->cap - 1);
  }
  return 0;
}

/* A set of names borrowed from the units' string tables (open addressing, by their hash). */
typedef struct nameset {
  const char **v;
  size_t cap, n;
} nameset;

static const char **nameset_slot(const nameset *s, const char *name) {
  size_t j = (size_t)tc_fnv64_str(name) & (s->cap - 1);
  while (s->v[j] && strcmp(s->v[j], name) != 0) j = (j + 1) & (s->cap - 1);
  return &s->v[j];
}

static int nameset_add(nameset *s, const char *name) {
  if ((s->n + 1) * 2 > s->cap) {
    nameset grown = {calloc(s->cap ? s->cap * 2 : 256, sizeof *s->v), s->cap ? s->cap * 2 : 256, 0};
    if (!grown.v) return -1;
    for (size_t i = 0; i < s->cap; i++)
      if (s->v[i]) *nameset_slot(&grown, s->v[i]) = s->v[i];
    grown.n = s->n;
    free(s->v);
    *s = grown;
  }
  const char **slot = nameset_slot(s, name);
  if (!*slot) {
    *slot = name;
    s->n++;
  }
  return 0;
}

static int nameset_has(const nameset *s, const char *name) {
  return s->cap && *nameset_slot(s, name) != NULL;
}

size_t tc_calls_defined_elsewhere(const tc_job_unit *units, size_t n, const tc_rules *rules,
                                  tc_call_elsewhere *out, size_t max) {
  size_t found = 0;
  /* every unit's function names, once: a callee a unit does not define itself is defined by
     another unit given when it is among them */
  nameset everywhere = {0};
  for (size_t i = 0; i < n; i++) {
    const tc_program *p = units[i].prog;
    for (uint32_t k = 0; p && k < p->n_units; k++)
      for (uint32_t f = 0; f < p->units[k].n_functions; f++)
        if (nameset_add(&everywhere, tc_str(p, p->units[k].functions[f].name)) != 0) {
          free(everywhere.v);
          return 0; /* out of memory: no note */
        }
  }
  for (size_t i = 0; i < n; i++) {
    const tc_program *p = units[i].prog;
    if (!p) continue;
    /* each unit has its own string table: compare by symbol within the unit, then by name in
       the index of every unit's definitions */
    symset defined = {0}, reported = {0};
    for (uint32_t k = 0; k < p->n_units; k++)
      for (uint32_t f = 0; f < p->units[k].n_functions; f++)
        symset_add(&defined, p->units[k].functions[f].name);
    for (uint32_t k = 0; k < p->n_units; k++) {
      const tc_unit *un = &p->units[k];
      for (uint32_t f = 0; f < un->n_functions; f++) {
        const tc_function *fn = &un->functions[f];
        for (uint32_t b = 0; b < fn->n_blocks; b++)
          for (uint32_t x = 0; x < fn->blocks[b].n_insns; x++) {
            const tc_insn *in = &fn->blocks[b].insns[x];
            if (in->kind != TC_I_CALL || in->callee.indirect || !in->callee.name) continue;
            tc_sym s = in->callee.name;
            if (symset_has(&defined, s) || symset_add(&reported, s) != 1) continue;
            const char *name = tc_str(p, s);
            if (!name || tc_rules_find(rules, name) || !tagged_call(p, rules, in)) continue;
            if (nameset_has(&everywhere, name)) continue; /* defined by another unit given */
            int dup = 0;
            for (size_t d = 0; d < found && d < max && !dup; d++) dup = strcmp(out[d].name, name) == 0;
            if (dup) continue;
            if (found < max)
              out[found] = (tc_call_elsewhere){name, tc_str(p, in->loc.file), in->loc.line,
                                               in->loc.col};
            found++;
          }
      }
    }
    free(defined.v);
    free(reported.v);
  }
  free(everywhere.v);
  return found;
}
