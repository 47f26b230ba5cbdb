/* analyzer/src/main.c — tagcheck's command line (SPEC §5): parses the options into tc_options,
 * dispatches `tagcheck merge …` and --lsp, and hands everything else to the driver. Bad usage
 * is a message and exit status 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "driver/worker.h"
#include "frontend/parse.h"
#include "lsp/lsp.h"
#include "options.h"
#include "report/output.h"
#include "driver/config.h"

#ifndef TC_VERSION
#define TC_VERSION "0.0.0"
#endif

static void usage(FILE *f) {
  fputs("usage: tagcheck [options] [FILE...] [-- COMPILER-ARGS...]\n"
        "       tagcheck merge [-o OUT] IN.sarif...\n"
        "\n"
        "Predicts, at compile time, every dt call whose run-time tag check would fail.\n"
        "\n"
        "  -p DIR             read DIR/compile_commands.json; with no FILE, analyze every entry\n"
        "  --rules FILE       API description (repeatable); default: the installed rules/dt.json\n"
        "  --format FMT       text (default) | sarif (SARIF 2.1.0) | json\n"
        "  -o FILE            write the report to FILE instead of stdout\n"
        "  --color WHEN       auto (default: on a terminal) | always | never\n"
        "  -j N               analyze N translation units at once (default: the CPUs it may use)\n"
        "  --lsp              serve the Language Server Protocol on stdin/stdout\n"
        "  --cache-dir DIR    analysis cache directory (default: DIR/.tagcheck-cache for -p DIR)\n"
        "  --no-cache         neither read nor write the analysis cache\n"
        "  --cache-limit MB   prune the cache to this size, oldest entries first (default 1024)\n"
        "  --unit-timeout S   a unit whose parse, or whose program's analysis, takes longer\n"
        "                     is reported as not analyzed (default 300; 0: no limit)\n"
        "  --root DIR         %SRCROOT% for SARIF URIs (default: the current directory)\n"
        "  --baseline FILE    report only findings that are not in this SARIF file\n"
        "  --config FILE      configuration file (default: .tagcheck.json found walking up)\n"
        "  --fail-on LEVEL    error | warning (default) | never: which findings make exit 1\n"
        "  --shard K/N        analyze only the K-th of N shares of the programs (a program\n"
        "                     is never split: merged shards report what one run does)\n"
        "  --show-suppressed  list suppressed findings in text output too\n"
        "  --fix              apply the findings' fix-its to the source files in place\n"
        "  --export-fixes F   write the fix-its to F as clang-tidy's YAML\n"
        "                     (clang-apply-replacements applies it)\n"
        "  --unavailable B    treat backend B of the loaded rules (dt: cpu, sim, cuda) as\n"
        "                     unavailable (repeatable)\n"
        "  --enable RULE      report RULE (repeatable)\n"
        "  --disable RULE     do not report RULE (repeatable)\n"
        "  --list-rules       print every rule of the loaded rules files: id, level, summary\n"
        "  --explain RULE     what RULE means, an example and its fix\n"
        "  --extra-arg A, --extra-arg-before A\n"
        "                     add A after / before the compiler arguments (as clang-tidy does,\n"
        "                     so tagcheck can stand in for it: -DCMAKE_C_CLANG_TIDY=tagcheck)\n"
        "  --dump-ir          print the lowered IR instead of analyzing (debugging)\n"
        "  --stats            print the function bodies analyzed and skipped, by cause\n"
        "  -q                 no summary line on stderr\n"
        "  --version          print the version and the libclang it runs on\n"
        "  -h, --help         print this help\n"
        "\n"
        "Exit status: 0 no finding, 1 findings, 2 bad usage or unreadable configuration,\n"
        "3 a translation unit could not be analyzed.\n",
        f);
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

static void options_free(tc_options *o) {
  free(o->compdb_dir);
  free_list(o->rules_files, o->n_rules_files);
  free(o->output);
  free(o->cache_dir);
  free(o->root);
  free(o->baseline);
  free(o->export_fixes);
  free(o->config);
  free(o->worker_exe);
  free(o->explain_rule);
  free_list(o->extra_before, o->n_extra_before);
  free_list(o->extra_after, o->n_extra_after);
  free_list(o->unavailable, o->n_unavailable);
  free_list(o->enable_rules, o->n_enable_rules);
  free_list(o->disable_rules, o->n_disable_rules);
  free_list(o->files, o->n_files);
  free_list(o->extra_args, o->n_extra_args);
  tc_options_free_config(o); /* what .tagcheck.json added (driver/config.c) */
  memset(o, 0, sizeof *o);
}

static int set_string(char **slot, const char *v) {
  char *c = strdup(v);
  if (!c) return -1;
  free(*slot);
  *slot = c;
  return 0;
}

