/* analyzer/src/engine/fingerprint.c — the fingerprint of what an analysis of a program reads
 * (engine.h, tc_engine_fingerprint_of): every function's IR, unit and flags except the inert
 * functions', the globals changed after their initializers, the number of root groups; and
 * the work budget below which the budget never decided anything. Why an inert function cannot
 * change the findings: it reaches no API call, so it is never a root (engine_entry_roots) and
 * never analyzed; nothing calls it and nobody takes its address, so no analysis reaches it or
 * looks it up (its name and USR are its own: no lookup by name or USR finds it instead of
 * another function); what it could change in other functions' flags (a callee's `called`, a
 * global written) is in the key; its instructions only raise the whole-program budget, which
 * an analysis that stayed below work_floor never reached. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "engine/eng.h"

static int is_inert(tc_eng *e, const fninfo *fi, const tc_map *name_count) {
  const tc_function *fn = fi->fn;
  if (fi->is_init || fi->is_main || fi->relevant || fi->called || fi->address_taken) return 0;
  uint32_t idx, count = 0;
  if (fn->usr && (!map_get(&e->fn_by_usr, fn->usr, &idx) || idx != fi->idx)) return 0;
  if (fi->next_same_usr) return 0;
  if (fn->name && (!map_get(name_count, fn->name, &count) || count != 1 || api_lookup(e, fn->name)))
    return 0;
  return 1;
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The globals changed after their initializers, as text in order (their symbols' numbers
   depend on the rest of the program). */
static uint64_t hash_mutable_globals(const tc_program *prog, const tc_map *mg, uint64_t h,
                                     int *oom) {
  const char **names = calloc(mg->n ? mg->n : 1, sizeof *names);
  if (!names) {
    *oom = 1;
    return h;
  }
  size_t n = 0;
  for (size_t s = 0; s < mg->cap && n < mg->n; s++)
    if (mg->keys[s]) names[n++] = tc_str(prog, (tc_sym)mg->keys[s]);
  qsort(names, n, sizeof *names, by_text);
  for (size_t i = 0; i < n; i++) h = tc_fnv64(h, names[i], strlen(names[i]) + 1);
  free(names);
  return tc_fnv64(h, &n, sizeof n);
}

/* ---- the memo of units' parts ---- */

#define MEMO_MAX 4096u /* entries kept before the memo starts over (edits make new digests) */

struct tc_fingerprint_memo {
  tc_map index; /* unit digest -> slot + 1 */
  uint64_t *parts;
  size_t n, cap;
};

tc_fingerprint_memo *tc_fingerprint_memo_new(void) { return calloc(1, sizeof(tc_fingerprint_memo)); }

void tc_fingerprint_memo_free(tc_fingerprint_memo *m) {
  if (!m) return;
  map_free(&m->index);
  free(m->parts);
  free(m);
}

static int memo_get(const tc_fingerprint_memo *m, uint64_t digest, uint64_t *part) {
  uint32_t slot;
  if (!m || !digest || !map_get(&m->index, digest, &slot)) return 0;
  *part = m->parts[slot - 1];
  return 1;
}

static void memo_put(tc_fingerprint_memo *m, uint64_t digest, uint64_t part) {
  if (!m || !digest) return;
  if (m->n >= MEMO_MAX) { /* bounded: a long session's old digests go */
    map_free(&m->index);
    memset(&m->index, 0, sizeof m->index);
    m->n = 0;
  }
  uint64_t *slot = VEC_PUSH(m->parts, m->n, m->cap);
  if (!slot) return;
  *slot = part;
  if (map_put(&m->index, digest, (uint32_t)m->n)) m->n--; /* out of memory: not kept */
}

/* The part of unit u in the fingerprint: its frame and every function of it (deduplicated
   copies included: which copy is kept depends on other units) but the inert ones. Depends only
   on the unit's code when it holds no inert function: then memoized by its digest. */
