/* analyzer/src/driver/cache.h — the analysis cache (SPEC §5): each unit's lowered IR, stored in
 * DIR/.tagcheck-cache/ under a key made of the unit's file and arguments, valid while the unit's
 * file and every file it included still have the contents they had (content hashes, with size
 * and modification time as a fast path). Thread-safe: workers look up and store concurrently. */
#ifndef TC_CACHE_H
#define TC_CACHE_H

#include <stddef.h>

#include "frontend/compdb.h"
#include "ir/ir.h"

typedef struct tc_cache tc_cache;

/* Opens (creating on first store) the cache in dir. Returns NULL when out of memory. */
tc_cache *tc_cache_open(const char *dir);
void tc_cache_close(tc_cache *c);

/* The cached one-unit program for cmd, or NULL (missing, stale or unreadable). *failure gets
   the unit's recorded failure (malloc'd) or NULL. */
tc_program *tc_cache_lookup(tc_cache *c, const tc_compile_cmd *cmd, char **failure);
/* Stores prog (one unit) for cmd with the files it read. Errors are silent: the cache is only
   an optimization. */
void tc_cache_store(tc_cache *c, const tc_compile_cmd *cmd, const tc_program *prog,
                    const char *failure, char *const *deps, size_t n_deps);

#endif /* TC_CACHE_H */