static int push_string(char ***v, size_t *n, const char *s) {
  char **nv = realloc(*v, (*n + 1) * sizeof *nv);
  if (!nv) return -1;
  *v = nv;
  nv[*n] = strdup(s);
  if (!nv[*n]) return -1;
  (*n)++;
  return 0;
}

static int parse_int(const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end) return -1;
  *out = v;
  return 0;
}

/* Options that take a value: name, and whether it also has a one-letter joined form (-pDIR). */
static const char *const valued[] = {"-p", "--rules", "--format", "-o", "-j", "--cache-dir",
                                     "--root", "--baseline", "--config", "--fail-on", "--shard",
                                     "--unavailable", "--enable", "--disable",
                                     "--unit-timeout", "--cache-limit", "--explain",
                                     "--extra-arg", "--extra-arg-before", "--color",
                                     "--export-fixes"};

/* Matches argv[*i] against an option taking a value; sets *val. Returns 1 on a match, 0 if the
   argument is not this option, -1 if the value is missing. */
static int take_value(int argc, char **argv, int *i, const char *name, const char **val) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0) return 0;
  if (a[n] == '\0') {
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
  }
  if (a[n] == '=' && (name[1] == '-' || name[2] == '\0')) { /* --rules=F, -p=DIR (clang-tidy) */
    *val = a + n + 1;
    return 1;
  }
  if (name[1] != '-' && name[2] == '\0') { /* -pDIR, -j4, -oFILE */
    *val = a + n;
    return 1;
  }
  return 0;
}

static int apply_value(tc_options *o, const char *name, const char *v) {
  long n;
  if (!strcmp(name, "-p")) return set_string(&o->compdb_dir, v);
  if (!strcmp(name, "--rules")) return push_string(&o->rules_files, &o->n_rules_files, v);
  if (!strcmp(name, "--format")) {
    if (!strcmp(v, "text")) o->format = TC_FORMAT_TEXT;
    else if (!strcmp(v, "sarif")) o->format = TC_FORMAT_SARIF;
    else if (!strcmp(v, "json")) o->format = TC_FORMAT_JSON;
    else {
      fprintf(stderr, "tagcheck: --format must be text, sarif or json (not '%s')\n", v);
      return -2;
    }
    return 0;
  }
  if (!strcmp(name, "-o")) return set_string(&o->output, v);
  if (!strcmp(name, "-j")) {
    if (parse_int(v, &n) != 0 || n < 1 || n > 4096) {
      fprintf(stderr, "tagcheck: -j needs a number of jobs from 1 to 4096 (not '%s')\n", v);
      return -2;
    }
    o->jobs = (int)n;
    return 0;
  }
  if (!strcmp(name, "--cache-dir")) return set_string(&o->cache_dir, v);
  if (!strcmp(name, "--explain")) return set_string(&o->explain_rule, v);
  if (!strcmp(name, "--color")) {
    if (!strcmp(v, "auto")) o->color = TC_COLOR_AUTO;
    else if (!strcmp(v, "always")) o->color = TC_COLOR_ALWAYS;
    else if (!strcmp(v, "never")) o->color = TC_COLOR_NEVER;
    else {
      fprintf(stderr, "tagcheck: --color must be auto, always or never (not '%s')\n", v);
      return -2;
    }
    return 0;
  }
  /* clang-tidy's, so tagcheck can stand in for it in a build (CMAKE_C_CLANG_TIDY) */
  if (!strcmp(name, "--extra-arg")) return push_string(&o->extra_after, &o->n_extra_after, v);
  if (!strcmp(name, "--extra-arg-before"))
    return push_string(&o->extra_before, &o->n_extra_before, v);
  if (!strcmp(name, "--unit-timeout")) {
    char *end;
    errno = 0;
    double t = strtod(v, &end);
    if (errno || end == v || *end || !(t >= 0) || t > 1e7) {
      fprintf(stderr, "tagcheck: --unit-timeout needs a number of seconds, 0 for no limit (not '%s')\n", v);
      return -2;
    }
    o->unit_timeout = t;
    return 0;
  }
  if (!strcmp(name, "--cache-limit")) {
    if (parse_int(v, &n) != 0 || n < 1 || n > 1000000) {
      fprintf(stderr, "tagcheck: --cache-limit needs a size in MB from 1 to 1000000 (not '%s')\n", v);
      return -2;
    }
    o->cache_limit_mb = n;
    return 0;
  }
  if (!strcmp(name, "--root")) return set_string(&o->root, v);
  if (!strcmp(name, "--baseline")) return set_string(&o->baseline, v);
  if (!strcmp(name, "--export-fixes")) return set_string(&o->export_fixes, v);
  if (!strcmp(name, "--config")) return set_string(&o->config, v);
  if (!strcmp(name, "--fail-on")) {
    if (!strcmp(v, "error")) o->fail_on = TC_FAIL_ON_ERROR;
    else if (!strcmp(v, "warning")) o->fail_on = TC_FAIL_ON_WARNING;
    else if (!strcmp(v, "never")) o->fail_on = TC_FAIL_ON_NEVER;
    else {
      fprintf(stderr, "tagcheck: --fail-on must be error, warning or never (not '%s')\n", v);
      return -2;
    }
    o->fail_on_given = 1; /* the configuration file's "fail-on" does not override it */
    return 0;
  }
  if (!strcmp(name, "--shard")) {
    long k, total;
    const char *slash = strchr(v, '/');
    char kbuf[32];
    if (!slash || (size_t)(slash - v) >= sizeof kbuf) goto bad_shard;
    memcpy(kbuf, v, (size_t)(slash - v));
    kbuf[slash - v] = '\0';
    if (parse_int(kbuf, &k) != 0 || parse_int(slash + 1, &total) != 0 || total < 1 || k < 1 ||
        k > total || total > 1000000)
      goto bad_shard;
    o->shard_index = (int)k;
    o->shard_count = (int)total;
    return 0;
  bad_shard:
    fprintf(stderr, "tagcheck: --shard needs K/N with 1 <= K <= N (not '%s')\n", v);
    return -2;
  }
  /* checked against the loaded rules' backends once they are loaded (driver/rule_info.h) */
  if (!strcmp(name, "--unavailable")) return push_string(&o->unavailable, &o->n_unavailable, v);
  if (!strcmp(name, "--enable")) return push_string(&o->enable_rules, &o->n_enable_rules, v);
  if (!strcmp(name, "--disable")) return push_string(&o->disable_rules, &o->n_disable_rules, v);
  return -2;
}

