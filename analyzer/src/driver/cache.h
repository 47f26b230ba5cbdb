/* analyzer/src/driver/cache.h — the analysis cache (SPEC §5), in DIR/.tagcheck-cache/:
 *  - each unit's lowered IR under a key made of the unit's file and arguments, valid while the
 *    unit's file and every file it included still have the contents they had (content hashes);
 *  - the last whole-program analysis, under a key made of every unit's IR digest (in order),
 *    the rules files' contents and the engine's options: an unchanged tree skips the engine.
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
   the unit's recorded failure (malloc'd) or NULL; *digest a hash of the unit's IR and failure. */
tc_program *tc_cache_lookup(tc_cache *c, const tc_compile_cmd *cmd, char **failure,
                            uint64_t *digest);
/* Stores prog (one unit) for cmd with the files it read, and returns the unit's digest (as
   lookup would give it), 0 when prog could not be serialized. Write errors are silent: the
   cache is only an optimization. */
uint64_t tc_cache_store(tc_cache *c, const tc_compile_cmd *cmd, const tc_program *prog,
                        const char *failure, char *const *deps, size_t n_deps);
/* A digest for a unit that has no IR (only a failure). */
uint64_t tc_cache_failure_digest(const char *file, const char *failure);

/* The key of a whole-program analysis: the units' digests in order, the rules files' contents,
   the engine's options. 0 when a rules file cannot be read (then nothing is cached). */
uint64_t tc_cache_results_key(const uint64_t *digests, size_t n, const char *const *rules_paths,
                              size_t n_rules, const tc_engine_opts *eo);
/* Appends the findings of the last analysis stored under key to out; 0 on a hit, -1 else. */
int tc_cache_load_results(tc_cache *c, uint64_t key, tc_report *out);
/* Stores the findings in r (diags and their notes; not failures or rules) under key. */
void tc_cache_store_results(tc_cache *c, uint64_t key, const tc_report *r);

#endif /* TC_CACHE_H */
