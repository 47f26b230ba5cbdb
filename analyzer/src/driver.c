/* analyzer/src/driver.c — one tagcheck run: configuration, rules, the list of units (compile
 * database entries or FILE -- ARGS, sharded), lowering them on -j threads in unit worker
 * processes (or from the cache), merging their IR in unit order, the whole-program analysis of
 * each component in a child process, then suppressions, rule settings, baseline, sorting, the
 * report (replacing -o's file atomically) and the exit status. A unit whose parse or analysis
 * crashes or runs past --unit-timeout is reported as not analyzed; the others are reported as
 * usual. Also the editor-mode session.
 * TAGCHECK_STATS=1 prints each phase's time; TAGCHECK_GROUPS=N forces the analysis's root
 * groups (tests). */
#include "driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "driver/cache.h"
#include "driver/components.h"
#include "driver/config_scope.h"
#include "driver/isolate.h"
#include "driver/jobs.h"
#include "driver/progress.h"
#include "driver/reach.h"
#include "driver/rule_info.h"
#include "driver/selection.h"
#include "driver/unit_table.h"
#include "driver/worker.h"
#include "engine/engine.h"
#include "report/fingerprint.h"
#include "report/given_paths.h"
#include "report/output.h"
#include "base/bytes.h"
#include "base/path.h"
#include "driver/config.h"
#include "base/file.h"

#ifndef TC_DEFAULT_RULES_INSTALLED
#define TC_DEFAULT_RULES_INSTALLED ""
#endif
#ifndef TC_DEFAULT_RULES_BUILD
#define TC_DEFAULT_RULES_BUILD "rules/dt.json"
#endif

enum { TC_ERR_LEN = 8192 };

size_t tc_driver_rules_paths(const tc_options *o, const char **paths, size_t max) {
  if (max == 0) return 0;
  if (o->n_rules_files) {
    size_t n = o->n_rules_files < max ? o->n_rules_files : max;
    for (size_t i = 0; i < n; i++) paths[i] = o->rules_files[i];
    return n;
  }
  paths[0] = TC_DEFAULT_RULES_INSTALLED[0] && access(TC_DEFAULT_RULES_INSTALLED, R_OK) == 0
                 ? TC_DEFAULT_RULES_INSTALLED
                 : TC_DEFAULT_RULES_BUILD;
  return 1;
}

static tc_rules *load_rules(const tc_options *o, char *err, size_t err_len) {
  size_t n = o->n_rules_files ? o->n_rules_files : 1;
  const char **paths = calloc(n, sizeof *paths);
  if (!paths) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  n = tc_driver_rules_paths(o, paths, n);
  tc_rules *r = tc_rules_load(paths, n, err, err_len);
  free(paths);
  return r;
}

/* o: the run's options; cli: the command line's. Rules disabled on the command line are not
   analyzed at all; those a configuration disables are dropped from the report, file by file
   (each file's nearest configuration, driver/config_scope.h). */
static tc_engine_opts engine_opts(const tc_options *o, const tc_options *cli) {
  tc_engine_opts eo;
  memset(&eo, 0, sizeof eo);
  eo.unavailable = (const char *const *)o->unavailable;
  eo.n_unavailable = o->n_unavailable;
  eo.disabled_rules = (const char *const *)cli->disable_rules;
  eo.n_disabled_rules = cli->n_disable_rules;
  eo.jobs = o->jobs > 0 ? (unsigned)o->jobs : (unsigned)tc_jobs_cores();
  eo.observe = cli->observe ? cli->observe : o->observe;
  /* TAGCHECK_GROUPS=N: analyze the roots in N groups whatever the program's size (tests) */
  const char *g = getenv("TAGCHECK_GROUPS");
  if (g && atoi(g) > 0) eo.groups = (unsigned)atoi(g);
  return eo;
}

/* ---- the units of a run ---- */

typedef struct unit_list {
  tc_compile_cmd *owned; /* commands built from FILE -- ARGS */
  size_t n_owned;
  tc_job_unit *units;
  char **files; /* per unit: the file, for failure messages */
  size_t n, cap;
  int oom;
} unit_list;

static void units_add(unit_list *ul, const tc_compile_cmd *cmd, const char *file,
                      const char *failure) {
  if (ul->n == ul->cap) {
    size_t cap = ul->cap ? ul->cap * 2 : 16;
    tc_job_unit *u = realloc(ul->units, cap * sizeof *u);
    if (u) ul->units = u;
    char **f = realloc(ul->files, cap * sizeof *f);
    if (f) ul->files = f;
    if (!u || !f) {
      ul->oom = 1;
      return;
    }
    ul->cap = cap;
  }
  tc_job_unit *u = &ul->units[ul->n];
  memset(u, 0, sizeof *u);
  u->cmd = cmd;
  if (failure) {
    u->failure = strdup(failure);
    if (!u->failure) ul->oom = 1;
  }
  ul->files[ul->n] = strdup(file);
  if (!ul->files[ul->n]) ul->oom = 1;
  ul->n++;
}

static void units_free(unit_list *ul) {
  for (size_t i = 0; i < ul->n; i++) {
    tc_job_unit_clear(&ul->units[i]);
    free(ul->files[i]);
  }
  free(ul->units);
  free(ul->files);
  for (size_t i = 0; i < ul->n_owned; i++) tc_compile_cmd_free(&ul->owned[i]);
  free(ul->owned);
  memset(ul, 0, sizeof *ul);
}

/* A source file's name (a header or anything else named selects the units that include it). */
static int is_source_name(const char *path) {
  static const char *const ext[] = {".c", ".cc", ".cpp", ".cxx", ".c++", ".cu", ".m", ".mm"};
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/')) return 0;
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
    if (strcmp(dot, ext[i]) == 0) return 1;
  return 0;
}

static int selection_add(tc_selection *sel, const char *abs) {
  char **v = realloc(sel->files, (sel->n_files + 1) * sizeof *v);
  if (!v) return -1;
  sel->files = v;
  v[sel->n_files] = strdup(abs);
  return v[sel->n_files++] ? 0 : -1;
}

static void selection_free(tc_selection *sel) {
  for (size_t i = 0; i < sel->n_files; i++) free(sel->files[i]);
  free(sel->files);
  memset(sel, 0, sizeof *sel);
}