static int unit_part(tc_ir_hasher *hasher, const tc_unit *u, const tc_map *inert_fns,
                     uint64_t *part) {
  uint64_t h = TC_FNV_INIT;
  if (tc_ir_hash_unit_frame(hasher, u, &h)) return -1;
  for (uint32_t i = 0; i <= u->n_functions; i++) {
    const tc_function *fn = i < u->n_functions ? &u->functions[i] : u->global_init;
    if (!fn) continue;
    if (map_get(inert_fns, (uint64_t)(uintptr_t)fn, NULL)) continue;
    if (tc_ir_hash_function(hasher, fn, &h)) return -1; /* in order: no place (an inert
                                                             function's would move the rest) */
  }
  *part = h;
  return 0;
}

int tc_engine_fingerprint_of(const tc_program *prog, const uint64_t *unit_digests,
                             tc_fingerprint_memo *memo, const tc_rules *rules,
                             const tc_engine_opts *opts, tc_engine_fingerprint *fp) {
  memset(fp, 0, sizeof *fp);
  tc_map mutable_globals = {0}, name_count = {0}, inert_fns = {0};
  tc_eng *e = engine_index(prog, rules, opts, &mutable_globals, 0);
  uint32_t *roots = e ? calloc(e->n_fns ? e->n_fns : 1, sizeof *roots) : NULL;
  uint8_t *inert = e ? calloc(e->n_fns ? e->n_fns : 1, 1) : NULL;
  uint8_t *unit_inert = e ? calloc(prog->n_units ? prog->n_units : 1, 1) : NULL;
  tc_ir_hasher *hasher = e ? tc_ir_hasher_new(prog) : NULL;
  int oom = !roots || !inert || !unit_inert || !hasher;
  for (size_t f = 0; !oom && f < e->n_fns; f++) {
    tc_sym name = e->fns[f].fn->name;
    uint32_t c = 0;
    if (!name || e->fns[f].is_init) continue;
    map_get(&name_count, name, &c);
    if (map_put(&name_count, name, c + 1)) oom = 1;
  }
  for (size_t f = 0; !oom && f < e->n_fns; f++)
    if (is_inert(e, &e->fns[f], &name_count)) {
      inert[f] = 1;
      unit_inert[e->fns[f].unit - prog->units] = 1;
      fp->n_inert++;
      if (map_put(&inert_fns, (uint64_t)(uintptr_t)e->fns[f].fn, 1)) oom = 1;
    }
  uint64_t h = TC_FNV_INIT;
  for (uint32_t u = 0; !oom && u < prog->n_units; u++) {
    uint64_t digest = unit_digests && !unit_inert[u] ? unit_digests[u] : 0, part = 0;
    if (!memo_get(memo, digest, &part)) {
      if (unit_part(hasher, &prog->units[u], &inert_fns, &part)) oom = 1;
      else memo_put(memo, digest, part);
    }
    h = tc_fnv64(h, &part, sizeof part);
  }
  /* each function's flags, in the engine's order (the order of the units' parts) and with its
     unit */
  unsigned long long kept_insns = 0;
  for (size_t f = 0; !oom && f < e->n_fns; f++) {
    const fninfo *fi = &e->fns[f];
    if (inert[f]) continue;
    kept_insns += engine_fn_insns(fi->fn);
    const int bits[] = {fi->called, fi->relevant, fi->allocates, fi->moves_tags,
                        fi->address_taken, fi->is_main, fi->is_init, fi->next_same_usr != 0};
    uint32_t words[2] = {(uint32_t)(fi->unit - prog->units), 0};
    for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++) words[1] |= (uint32_t)(bits[k] != 0) << k;
    h = tc_fnv64(h, words, sizeof words);
  }
  if (!oom) h = hash_mutable_globals(prog, &mutable_globals, h, &oom);
  if (!oom) {
    uint64_t groups = engine_group_count(engine_program_insns(prog), opts, engine_entry_roots(e, roots));
    h = tc_fnv64(h, &groups, sizeof groups);
    fp->key = h ? h : 1;
    fp->work_floor = engine_work_limit(kept_insns);
  }
  tc_ir_hasher_free(hasher);
  free(roots);
  free(inert);
  free(unit_inert);
  map_free(&name_count);
  map_free(&inert_fns);
  map_free(&mutable_globals);
  if (e) engine_free(e);
  return oom ? -1 : 0;
}
