/* analyzer/src/driver/selection.h — what part of a database one run reports (SPEC §7 "Whole
 * program in every mode"): named files (sources or headers) select the programs — components
 * of the database — that contain them, and the report keeps every finding whose primary
 * location or any step of its trace is in a named file; `--shard K/N` deals whole programs to
 * shards, balanced by their size; without a database, the functions a unit calls that no unit
 * given defines are named, since their tags are unknown. */
#ifndef TC_SELECTION_H
#define TC_SELECTION_H

#include <stddef.h>

#include "driver/jobs.h"
#include "engine/engine.h"
#include "report/diag.h"

typedef struct tc_selection {
  char **files; /* named files, absolute and normalized; none: everything is selected */
  size_t n_files;
} tc_selection;

/* The unit (its main file, and the files it read when known) holds a named file. */
int tc_selection_has_unit(const tc_selection *s, const char *file, const tc_job_unit *u);
/* The finding's location or a note's is in a named file (always, with no named file). */
int tc_selection_keeps(const tc_selection *s, const tc_diag *d);

/* shard[c] for every component root c (comp[c] == c, see driver/components.h): which of
   `count` shards analyzes it. Components go, largest first, to the shard with the least work so
   far (size: IR instructions and units), so every shard job computes the same deal. */
void tc_shard_components(const tc_job_unit *units, size_t n, const size_t *comp, int count,
                         int *shard);

/* A function called with or for a tensor or a device that no unit given defines, and the first
   call of it (strings point into the units' programs). */
typedef struct tc_call_elsewhere {
  const char *name;
  const char *file; /* of the call */
  unsigned line, col;
} tc_call_elsewhere;

/* Up to max functions the units call with or for a tensor or a device that no unit defines and
   the rules do not describe. Returns how many there are in all. */
size_t tc_calls_defined_elsewhere(const tc_job_unit *units, size_t n, const tc_rules *rules,
                                  tc_call_elsewhere *out, size_t max);

#endif /* TC_SELECTION_H */