/* The compiler arguments for FILE -- ARGS: --extra-arg-before's, ARGS, --extra-arg's (the
   first kept first when ARGS are a whole command, as clang-tidy does). A vector of borrowed
   strings, or NULL when out of memory. */
static char **compiler_args(const tc_options *o) {
  size_t n = o->n_extra_before + o->n_extra_args + o->n_extra_after, k = 0, a = 0;
  char **v = calloc(n ? n : 1, sizeof *v);
  if (!v) return NULL;
  if (o->n_extra_args && o->extra_args[0][0] != '-' && o->n_extra_before)
    v[k++] = o->extra_args[a++]; /* the compiler */
  for (size_t i = 0; i < o->n_extra_before; i++) v[k++] = o->extra_before[i];
  for (; a < o->n_extra_args; a++) v[k++] = o->extra_args[a];
  for (size_t i = 0; i < o->n_extra_after; i++) v[k++] = o->extra_after[i];
  return v;
}

/* Fills ul from the options. With -p, every entry of the database is a unit (named files
   select the programs to report on, see driver/selection.h); FILE -- ARGS adds units of their
   own. Returns 0, or 2 (bad usage, unreadable database) with a message printed. */
static int build_units(const tc_options *o, tc_compdb *db, int db_loaded, unit_list *ul,
                       tc_selection *sel) {
  char err[TC_ERR_LEN];
  if (o->compdb_dir && !db_loaded && tc_compdb_load(o->compdb_dir, db, err, sizeof err) != 0) {
    tc_print_problem("tagcheck", "error", err);
    return 2;
  }
  if (o->compdb_dir && db->n_skipped && !o->quiet)
    fprintf(stderr, "tagcheck: note: %zu entr%s of %s %s not C (%s%s) and %s skipped\n",
            db->n_skipped, db->n_skipped == 1 ? "y" : "ies", db->path,
            db->n_skipped == 1 ? "is" : "are", db->first_skipped,
            db->n_skipped > 1 ? ", …" : "", db->n_skipped == 1 ? "is" : "are");
  if (!o->compdb_dir && o->n_files == 0) {
    fprintf(stderr, "tagcheck: no input: give -p DIR (a compile_commands.json) or FILE... [-- ARGS]\n"
                    "Try 'tagcheck --help'.\n");
    return 2;
  }
  /* commands for FILE -- ARGS (and files the database does not know) */
  if (o->n_files) {
    ul->owned = calloc(o->n_files, sizeof *ul->owned);
    if (!ul->owned) return 2;
  }
  if (o->compdb_dir)
    for (size_t i = 0; i < db->n; i++) units_add(ul, &db->cmds[i], db->cmds[i].file, NULL);
  for (size_t f = 0; f < o->n_files; f++) {
    char *abs = tc_path_absolute(o->files[f], NULL);
    if (!abs || selection_add(sel, abs) != 0) {
      free(abs);
      return 2;
    }
    size_t found = 0;
    for (size_t i = 0; o->compdb_dir && i < db->n; i++) found += strcmp(db->cmds[i].file, abs) == 0;
    if (!found && (!o->compdb_dir || o->n_extra_args || o->n_extra_before || o->n_extra_after)) {
      tc_compile_cmd *c = &ul->owned[ul->n_owned];
      char **args = compiler_args(o);
      size_t n_args = o->n_extra_before + o->n_extra_args + o->n_extra_after;
      if (!args || tc_compile_cmd_from_args(abs, (const char *const *)args, n_args, NULL, c) != 0) {
        free(args);
        free(abs);
        return 2;
      }
      free(args);
      ul->n_owned++;
      units_add(ul, c, abs, NULL);
    } else if (!found && is_source_name(abs)) {
      char why[TC_ERR_LEN];
      snprintf(why, sizeof why, "no compile command for this file in %s", db->path);
      units_add(ul, NULL, abs, why);
    } /* else: a header, or a file some unit reads: it selects the units that read it */
    free(abs);
  }
  if (ul->oom) {
    fprintf(stderr, "tagcheck: out of memory\n");
    return 2;
  }
  return 0;
}

static char *default_cache_dir(const tc_options *o, const tc_compdb *db) {
  if (o->cache_dir) return strdup(o->cache_dir);
  if (!db->path) return NULL; /* FILE -- ARGS: only with --cache-dir */
  /* next to the database: DIR/.tagcheck-cache for -p DIR */
  const char *slash = strrchr(db->path, '/');
  size_t dl = slash ? (size_t)(slash - db->path) : 0;
  size_t n = dl + sizeof "/.tagcheck-cache";
  char *d = malloc(n);
  if (d) snprintf(d, n, "%.*s/.tagcheck-cache", (int)dl, db->path);
  return d;
}

/* Merges the programs of units idx[0..n-1] (every unit when idx is NULL), in unit order: into
   an overlay of the editor session's store when some are views of it (no copy of them). */
static tc_program *merge_units(unit_list *ul, const size_t *idx, size_t n) {
  const tc_program *base = NULL;
  for (size_t k = 0; k < n && !base; k++) {
    const tc_program *p = ul->units[idx ? idx[k] : k].prog;
    if (p && p->view) base = p->base;
  }
  tc_program *prog = base ? tc_program_overlay(base) : tc_program_new();
  if (!prog) return NULL;
  for (size_t k = 0; k < n; k++) {
    tc_job_unit *u = &ul->units[idx ? idx[k] : k];
    if (u->prog) {
      int rc = tc_program_merge(prog, u->prog);
      u->prog = NULL;
      if (rc != 0) {
        tc_program_free(prog);
        return NULL;
      }
    }
  }
  return prog;
}

/* The key of the analysis of the units idx[0..n-1] (one component), or 0 when some unit has no
   digest. */
static uint64_t results_cache_key(const tc_rules *rules, const unit_list *ul, const size_t *idx,
                                  size_t n_idx, const tc_engine_opts *eo) {
  uint64_t *d = calloc(n_idx ? n_idx : 1, sizeof *d);
  if (!d) return 0;
  uint64_t key = 0;
  size_t i;
  for (i = 0; i < n_idx; i++) {
    const tc_job_unit *u = &ul->units[idx[i]];
    d[i] = u->cmd ? u->digest : tc_cache_failure_digest(ul->files[idx[i]], u->failure);
    if (!d[i]) break;
  }
  if (i == n_idx) key = tc_cache_results_key(d, n_idx, tc_rules_content_hash(rules), eo);
  free(d);
  return key;
}

