/* analyzer/src/driver/components.h — which units of a database can affect each other's
 * analysis: units linked by a call to a function another unit defines, by a function whose
 * address another unit takes, or by a global both name. Each connected set (a component: one
 * program of a database that holds several, or a library and its users) is analyzed, and
 * cached, on its own, so a one-file change re-analyzes only the component holding that file. */
#ifndef TC_COMPONENTS_H
#define TC_COMPONENTS_H

#include <stddef.h>
#include <stdint.h>

#include "driver/jobs.h"

/* comp[i] = the component of units[i]: the index of its first unit (so components are numbered
   in unit order). Units without a program are components of their own. Returns the number of
   components, or 0 when out of memory. */
size_t tc_unit_components(const tc_job_unit *units, size_t n, size_t *comp);

#endif /* TC_COMPONENTS_H */