/* Returns 0, 1 when the program should exit 0 now (--help, --version), or 2 (bad usage). */
static int parse_args(int argc, char **argv, tc_options *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      for (i++; i < argc; i++)
        if (push_string(&o->extra_args, &o->n_extra_args, argv[i]) != 0) return 2;
      break;
    }
    if (a[0] != '-' || a[1] == '\0') {
      if (push_string(&o->files, &o->n_files, a) != 0) return 2;
      continue;
    }
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 1;
    }
    if (!strcmp(a, "--version")) {
      char clang[128];
      tc_frontend_version(clang, sizeof clang);
      printf("tagcheck %s\n%s\n", TC_VERSION, clang);
      return 1;
    }
    if (!strcmp(a, "--lsp")) o->lsp = 1;
    else if (!strcmp(a, "--no-cache")) o->no_cache = 1;
    else if (!strcmp(a, "--show-suppressed")) o->show_suppressed = 1;
    else if (!strcmp(a, "--fix")) o->fix = 1;
    else if (!strcmp(a, "--dump-ir")) o->dump_ir = 1;
    else if (!strcmp(a, "--list-rules")) o->list_rules = 1;
    else if (!strcmp(a, "--stats")) o->stats = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = 1;
    else {
      int matched = 0;
      for (size_t k = 0; k < sizeof valued / sizeof valued[0] && !matched; k++) {
        const char *v = NULL;
        int m = take_value(argc, argv, &i, valued[k], &v);
        if (m < 0) {
          fprintf(stderr, "tagcheck: %s needs a value\nTry 'tagcheck --help'.\n", valued[k]);
          return 2;
        }
        if (m == 0) continue;
        matched = 1;
        int rc = apply_value(o, valued[k], v);
        if (rc == -2) return 2;
        if (rc != 0) {
          fprintf(stderr, "tagcheck: out of memory\n");
          return 2;
        }
      }
      if (!matched) {
        fprintf(stderr, "tagcheck: unknown option '%s'\nTry 'tagcheck --help'.\n", a);
        return 2;
      }
    }
  }
  return 0;
}

/* This binary, for unit workers; NULL (everything in this process) when it cannot be found or
   TAGCHECK_IN_PROCESS is set (debugging). */
static char *self_exe(void) {
  const char *in = getenv("TAGCHECK_IN_PROCESS");
  if (in && in[0]) return NULL;
  /* the kernel resolves it for the process that starts the worker: this very binary, even if
     the file has been replaced since (a long-lived language server across a rebuild) */
  if (access("/proc/self/exe", X_OK) != 0) return NULL;
  return strdup("/proc/self/exe");
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--unit-worker") == 0) return tc_worker_main();
  if (argc > 1 && strcmp(argv[1], "merge") == 0) return tc_merge_main(argc - 1, argv + 1);
  tc_options o;
  memset(&o, 0, sizeof o);
  o.unit_timeout = 300;
  int rc = parse_args(argc, argv, &o);
  if (rc == 0) o.worker_exe = self_exe();
  if (rc == 0) {
    if (o.lsp) rc = tc_lsp_serve(&o, stdin, stdout);
    else rc = tc_driver_run(&o);
  } else if (rc == 1) {
    rc = 0;
  }
  options_free(&o);
  return rc;
}