typedef struct analysis_totals {
  tc_engine_stats es;   /* summed over the components analyzed */
  size_t n_components, n_reused, n_units;
  size_t n_unreached; /* components that name no described function: nothing to analyze */
  /* components changed since the cache's analyses: their findings taken from an analysis of
     the same program but for inert functions (tc_engine_fingerprint), or analyzed in full */
  size_t n_same_effect, n_full;
} analysis_totals;

/* The digests of the units idx[0..n-1] that have IR, in order (merge_units makes a unit of the
   program of each); NULL when some has none. */
static uint64_t *unit_digests(const unit_list *ul, const size_t *idx, size_t n, size_t *n_out) {
  uint64_t *d = calloc(n ? n : 1, sizeof *d);
  *n_out = 0;
  for (size_t k = 0; d && k < n; k++) {
    const tc_job_unit *u = &ul->units[idx[k]];
    if (!u->prog) continue;
    if (!u->digest || u->prog->n_units != 1) {
      free(d);
      return NULL;
    }
    d[(*n_out)++] = u->digest;
  }
  return d;
}

/* The results key of prog's fingerprint (a key space of its own: never a list of unit
   digests); 0 when out of memory. */
static uint64_t program_fingerprint_key(const tc_program *prog, const uint64_t *digests,
                                        size_t n_digests, tc_fingerprint_memo *memo,
                                        const tc_rules *rules, const tc_engine_opts *eo,
                                        tc_engine_fingerprint *fp) {
  const uint64_t *use = digests && n_digests == prog->n_units ? digests : NULL;
  if (tc_engine_fingerprint_of(prog, use, use ? memo : NULL, rules, eo, fp) != 0) return 0;
  const uint64_t words[2] = {0x74636670726f6731ull /* "tcfprog1" */, fp->key};
  return tc_cache_results_key(words, 2, tc_rules_content_hash(rules), eo);
}

/* 1 when some unit of idx[0..n-1] names a function the rules describe (driver/reach.h). */
static int component_names_api(const unit_list *ul, const size_t *idx, size_t n,
                               const tc_rules *rules) {
  for (size_t k = 0; k < n; k++)
    if (ul->units[idx[k]].prog && tc_program_names_api(ul->units[idx[k]].prog, rules)) return 1;
  return 0;
}

/* Analyzes the units component by component (driver/components.h) — the components that hold
   a selected unit, of this shard's share — each component's findings from the cache when none
   of its units changed, else from the engine (and then into the cache). The units of the
   components analyzed are counted and their failures reported. Returns 0, or -1 when out of
   memory. */
static int analyze_components(const tc_options *o, unit_list *ul, const tc_selection *sel,
                              const tc_rules *rules, tc_engine_opts *eo, tc_cache *cache,
                              tc_fingerprint_memo *fp_memo, tc_report *r, analysis_totals *t,
                              unsigned char *analyzed, tc_progress *progress) {
  size_t *comp = calloc(ul->n ? ul->n : 1, sizeof *comp);
  size_t *idx = calloc(ul->n ? ul->n : 1, sizeof *idx);
  size_t *first = calloc(ul->n + 1, sizeof *first); /* members of component c: */
  size_t *members = calloc(ul->n ? ul->n : 1, sizeof *members); /* members[first[c]..] */
  int *shard = calloc(ul->n ? ul->n : 1, sizeof *shard);
  unsigned char *wanted = calloc(ul->n ? ul->n : 1, 1);
  int rc = -1;
  if (!comp || !idx || !first || !members || !shard || !wanted) goto done;
  if (tc_unit_components(ul->units, ul->n, comp) == 0)
    memset(comp, 0, ul->n * sizeof *comp); /* cannot tell: everything is one component */
  /* each component's units in unit order, in one pass (a counting sort by component) */
  for (size_t u = 0; u < ul->n; u++) first[comp[u] + 1]++;
  for (size_t c = 0; c < ul->n; c++) first[c + 1] += first[c];
  for (size_t c = 0; c < ul->n; c++) idx[c] = first[c]; /* idx: the next slot of each */
  for (size_t u = 0; u < ul->n; u++) members[idx[comp[u]]++] = u;
  if (o->shard_count > 0) tc_shard_components(ul->units, ul->n, comp, o->shard_count, shard);
  for (size_t u = 0; u < ul->n; u++)
    if (!sel->n_files || tc_selection_has_unit(sel, ul->files[u], &ul->units[u]))
      wanted[comp[u]] = 1;
  size_t n_todo = 0, n_done = 0;
  for (size_t c = 0; c < ul->n; c++)
    n_todo += comp[c] == c && wanted[c] && (o->shard_count <= 0 || shard[c] == o->shard_index - 1);
  for (size_t c = 0; c < ul->n; c++) {
    if (comp[c] != c || !wanted[c]) continue;
    if (o->shard_count > 0 && shard[c] != o->shard_index - 1) continue;
    if (progress) tc_progress_update(progress, "analyzing programs", n_done++, n_todo);
    size_t n = first[c + 1] - first[c];
    memcpy(idx, &members[first[c]], n * sizeof *idx);
    t->n_components++;
    t->n_units += n;
    for (size_t k = 0; analyzed && k < n; k++) analyzed[idx[k]] = 1;
    for (size_t k = 0; k < n; k++)
      if (ul->units[idx[k]].failure)
        tc_report_add_failure(r, ul->files[idx[k]], ul->units[idx[k]].failure);
    uint64_t key = cache && !eo->observe ? results_cache_key(rules, ul, idx, n, eo) : 0;
    if (key && tc_cache_load_results(cache, key, r) == 0) {
      t->n_reused++;
      continue;
    }
    tc_report part;
    tc_report_init(&part);
    if (!component_names_api(ul, idx, n, rules)) { /* no finding can come of it: its IR goes */
      for (size_t k = 0; k < n; k++) {
        tc_program_free(ul->units[idx[k]].prog);
        ul->units[idx[k]].prog = NULL;
      }
      t->n_unreached++;
      if (key) tc_cache_store_results(cache, key, &part);
      tc_report_free(&part);
      continue;
    }
    size_t n_digests = 0;
    uint64_t *digests = key && fp_memo ? unit_digests(ul, idx, n, &n_digests) : NULL;
    tc_program *prog = merge_units(ul, idx, n);
    if (!prog) {
      free(digests);
      tc_report_free(&part);
      goto done;
    }
    /* an analysis of the same program but for inert functions (engine.h) gives its findings */
    tc_engine_fingerprint fp = {0};
    uint64_t fp_key =
        key ? program_fingerprint_key(prog, digests, n_digests, fp_memo, rules, eo, &fp) : 0;
    free(digests);
    if (fp_key && tc_cache_load_results(cache, fp_key, &part) == 0) {
      tc_program_free(prog);
      t->n_same_effect++;
      tc_cache_store_results(cache, key, &part);
      tc_report_take(r, &part);
      tc_report_free(&part);
      continue;
    }
    if (key) t->n_full++;
    tc_engine_stats es;
    memset(&es, 0, sizeof es);
    eo->stats = &es;
    char *why = NULL;
    /* observations stay in the process that makes them: no isolated child then */
    int arc = o->worker_exe && !eo->observe
                  ? tc_isolated_analyze(prog, rules, eo, o->unit_timeout, &part, &why)
                  : tc_engine_analyze(prog, rules, eo, &part);
    eo->stats = NULL;
    tc_program_free(prog);
    if (arc < 0) {
      tc_report_free(&part);
      goto done;
    }
    if (arc == 1) { /* every unit of the component is not analyzed, for that reason */
      for (size_t k = 0; k < n; k++) tc_report_add_failure(r, ul->files[idx[k]], why);
      free(why);
      key = 0;
    }
    if (key) tc_cache_store_results(cache, key, &part);
    /* stored for a later program differing only in inert functions, when no budget that
       depends on them decided anything */
    if (key && fp_key && es.work_peak < fp.work_floor) tc_cache_store_results(cache, fp_key, &part);
    tc_report_take(r, &part);
    tc_report_free(&part);
    t->es.insns += es.insns;
    t->es.roots += es.roots;
    t->es.keys_walked += es.keys_walked;
    t->es.keys_reused += es.keys_reused;
    t->es.budget_reruns += es.budget_reruns;
    t->es.budget_stops += es.budget_stops;
    if (es.groups > t->es.groups) t->es.groups = es.groups;
  }
  rc = 0;
done:
  free(comp);
  free(idx);
  free(first);
  free(members);
  free(shard);
  free(wanted);
  return rc;
}

