/* analyzer/src/driver/config.h — the configuration file (.tagcheck.json, docs/ci.md): found by
 * walking up from the analyzed files' directory (or --config FILE) and merged into the options,
 * command-line values first. */
#ifndef TC_DRIVER_CONFIG_H
#define TC_DRIVER_CONFIG_H

#include <stddef.h>

#include "options.h"

/* Finds the configuration file (o->config, or .tagcheck.json walking up from start_dir) and
   merges it into o (command-line values win). Returns 0 (also when there is none), or -1 with
   "FILE:LINE:COL: what is wrong" in err (exit status 2). */
int tc_config_load(tc_options *o, const char *start_dir, char *err, size_t err_len);

/* .tagcheck.json in start_dir (absolute or relative) or the nearest directory above it, as a
   normalized absolute path (the caller frees it); NULL when there is none. */
char *tc_config_find(const char *start_dir);

/* Frees what tc_config_load added to o (the severity, exclude and config_loaded fields; the
   strings it appends to rules_files, enable/disable_rules and unavailable are heap copies the
   owner of o frees with the rest). */
void tc_options_free_config(tc_options *o);

#endif /* TC_DRIVER_CONFIG_H */
