/* analyzer/src/driver/config_scope.h — the configuration of each source file, like
 * .clang-tidy: a finding (or a failed unit) is judged by the nearest .tagcheck.json above its
 * file — its enable, disable, severity and exclude — merged over the command line's options.
 * Settings of the whole run (rules, unavailable, fail-on, root) come from the run's own
 * configuration. `--config FILE` names one configuration for every file. */
#ifndef TC_CONFIG_SCOPE_H
#define TC_CONFIG_SCOPE_H

#include <stddef.h>

#include "options.h"

/* o: a private copy of cli's options with their own lists and strings (a configuration file
   merged into o never touches cli's). Returns 0 or -1 (out of memory; o is left empty). */
int tc_options_copy(const tc_options *cli, tc_options *o);

/* Frees what tc_options_copy allocated and what tc_config_load added. */
void tc_options_release(tc_options *o);

typedef struct tc_config_scope tc_config_scope;

/* run: the run's options (cli's merged with the run's configuration, run->config_loaded);
   cli: the command line's before any configuration (run itself when none was loaded). Both
   must outlive the scope. NULL on out of memory. */
tc_config_scope *tc_config_scope_new(const tc_options *cli, const tc_options *run);
void tc_config_scope_free(tc_config_scope *s);

/* The options that judge findings in file: run's, unless a nearer configuration than the run's
   governs file's directory. A configuration that cannot be read is reported on stderr once
   (file:line:col: what) and file is judged by run's options. */
const tc_options *tc_config_scope_for(tc_config_scope *s, const char *file);

/* The command line's options the scope was made with. */
const tc_options *tc_config_scope_cli(const tc_config_scope *s);

/* 1 when a configuration could not be read (the run ends with exit status 2). */
int tc_config_scope_failed(const tc_config_scope *s);

/* tc_config_scope_for as the report layer's lookup (tc_apply_rule_settings_by_file). */
const tc_options *tc_config_scope_lookup(void *scope, const char *file);

#endif /* TC_CONFIG_SCOPE_H */