static int selected_diag(const tc_diag *d, size_t index, void *sel) {
  (void)index;
  return tc_selection_keeps(sel, d);
}

/* Drops the findings no named file is part of (driver/selection.h). */
static void keep_selected(tc_report *r, tc_selection *sel) {
  if (sel->n_files) tc_report_filter(r, selected_diag, sel);
}

/* Without a database: name the functions the units call with tensors or devices that none of
   them defines (their results are unknown to the analysis). In text on standard output — where
   a build that runs tagcheck as its clang-tidy shows it, hiding standard error — one note per
   function at its first call, FILE:LINE:COL: first; else one line on standard error. */
static void note_calls_elsewhere(const tc_options *o, const unit_list *ul, const tc_rules *rules) {
  if (o->compdb_dir || o->quiet) return;
  tc_call_elsewhere calls[6];
  size_t n = tc_calls_defined_elsewhere(ul->units, ul->n, rules, calls, 6);
  if (!n) return;
  const char *why = "defined in no file given, so %s tags are unknown here: analyze the whole "
                    "program with -p DIR (a compile_commands.json) to follow them";
  if (o->format == TC_FORMAT_TEXT && (!o->output || strcmp(o->output, "-") == 0)) {
    tc_given_paths g;
    (void)tc_given_paths_init(&g, o);
    for (size_t i = 0; i < n && i < 6; i++) {
      printf("%s:%u:%u: note: %s is ", tc_given_path(&g, calls[i].file), calls[i].line,
             calls[i].col, calls[i].name);
      printf(why, "its");
      putchar('\n');
    }
    if (n > 6) printf("tagcheck: note: and %zu more functions\n", n - 6);
    tc_given_paths_free(&g);
    return;
  }
  fprintf(stderr, "tagcheck: note: ");
  for (size_t i = 0; i < n && i < 5; i++) fprintf(stderr, "%s%s", i ? ", " : "", calls[i].name);
  if (n > 5) fprintf(stderr, " and %zu more", n - 5);
  fprintf(stderr, " %s ", n == 1 ? "is" : "are");
  fprintf(stderr, why, n == 1 ? "its" : "their");
  fputc('\n', stderr);
}

/* The report goes to stdout, or to memory and then replaces -o's file atomically: a full disk
   or a killed run leaves the previous report as it was. */
typedef struct output {
  FILE *f;
  char *buf;
  size_t len;
} output;

static int open_output(const tc_options *o, output *out) {
  memset(out, 0, sizeof *out);
  if (!o->output || strcmp(o->output, "-") == 0) {
    out->f = stdout;
    return 0;
  }
  out->f = open_memstream(&out->buf, &out->len);
  if (!out->f) fprintf(stderr, "tagcheck: out of memory for the report\n");
  return out->f ? 0 : -1;
}

static int close_output(const tc_options *o, output *out) {
  int bad = ferror(out->f) != 0;
  if (out->f == stdout) {
    bad |= fflush(out->f) != 0;
    if (bad) fprintf(stderr, "tagcheck: error writing the report\n");
    return bad ? -1 : 0;
  }
  bad |= fclose(out->f) != 0;
  if (!bad && tc_write_file_atomically(o->output, out->buf, out->len) != 0) {
    fprintf(stderr, "%s: error: cannot write the report: %s (the previous file is kept)\n",
            o->output, strerror(errno));
    bad = 1;
  }
  free(out->buf);
  return bad ? -1 : 0;
}

