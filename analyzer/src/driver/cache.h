/* analyzer/src/driver/cache.h — the analysis cache (SPEC §5), in DIR/.tagcheck-cache/:
 *  - each unit's lowered IR under a key made of the unit's file, arguments and include
 *    environment, valid while the unit's file and every file it included still have the
 *    contents they had (content hashes) and no header has appeared that would be found first;
 *  - the last whole-program analysis, under a key made of every unit's IR digest (in order),
 *    the rules' contents and the engine's options: an unchanged tree skips the engine.
 * Every entry carries a checksum (a damaged entry is a miss); tc_cache_prune bounds the size.
 * Thread-safe: workers look up and store units concurrently. */
#ifndef TC_CACHE_H
#define TC_CACHE_H

#include <stddef.h>

#include <stdint.h>

#include "engine/engine.h"
#include "frontend/compdb.h"
#include "ir/ir.h"
#include "report/diag.h"

typedef struct tc_cache tc_cache;

/* Opens (creating on first store) the cache in dir. Returns NULL when out of memory. */
tc_cache *tc_cache_open(const char *dir);
void tc_cache_close(tc_cache *c);

/* The cached one-unit program for cmd, or NULL (missing, stale or unreadable). *failure gets
   the unit's recorded failure (malloc'd) or NULL; *digest a hash of the unit's IR and failure;
   with deps not NULL, *deps / *n_deps the files the unit read (malloc'd, on a hit). */
tc_program *tc_cache_lookup(tc_cache *c, const tc_compile_cmd *cmd, char **failure,
                            uint64_t *digest, char ***deps, size_t *n_deps);
/* What a unit's parse depended on besides its command: the files it read (the main file
   first) and the headers it looked for and did not find (as spelled in #include). */
typedef struct tc_unit_inputs {
  char *const *deps;
  size_t n_deps;
  char *const *missing;
  size_t n_missing;
} tc_unit_inputs;

/* Stores prog (one unit) for cmd with its inputs, and returns the unit's digest (as lookup
   would give it), 0 when prog could not be serialized. Write errors are silent: the cache is
   only an optimization. */
uint64_t tc_cache_store(tc_cache *c, const tc_compile_cmd *cmd, const tc_program *prog,
                        const char *failure, const tc_unit_inputs *in);
/* The digest tc_cache_store would give prog, without storing it (units parsed with an editor's
   unsaved text: their findings can still come from the results cache). 0 when prog cannot be
   serialized. */
uint64_t tc_cache_digest(const tc_program *prog, const char *failure);
/* A digest for a unit that has no IR (only a failure). */
uint64_t tc_cache_failure_digest(const char *file, const char *failure);

/* The key of a whole-program analysis: the units' digests in order, the hash of the rules'
   contents as they were loaded (tc_rules_content_hash), the engine's options. Never 0. */
uint64_t tc_cache_results_key(const uint64_t *digests, size_t n, uint64_t rules_hash,
                              const tc_engine_opts *eo);
/* Appends the findings of the last analysis stored under key to out; 0 on a hit, -1 else. */
int tc_cache_load_results(tc_cache *c, uint64_t key, tc_report *out);
/* Stores the findings in r (diags and their notes; not failures or rules) under key. */
void tc_cache_store_results(tc_cache *c, uint64_t key, const tc_report *r);

/* Keeps the cache directory under max_bytes, removing the least recently used entries first,
   and removes temporary files left by killed runs. */
void tc_cache_prune(tc_cache *c, uint64_t max_bytes);

#endif /* TC_CACHE_H */
