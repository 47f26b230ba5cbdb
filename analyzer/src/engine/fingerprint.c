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

int tc_engine_fingerprint_of(const tc_program *prog, const tc_rules *rules,
                             const tc_engine_opts *opts, tc_engine_fingerprint *fp) {
  memset(fp, 0, sizeof *fp);
  tc_map mutable_globals = {0}, name_count = {0};
  tc_eng *e = engine_index(prog, rules, opts, &mutable_globals, 0);
  uint32_t *roots = e ? calloc(e->n_fns ? e->n_fns : 1, sizeof *roots) : NULL;
  tc_ir_hasher *hasher = e ? tc_ir_hasher_new(prog) : NULL;
  int oom = !roots || !hasher;
  for (size_t f = 0; !oom && f < e->n_fns; f++) {
    tc_sym name = e->fns[f].fn->name;
    uint32_t c = 0;
    if (!name || e->fns[f].is_init) continue;
    map_get(&name_count, name, &c);
    if (map_put(&name_count, name, c + 1)) oom = 1;
  }
  uint64_t h = TC_FNV_INIT;
  for (uint32_t u = 0; !oom && u < prog->n_units; u++)
    if (tc_ir_hash_unit_frame(hasher, &prog->units[u], &h)) oom = 1;
  unsigned long long kept_insns = 0;
  for (size_t f = 0; !oom && f < e->n_fns; f++) {
    const fninfo *fi = &e->fns[f];
    if (is_inert(e, fi, &name_count)) {
      fp->n_inert++;
      continue;
    }
    kept_insns += engine_fn_insns(fi->fn);
    uint32_t unit = (uint32_t)(fi->unit - prog->units);
    const int bits[] = {fi->called, fi->relevant, fi->allocates, fi->moves_tags,
                        fi->address_taken, fi->is_main, fi->is_init, fi->next_same_usr != 0};
    uint32_t flags = 0;
    for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++) flags |= (uint32_t)(bits[k] != 0) << k;
    h = tc_fnv64(h, &unit, sizeof unit);
    h = tc_fnv64(h, &flags, sizeof flags);
    if (tc_ir_hash_function(hasher, fi->fn, &h)) oom = 1;
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
  map_free(&name_count);
  map_free(&mutable_globals);
  if (e) engine_free(e);
  return oom ? -1 : 0;
}