static void summary(const tc_report *r, const tc_options *o, size_t n_cached) {
  size_t errors = 0, warnings = 0, suppressed = 0;
  for (size_t i = 0; i < r->n_diags; i++) {
    if (r->diags[i].suppressed) suppressed++;
    else if (r->diags[i].level == TC_LEVEL_ERROR) errors++;
    else if (r->diags[i].level == TC_LEVEL_WARNING) warnings++;
  }
  fprintf(stderr, "tagcheck: %zu error%s, %zu warning%s", errors, errors == 1 ? "" : "s",
          warnings, warnings == 1 ? "" : "s");
  if (suppressed) fprintf(stderr, " (%zu suppressed)", suppressed);
  fprintf(stderr, " in %zu unit%s", r->n_units, r->n_units == 1 ? "" : "s");
  if (n_cached) fprintf(stderr, " (%zu from cache)", n_cached);
  if (r->baseline_applied)
    fprintf(stderr, "; %zu known finding%s hidden by the baseline", r->n_baseline_known,
            r->n_baseline_known == 1 ? "" : "s");
  if (r->n_failures)
    fprintf(stderr, "; %zu could not be analyzed", r->n_failures);
  fputc('\n', stderr);
  tc_given_paths g;
  (void)tc_given_paths_init(&g, o);
  for (size_t i = 0; i < r->n_failures; i++) {
    char *reason = tc_given_reason(&g, r->failures[i].file, r->failures[i].reason);
    fprintf(stderr, "%s: note: not analyzed completely: %s\n",
            tc_given_path(&g, r->failures[i].file), reason ? reason : r->failures[i].reason);
    free(reason);
  }
  tc_given_paths_free(&g);
}

/* The peak resident memory, in KiB, of this process (who = RUSAGE_SELF) or of the largest child
   reaped so far (RUSAGE_CHILDREN). */
