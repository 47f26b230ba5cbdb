/* analyzer/src/driver/unit_table.h — the editor session's table of lowered units (SPEC §7, the
 * editor shows what CI shows, within 300 ms): for each unit of the database lowered from the
 * files on disk, its serialized IR, digest, failure and the files it read, each with the stat
 * stamp (device, inode, size, modification and change times) it had. While every one of its
 * files keeps its stamp, a unit is served from memory: no cache entry read, no file re-hashed,
 * no parse. A unit that reads an editor buffer is never recorded (its IR is not the disk's). */
#ifndef TC_UNIT_TABLE_H
#define TC_UNIT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "driver/jobs.h"
#include "frontend/compdb.h"

typedef struct tc_unit_table tc_unit_table;

tc_unit_table *tc_unit_table_new(void);
void tc_unit_table_free(tc_unit_table *t);

/* Starts a new analysis: each file is stat'ed again (once) by the lookups that follow. */
void tc_unit_table_begin(tc_unit_table *t);

/* Fills u (its cmd set, no result yet) from the table: failure, digest, files (u's from_cache
   set), and *unit, the unit's number in the table's store; u->prog stays NULL (see
   tc_unit_table_view: views are taken once every lookup of an analysis is done, as a lookup may
   add to the store). Returns 1 on a hit; 0 when cmd has no entry or one of its files changed
   on disk since (the entry is then dropped); -1 when out of memory. */
int tc_unit_table_get(tc_unit_table *t, tc_job_unit *u, uint32_t *unit);

/* A view (ir.h) of unit `unit` of the table's store: a one-unit program to analyze, merged into
   an overlay of the store. Valid until the next tc_unit_table_begin. NULL out of memory. */
tc_program *tc_unit_table_view(const tc_unit_table *t, uint32_t unit);

/* Records u's results (lowered from the files on disk, digest set) for u->cmd, replacing what
   the table had; the files are stamped now. Nothing is recorded when u has no program or
   digest, or a file cannot be stat'ed. Returns 0, or -1 when out of memory. */
int tc_unit_table_put(tc_unit_table *t, const tc_job_unit *u);

/* Entries kept (tests, statistics). */
size_t tc_unit_table_size(const tc_unit_table *t);

#endif /* TC_UNIT_TABLE_H */
