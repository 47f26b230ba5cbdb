/* analyzer/src/options.h — tagcheck's command-line options (SPEC §5), parsed by main.c and read
 * by the driver, the engine and the report writers. Heap-owned strings; no globals. */
#ifndef TC_OPTIONS_H
#define TC_OPTIONS_H

#include <stddef.h>

typedef enum tc_format { TC_FORMAT_TEXT = 0, TC_FORMAT_SARIF, TC_FORMAT_JSON } tc_format;
typedef enum tc_color { TC_COLOR_AUTO = 0, TC_COLOR_ALWAYS, TC_COLOR_NEVER } tc_color;
typedef enum tc_fail_on { TC_FAIL_ON_WARNING = 0, TC_FAIL_ON_ERROR, TC_FAIL_ON_NEVER } tc_fail_on;

typedef struct tc_options {
  char *compdb_dir;        /* -p DIR */
  char **rules_files;      /* --rules FILE (repeatable); empty: the installed rules/dt.json */
  size_t n_rules_files;
  tc_format format;        /* --format */
  tc_color color;          /* --color auto|always|never: text output on a terminal */
  char *output;            /* -o FILE; NULL: stdout */
  int jobs;                /* -j N; 0: all cores */
  int lsp;                 /* --lsp */
  char *cache_dir;         /* --cache-dir DIR; default DIR/.tagcheck-cache for -p DIR */
  int no_cache;            /* --no-cache */
  char *root;              /* --root DIR: %SRCROOT% (default: current directory) */
  char *baseline;          /* --baseline FILE.sarif: report only findings not in it */
  char *config;            /* --config FILE; default: .tagcheck.json found walking up */
  tc_fail_on fail_on;      /* --fail-on error|warning|never (default warning: any finding) */
  int shard_index;         /* --shard K/N: this job analyzes entries with index % N == K-1 */
  int shard_count;         /* 0: no sharding */
  int show_suppressed;     /* --show-suppressed: text output lists suppressed findings too */
  int fix;                 /* --fix: apply the findings' fix-its to the sources in place */
  char *export_fixes;      /* --export-fixes FILE.yaml: clang-tidy's YAML of the fix-its */
  char **unavailable;      /* --unavailable BACKEND (repeatable): treat as not available */
  size_t n_unavailable;
  char **enable_rules;     /* --enable RULE / --disable RULE (repeatable; config file too) */
  size_t n_enable_rules;
  char **disable_rules;
  size_t n_disable_rules;
  int dump_ir;             /* --dump-ir: print the lowered IR (debugging) */
  int stats;               /* --stats: the front end's coverage on stderr (tc_lower_stats_print) */
  int quiet;               /* -q: no summary line on stderr */
  int list_rules;          /* --list-rules: print the loaded rules, one a line, and exit */
  char *explain_rule;      /* --explain RULE: print what RULE means, an example, its fix */
  double unit_timeout;     /* --unit-timeout SECONDS: per unit's parse, per program's analysis
                              (main.c sets the default, 300; 0: no limit) */
  long cache_limit_mb;     /* --cache-limit MB: the cache is pruned to this size (0: 1024) */
  char *worker_exe;        /* the tagcheck binary, for unit workers and isolated analyses
                              (main.c sets it; NULL: everything in this process) */
  char **files;            /* FILE... */
  size_t n_files;
  char **extra_args;       /* after --: compiler arguments for FILEs */
  size_t n_extra_args;
  char **extra_before;     /* --extra-arg-before A (clang-tidy's): before the compiler's args */
  size_t n_extra_before;
  char **extra_after;      /* --extra-arg A: after them */
  size_t n_extra_after;
  /* Set by the configuration file (driver/config.c, docs/ci.md); command-line values win. */
  int fail_on_given;       /* main.c sets it when --fail-on was on the command line */
  char **severity_rules;   /* severity overrides: severity_rules[i] -> severity_levels[i], */
  char **severity_levels;  /* one of "error", "warning", "note", "off" */
  size_t n_severity;
  char **exclude;          /* path globs, absolute (config-relative ones are made absolute):
                              findings and units under them are dropped (tc_path_excluded) */
  size_t n_exclude;
  char *config_loaded;     /* the configuration file merged in; NULL when none */
  /* Positions whose tags the analysis records (engine/observe.h), borrowed: the language
     server sets it on its own options for the analysis a hover runs. While it is set the
     analysis runs in this process and no cached findings stand in for it. NULL: none. */
  struct tc_observe *observe;
} tc_options;

#endif /* TC_OPTIONS_H */