static long peak_rss_kb(int who) {
  struct rusage ru;
  return getrusage(who, &ru) == 0 ? ru.ru_maxrss : 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int tc_driver_run(tc_options *o) {
  const int stats = getenv("TAGCHECK_STATS") && getenv("TAGCHECK_STATS")[0];
  double t_start = now_s(), t_lowered = 0, t_merged = 0, t_analyzed = 0;
  char err[TC_ERR_LEN];
  int status = 2;
  tc_compdb db;
  memset(&db, 0, sizeof db);
  unit_list ul;
  memset(&ul, 0, sizeof ul);
  tc_rules *rules = NULL;
  tc_cache *cache = NULL;
  tc_program *prog = NULL;
  tc_selection sel = {NULL, 0};
  tc_progress progress;
  int progress_ready = 0;
  tc_report r;
  tc_report_init(&r);
  char *cache_dir = NULL;
  tc_options cli; /* the command line's options, before the configuration */
  tc_config_scope *scope = NULL;
  if (tc_options_copy(o, &cli) != 0) {
    fprintf(stderr, "tagcheck: out of memory\n");
    return 2;
  }

  char cwd[4096];
  const char *start = o->compdb_dir ? o->compdb_dir : getcwd(cwd, sizeof cwd);
  /* An out-of-tree build folder (-p ../build-x) has no configuration above it: the run's comes
     from the project's sources then, as each file's own does — above the database's first
     entry. */
  int db_loaded = 0;
  char *project_dir = NULL;
  char *found = o->compdb_dir && !o->n_files && !o->config ? tc_config_find(start) : NULL;
  if (o->compdb_dir && !o->n_files && !o->config && !found) {
    if (tc_compdb_load(o->compdb_dir, &db, err, sizeof err) != 0) {
      tc_print_problem("tagcheck", "error", err);
      goto done;
    }
    db_loaded = 1;
    if (db.n && (project_dir = strdup(db.cmds[0].file))) {
      char *slash = strrchr(project_dir, '/');
      if (slash && slash != project_dir) *slash = '\0';
      start = project_dir;
    }
  }
  free(found);
  int config_rc = tc_config_load(o, start ? start : ".", err, sizeof err);
  free(project_dir);
  if (config_rc != 0) {
    tc_print_problem("tagcheck", "error", err);
    goto done;
  }
  if (!(scope = tc_config_scope_new(&cli, o))) {
    fprintf(stderr, "tagcheck: out of memory\n");
    goto done;
  }
  if (!o->dump_ir) {
    rules = load_rules(o, err, sizeof err);
    if (!rules) {
      tc_print_problem("tagcheck", "error", err);
      goto done;
    }
    /* the rules' metadata: every rule id named must be one of them */
    tc_report_add_builtin_rules(&r);
    tc_rules_describe(rules, &r);
    if (o->list_rules || o->explain_rule) {
      if (o->list_rules) tc_list_rules(&r, stdout);
      if (o->explain_rule && tc_explain_rule(&r, o->explain_rule, stdout) != 0) {
        fprintf(stderr, "tagcheck: --explain: unknown rule '%s' (see tagcheck --list-rules)\n",
                o->explain_rule);
        goto done;
      }
      status = 0;
      goto done;
    }
    if (tc_check_rule_ids(o, &r, err, sizeof err) != 0 ||
        tc_check_unavailable(o, rules, err, sizeof err) != 0) {
      tc_print_problem("tagcheck", "error", err);
      goto done;
    }
  }
  status = build_units(o, &db, db_loaded, &ul, &sel);
  if (status != 0) goto done;
  status = 2;
  if (!o->no_cache) {
    cache_dir = default_cache_dir(o, &db);
    if (cache_dir) cache = tc_cache_open(cache_dir);
  }
  /* a progress line on a terminal, for runs longer than a second */
  tc_progress_init(&progress, !o->quiet && isatty(2) ? stderr : NULL);
  progress_ready = 1;
  tc_jobs_opts jo = {.jobs = o->jobs, .cache = cache, .worker_exe = o->worker_exe,
                     .unit_timeout = o->unit_timeout, .want_deps = sel.n_files > 0,
                     .progress = &progress};
  int jrc = tc_jobs_run(ul.units, ul.n, &jo);
  tc_progress_end(&progress);
  if (jrc != 0) {
    fprintf(stderr, "tagcheck: out of memory while lowering the units\n");
    status = 3;
    goto done;
  }
  t_lowered = now_s();
  long rss_workers_kb = peak_rss_kb(RUSAGE_CHILDREN); /* the unit workers, all reaped by now */
  if (o->stats) { /* the front end's coverage (SPEC §7: never silent) */
    tc_lower_stats ls;
    memset(&ls, 0, sizeof ls);
    for (size_t i = 0; i < ul.n; i++)
      for (uint32_t k = 0; ul.units[i].prog && k < ul.units[i].prog->n_units; k++)
        tc_lower_stats_add(&ls, &ul.units[i].prog->units[k].stats);
    tc_lower_stats_print(&ls, (uint32_t)ul.n, stderr);
  }
  size_t n_cached = 0;
  for (size_t i = 0; i < ul.n; i++) n_cached += ul.units[i].from_cache != 0;
  t_merged = now_s();
  if (o->dump_ir) {
    r.n_units = ul.n;
    for (size_t i = 0; i < ul.n; i++)
      if (ul.units[i].failure) tc_report_add_failure(&r, ul.files[i], ul.units[i].failure);
    prog = merge_units(&ul, NULL, ul.n);
    if (!prog) {
      fprintf(stderr, "tagcheck: out of memory\n");
      status = 3;
      goto done;
    }
    output out;
    if (open_output(o, &out) != 0) goto done;
    tc_ir_dump(prog, out.f);
    if (close_output(o, &out) != 0) goto done;
    for (size_t i = 0; i < r.n_failures; i++)
      fprintf(stderr, "%s: error: %s\n", r.failures[i].file, r.failures[i].reason);
    status = r.n_failures ? 3 : 0;
    goto done;
  }
  tc_engine_opts eo = engine_opts(o, &cli);
  analysis_totals at;
  memset(&at, 0, sizeof at);
  note_calls_elsewhere(o, &ul, rules); /* before the analysis consumes the units' programs */
  int arc = analyze_components(o, &ul, &sel, rules, &eo, cache, NULL, &r, &at, NULL, &progress);
  tc_progress_end(&progress);
  if (arc != 0) {
    fprintf(stderr, "tagcheck: the analysis ran out of memory\n");
    status = 3;
    goto done;
  }
  r.n_units = at.n_units;
  /* fingerprints are fixed on the whole program's findings, before the selection drops any:
     a finding has the same fingerprint whichever files were named (baselines of PR checks) */
  if (sel.n_files) (void)tc_report_fix_fingerprints(&r, o);
  keep_selected(&r, &sel);
  for (size_t f = 0; f < sel.n_files; f++) { /* a named file no unit reads */
    int read = 0;
    for (size_t u = 0; u < ul.n && !read; u++)
      read = tc_selection_has_unit(&(tc_selection){&sel.files[f], 1}, ul.files[u], &ul.units[u]);
    if (!read)
      fprintf(stderr, "%s: warning: no unit of the compilation database includes it; "
                      "nothing analyzed for it\n", sel.files[f]);
  }
  t_analyzed = now_s();
  tc_apply_suppressions(&r);
  tc_apply_rule_settings_by_file(&r, o, tc_config_scope_lookup, scope);
  if (o->baseline && tc_apply_baseline(&r, o->baseline, o, err, sizeof err) != 0) {
    tc_print_problem("tagcheck", "error", err);
    goto done;
  }
  tc_report_sort(&r);
  output out;
  if (open_output(o, &out) != 0) goto done;
  int wrc = tc_write_report(&r, o, out.f);
  if (close_output(o, &out) != 0 || wrc != 0) goto done;
  if (tc_fix_outputs(&r, o) != 0) {
    status = 2;
    goto done;
  }
  if (!o->quiet) summary(&r, o, n_cached);
  if (stats)
    fprintf(stderr,
            "tagcheck: stats: lower %.3f s, merge %.3f s, analysis %.3f s, report %.3f s; "
            "%llu instructions, %zu roots analyzed in %u group%s; %zu component%s, %zu "
            "from the cache\n",
            t_lowered - t_start, t_merged - t_lowered, t_analyzed - t_merged,
            now_s() - t_analyzed, at.es.insns, at.es.roots, at.es.groups,
            at.es.groups == 1 ? "" : "s", at.n_components, at.n_components == 1 ? "" : "s",
            at.n_reused);
  if (stats && (at.es.keys_walked || at.es.keys_reused))
    fprintf(stderr, "tagcheck: stats: memo keys of user calls: %llu walked, %llu proven equal "
            "to the callee's previous key without a walk\n",
            at.es.keys_walked, at.es.keys_reused);
  if ((stats || o->stats) && (at.es.budget_reruns || at.es.budget_stops))
    fprintf(stderr, "tagcheck: stats: analyses past their work budget: %llu analyzed again with "
            "their paths joined, %llu given up (their callers went on as after an unknown "
            "call)\n", at.es.budget_reruns, at.es.budget_stops);
  if (stats && (at.n_same_effect || at.n_full))
    fprintf(stderr, "tagcheck: stats: programs changed since their cached analysis: %zu taken "
            "from an analysis that differed only in functions reaching no API call, %zu "
            "analyzed in full\n", at.n_same_effect, at.n_full);
  if (stats && at.n_unreached)
    fprintf(stderr, "tagcheck: stats: %zu component%s named no described function (not analyzed)\n",
            at.n_unreached, at.n_unreached == 1 ? "" : "s");
  if (stats) /* per process: what one more -j costs, and what grows with the project */
    fprintf(stderr,
            "tagcheck: stats: peak RSS: main process %ld KiB, largest unit worker %ld KiB, "
            "largest child %ld KiB\n",
            peak_rss_kb(RUSAGE_SELF), rss_workers_kb, peak_rss_kb(RUSAGE_CHILDREN));
  status = tc_report_exit_status(&r, o);
  if (tc_config_scope_failed(scope)) status = 2; /* a nested configuration was unreadable */
done:
  tc_config_scope_free(scope);
  tc_options_release(&cli);
  tc_report_free(&r);
  tc_program_free(prog);
  units_free(&ul);
  selection_free(&sel);
  if (progress_ready) tc_progress_free(&progress);
  tc_compdb_free(&db);
  if (cache) tc_cache_prune(cache, (uint64_t)(o->cache_limit_mb > 0 ? o->cache_limit_mb : 1024)
                                       << 20);
  tc_cache_close(cache);
  free(cache_dir);
  tc_rules_free(rules);
  return status;
}

/* ---- editor mode ---- */

struct tc_session {
  const tc_options *opts;
  tc_config_scope *scope; /* the nearest configuration of each finding's file */
  tc_rules *rules;
  tc_worker **workers; /* long-lived unit workers, one per lowering thread; workers[0] parses
                          the editor's units (none: in this process) */
  size_t n_workers;
  tc_unit_table *units; /* the units lowered from disk, kept between analyses */
  tc_fingerprint_memo *fp_memo; /* units' parts of program fingerprints, between analyses */
};

tc_session *tc_session_new(const tc_options *cli, const tc_options *o, char *err, size_t err_len) {
  tc_session *s = calloc(1, sizeof *s);
  if (!s || !(s->scope = tc_config_scope_new(cli, o)) || !(s->units = tc_unit_table_new()) ||
      !(s->fp_memo = tc_fingerprint_memo_new())) {
    if (s) {
      tc_config_scope_free(s->scope);
      tc_unit_table_free(s->units);
    }
    free(s);
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  s->opts = o;
  s->rules = load_rules(o, err, err_len);
  if (!s->rules) {
    tc_session_free(s);
    return NULL;
  }
  if (o->worker_exe) { /* the processes start at their first request */
    size_t n = o->jobs > 0 ? (size_t)o->jobs : (size_t)tc_jobs_cores();
    s->workers = calloc(n, sizeof *s->workers);
    for (size_t i = 0; s->workers && i < n && (s->workers[i] = tc_worker_new(o->worker_exe)); i++)
      s->n_workers++;
    if (s->n_workers < n) {
      snprintf(err, err_len, "out of memory");
      tc_session_free(s);
      return NULL;
    }
  }
  return s;
}

void tc_session_free(tc_session *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n_workers; i++) tc_worker_free(s->workers[i]);
  free(s->workers);
  tc_unit_table_free(s->units);
  tc_fingerprint_memo_free(s->fp_memo);
  tc_rules_free(s->rules);
  tc_config_scope_free(s->scope);
  free(s);
}

typedef struct session_call {
  tc_session *s;
  const tc_compile_cmd *cmd;
  const tc_unsaved_file *unsaved;
  size_t n_unsaved;
  tc_report *out;
  char *err;
  size_t err_len;
  int rc;
} session_call;

static void session_analyze(void *arg) {
  session_call *c = arg;
  c->rc = -1;
  const tc_options *o = c->s->opts;
  tc_parse_result pr;
  if (c->s->n_workers) { /* a unit that crashes or hangs libclang costs this request only */
    if (tc_worker_parse(c->s->workers[0], c->cmd, c->unsaved, c->n_unsaved, 0, o->unit_timeout,
                        &pr, c->err, c->err_len) < 0)
      return;
  } else {
    tc_parser *parser = tc_parser_new();
    if (!parser) {
      snprintf(c->err, c->err_len, "out of memory");
      return;
    }
    int prc = tc_parse_unit(parser, c->cmd, c->unsaved, c->n_unsaved, 0, &pr);
    tc_parser_free(parser);
    if (prc != 0) {
      snprintf(c->err, c->err_len, "out of memory");
      return;
    }
  }
  if (!pr.prog) {
    snprintf(c->err, c->err_len, "%s", pr.failure ? pr.failure : "libclang could not parse");
    tc_parse_result_free(&pr);
    return;
  }
  tc_report *r = c->out;
  r->n_units++;
  if (pr.failure) tc_report_add_failure(r, c->cmd->file, pr.failure);
  tc_report_add_builtin_rules(r);
  tc_rules_describe(c->s->rules, r);
  tc_engine_opts eo = engine_opts(c->s->opts, tc_config_scope_cli(c->s->scope));
  char *why = NULL;
  int arc = o->worker_exe && !eo.observe
                ? tc_isolated_analyze(pr.prog, c->s->rules, &eo, o->unit_timeout, r, &why)
                : tc_engine_analyze(pr.prog, c->s->rules, &eo, r);
  if (arc < 0) {
    snprintf(c->err, c->err_len, "the analysis ran out of memory");
    tc_parse_result_free(&pr);
    return;
  }
  if (arc == 1) {
    tc_report_add_failure(r, c->cmd->file, why);
    free(why);
  }
  tc_parse_result_free(&pr);
  tc_apply_suppressions(r);
  tc_apply_rule_settings_by_file(r, c->s->opts, tc_config_scope_lookup, c->s->scope);
  tc_report_sort(r);
  c->rc = 0;
}

/* 1 when path is one of the editor's buffers. */
static int is_unsaved_path(const tc_unsaved_file *unsaved, size_t n, const char *path) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(unsaved[i].path, path) == 0) return 1;
  return 0;
}

/* The unit reads an editor buffer (its file, or a file it included last time). */
static int unit_reads_unsaved(const tc_job_unit *u, const tc_unsaved_file *unsaved, size_t n) {
  if (is_unsaved_path(unsaved, n, u->cmd->file)) return 1;
  for (size_t i = 0; i < u->n_deps; i++)
    if (is_unsaved_path(unsaved, n, u->deps[i])) return 1;
  return 0;
}

/* Lowers every unit of ul for the session: a unit whose files are unchanged on disk since the
   session last lowered it comes from the session's table (no cache entry read, nothing
   re-hashed, a view of its IR rather than a copy); the others — those reading an editor buffer, and those not in the table or whose
   files changed — are lowered on the session's workers, from the cache where it holds them,
   and those lowered from the disk go into the table. Returns 0, or -1 out of memory. */
static int session_lower(tc_session *s, unit_list *ul, tc_cache *cache,
                         const tc_unsaved_file *unsaved, size_t n_unsaved) {
  const tc_options *o = s->opts;
  size_t *todo = calloc(ul->n ? ul->n : 1, sizeof *todo), n_todo = 0;
  tc_job_unit *sub = calloc(ul->n ? ul->n : 1, sizeof *sub);
  int64_t *stored = malloc((ul->n ? ul->n : 1) * sizeof *stored); /* unit in the table's store */
  int rc = -1;
  if (!todo || !sub || !stored) goto done;
  tc_unit_table_begin(s->units);
  for (size_t i = 0; i < ul->n; i++) {
    tc_job_unit *u = &ul->units[i];
    stored[i] = -1;
    if (!is_unsaved_path(unsaved, n_unsaved, u->cmd->file)) {
      uint32_t at = 0;
      int hit = tc_unit_table_get(s->units, u, &at);
      if (hit < 0) goto done;
      if (hit && !unit_reads_unsaved(u, unsaved, n_unsaved)) {
        stored[i] = at;
        continue;
      }
      tc_job_unit_clear(u); /* it includes an editor buffer: lowered with it */
      u->digest = 0;
      u->from_cache = 0;
    }
    todo[n_todo] = i;
    sub[n_todo++].cmd = u->cmd;
  }
  for (size_t i = 0; i < ul->n; i++) /* every lookup done: the store no longer changes */
    if (stored[i] >= 0 && !(ul->units[i].prog = tc_unit_table_view(s->units, (uint32_t)stored[i])))
      goto done;
  tc_jobs_opts jo = {.jobs = o->jobs, .cache = cache, .worker_exe = o->worker_exe,
                     .workers = s->workers, .n_workers = s->n_workers,
                     .unit_timeout = o->unit_timeout, .want_deps = 1, .unsaved = unsaved,
                     .n_unsaved = n_unsaved};
  int jrc = tc_jobs_run(sub, n_todo, &jo);
  for (size_t k = 0; k < n_todo; k++) {
    tc_job_unit *u = &ul->units[todo[k]];
    *u = sub[k];
    if (jrc == 0 && !unit_reads_unsaved(u, unsaved, n_unsaved) &&
        tc_unit_table_put(s->units, u) != 0)
      jrc = -1;
  }
  rc = jrc;
done:
  free(todo);
  free(sub);
  free(stored);
  return rc;
}

/* The whole program of file: with cmd (an entry of db for file), the component holding its
   unit; without (a header), the components holding the units that include it. Every unit of
   the database is lowered (those reading an editor buffer with it, the rest from the session's
   table or the cache). *files gets the units of those components. Returns 0; 1 when no unit
   includes the header (nothing analyzed); -1 with the reason in err. */
static int session_program(tc_session *s, const tc_compdb *db, const tc_compile_cmd *cmd,
                           const char *file, const tc_unsaved_file *unsaved, size_t n_unsaved,
                           tc_report *r, char ***files, size_t *n_files, char *err,
                           size_t err_len) {
  const tc_options *o = s->opts;
  int rc = -1;
  unit_list ul;
  memset(&ul, 0, sizeof ul);
  tc_selection sel = {NULL, 0};
  unsigned char *analyzed = NULL;
  char *cache_dir = o->no_cache ? NULL : default_cache_dir(o, db);
  tc_cache *cache = cache_dir ? tc_cache_open(cache_dir) : NULL;
  size_t self = db->n;
  for (size_t i = 0; i < db->n; i++) {
    units_add(&ul, &db->cmds[i], db->cmds[i].file, NULL);
    if (&db->cmds[i] == cmd) self = i;
  }
  analyzed = calloc(ul.n ? ul.n : 1, 1);
  if (ul.oom || !analyzed || (cmd && self == db->n) || selection_add(&sel, file) != 0) {
    snprintf(err, err_len, "out of memory");
    goto done;
  }
  if (session_lower(s, &ul, cache, unsaved, n_unsaved) != 0) {
    snprintf(err, err_len, "out of memory");
    goto done;
  }
  if (cmd && !ul.units[self].prog) { /* nothing to analyze for this document: say why */
    snprintf(err, err_len, "%s",
             ul.units[self].failure ? ul.units[self].failure : "libclang could not parse");
    goto done;
  }
  if (!cmd) { /* a header: analyzed through the units that include it */
    size_t includers = 0;
    for (size_t u = 0; u < ul.n; u++)
      includers += ul.units[u].prog && tc_selection_has_unit(&sel, ul.files[u], &ul.units[u]);
    if (!includers) {
      rc = 1;
      goto done;
    }
  }
  tc_report_add_builtin_rules(r);
  tc_rules_describe(s->rules, r);
  tc_engine_opts eo = engine_opts(o, tc_config_scope_cli(s->scope));
  analysis_totals at;
  memset(&at, 0, sizeof at);
  if (analyze_components(o, &ul, &sel, s->rules, &eo, cache, s->fp_memo, r, &at, analyzed, NULL) != 0) {
    snprintf(err, err_len, "the analysis ran out of memory");
    goto done;
  }
  r->n_units += at.n_units;
  *files = calloc(at.n_units ? at.n_units : 1, sizeof **files);
  if (!*files) goto done;
  *n_files = 0;
  for (size_t u = 0; u < ul.n; u++)
    if (analyzed[u] && ((*files)[*n_files] = strdup(ul.files[u]))) (*n_files)++;
  tc_apply_suppressions(r);
  tc_apply_rule_settings_by_file(r, o, tc_config_scope_lookup, s->scope);
  tc_report_sort(r);
  rc = 0;
done:
  units_free(&ul);
  selection_free(&sel);
  free(analyzed);
  tc_cache_close(cache);
  free(cache_dir);
  return rc;
}

int tc_session_analyze(tc_session *s, const tc_compdb *db, const tc_compile_cmd *cmd,
                       const tc_unsaved_file *unsaved, size_t n_unsaved, tc_report *out,
                       char ***files, size_t *n_files, char *err, size_t err_len) {
  *files = NULL;
  *n_files = 0;
  for (size_t i = 0; db && i < db->n; i++)
    if (&db->cmds[i] == cmd)
      return session_program(s, db, cmd, cmd->file, unsaved, n_unsaved, out, files, n_files,
                             err, err_len);
  session_call c = {s, cmd, unsaved, n_unsaved, out, err, err_len, -1};
  tc_run_on_big_stack(session_analyze, &c);
  if (c.rc == 0 && (*files = calloc(1, sizeof **files)) && ((*files)[0] = strdup(cmd->file)))
    *n_files = 1;
  return c.rc;
}

int tc_session_analyze_includers(tc_session *s, const tc_compdb *db, const char *file,
                                 const tc_unsaved_file *unsaved, size_t n_unsaved,
                                 tc_report *out, char ***files, size_t *n_files, char *err,
                                 size_t err_len) {
  *files = NULL;
  *n_files = 0;
  return session_program(s, db, NULL, file, unsaved, n_unsaved, out, files, n_files, err,
                         err_len);
}
