/* analyzer/src/driver.c — one tagcheck run: configuration, rules, the list of units (compile
 * database entries or FILE -- ARGS, sharded), lowering them on -j threads (or from the cache),
 * merging their IR in unit order, one whole-program analysis, then suppressions, rule settings,
 * baseline, sorting, the report and the exit status. Also the editor-mode session.
 * TAGCHECK_STATS=1 prints each phase's time; TAGCHECK_GROUPS=N forces the analysis's root
 * groups (tests). */
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "driver/cache.h"
#include "driver/components.h"
#include "driver/jobs.h"
#include "engine/engine.h"
#include "report/output.h"

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

static tc_engine_opts engine_opts(const tc_options *o) {
  tc_engine_opts eo;
  memset(&eo, 0, sizeof eo);
  eo.unavailable = (const char *const *)o->unavailable;
  eo.n_unavailable = o->n_unavailable;
  eo.disabled_rules = (const char *const *)o->disable_rules;
  eo.n_disabled_rules = o->n_disable_rules;
  eo.jobs = o->jobs > 0 ? (unsigned)o->jobs : (unsigned)tc_jobs_cores();
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
    tc_program_free(ul->units[i].prog);
    free(ul->units[i].failure);
    free(ul->files[i]);
  }
  free(ul->units);
  free(ul->files);
  for (size_t i = 0; i < ul->n_owned; i++) tc_compile_cmd_free(&ul->owned[i]);
  free(ul->owned);
  memset(ul, 0, sizeof *ul);
}

static int shard_keeps(const tc_options *o, size_t index) {
  if (o->shard_count <= 0) return 1;
  return (int)(index % (size_t)o->shard_count) == o->shard_index - 1;
}

/* Fills ul from the options. Returns 0, or 2 (bad usage, unreadable database) with a message
   printed. */
static int build_units(const tc_options *o, tc_compdb *db, unit_list *ul) {
  char err[TC_ERR_LEN];
  if (o->compdb_dir && tc_compdb_load(o->compdb_dir, db, err, sizeof err) != 0) {
    fprintf(stderr, "tagcheck: %s\n", err);
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
  size_t index = 0;
  if (o->compdb_dir && o->n_files == 0) {
    for (size_t i = 0; i < db->n; i++, index++)
      if (shard_keeps(o, index)) units_add(ul, &db->cmds[i], db->cmds[i].file, NULL);
  }
  for (size_t f = 0; f < o->n_files; f++) {
    char *abs = tc_path_absolute(o->files[f], NULL);
    if (!abs) return 2;
    size_t found = 0;
    for (size_t i = 0; o->compdb_dir && i < db->n; i++) {
      if (strcmp(db->cmds[i].file, abs) != 0) continue;
      found++;
      if (shard_keeps(o, index++)) units_add(ul, &db->cmds[i], abs, NULL);
    }
    if (!found) {
      if (!o->compdb_dir || o->n_extra_args) {
        tc_compile_cmd *c = &ul->owned[ul->n_owned];
        if (tc_compile_cmd_from_args(abs, (const char *const *)o->extra_args, o->n_extra_args,
                                     NULL, c) != 0) {
          free(abs);
          return 2;
        }
        ul->n_owned++;
        if (shard_keeps(o, index++)) units_add(ul, c, abs, NULL);
      } else if (shard_keeps(o, index++)) {
        char why[TC_ERR_LEN];
        snprintf(why, sizeof why, "no compile command for this file in %s", db->path);
        units_add(ul, NULL, abs, why);
      }
    }
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
  if (!o->compdb_dir || !db->path) return NULL; /* FILE -- ARGS: only with --cache-dir */
  /* next to the database: DIR/.tagcheck-cache for -p DIR */
  const char *slash = strrchr(db->path, '/');
  size_t dl = slash ? (size_t)(slash - db->path) : 0;
  size_t n = dl + sizeof "/.tagcheck-cache";
  char *d = malloc(n);
  if (d) snprintf(d, n, "%.*s/.tagcheck-cache", (int)dl, db->path);
  return d;
}

/* Merges the programs of units idx[0..n-1] (every unit when idx is NULL), in unit order. */
static tc_program *merge_units(unit_list *ul, const size_t *idx, size_t n) {
  tc_program *prog = tc_program_new();
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
static uint64_t results_cache_key(const tc_options *o, const unit_list *ul, const size_t *idx,
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
  if (i == n_idx) {
    size_t n = o->n_rules_files ? o->n_rules_files : 1;
    const char **paths = calloc(n, sizeof *paths);
    if (paths) {
      n = tc_driver_rules_paths(o, paths, n);
      key = tc_cache_results_key(d, n_idx, paths, n, eo);
      free(paths);
    }
  }
  free(d);
  return key;
}

typedef struct analysis_totals {
  tc_engine_stats es;   /* summed over the components analyzed */
  size_t n_components, n_reused;
} analysis_totals;

/* Analyzes the database component by component (driver/components.h): each component's
   findings come from the cache when none of its units changed, else from the engine (and go
   to the cache). Returns 0, or -1 when out of memory. */
static int analyze_components(const tc_options *o, unit_list *ul, const tc_rules *rules,
                              tc_engine_opts *eo, tc_cache *cache, tc_report *r,
                              analysis_totals *t) {
  size_t *comp = calloc(ul->n ? ul->n : 1, sizeof *comp);
  size_t *idx = calloc(ul->n ? ul->n : 1, sizeof *idx);
  int rc = -1;
  if (!comp || !idx) goto done;
  if (tc_unit_components(ul->units, ul->n, comp) == 0)
    memset(comp, 0, ul->n * sizeof *comp); /* cannot tell: everything is one component */
  for (size_t c = 0; c < ul->n; c++) {
    size_t n = 0;
    for (size_t u = c; u < ul->n; u++)
      if (comp[u] == c) idx[n++] = u;
    if (!n) continue;
    t->n_components++;
    uint64_t key = cache ? results_cache_key(o, ul, idx, n, eo) : 0;
    if (key && tc_cache_load_results(cache, key, r) == 0) {
      t->n_reused++;
      continue;
    }
    tc_program *prog = merge_units(ul, idx, n);
    if (!prog) goto done;
    tc_report part;
    tc_report_init(&part);
    tc_engine_stats es;
    memset(&es, 0, sizeof es);
    eo->stats = &es;
    int arc = tc_engine_analyze(prog, rules, eo, &part);
    eo->stats = NULL;
    tc_program_free(prog);
    if (arc != 0) {
      tc_report_free(&part);
      goto done;
    }
    if (key) tc_cache_store_results(cache, key, &part);
    tc_report_take(r, &part);
    tc_report_free(&part);
    t->es.insns += es.insns;
    t->es.roots += es.roots;
    if (es.groups > t->es.groups) t->es.groups = es.groups;
  }
  rc = 0;
done:
  free(comp);
  free(idx);
  return rc;
}

static FILE *open_output(const tc_options *o) {
  if (!o->output || strcmp(o->output, "-") == 0) return stdout;
  FILE *f = fopen(o->output, "w");
  if (!f) fprintf(stderr, "tagcheck: cannot write %s\n", o->output);
  return f;
}

static int close_output(const tc_options *o, FILE *f) {
  int bad = ferror(f) != 0;
  if (f == stdout) bad |= fflush(f) != 0;
  else bad |= fclose(f) != 0;
  if (bad) fprintf(stderr, "tagcheck: error writing %s\n", o->output ? o->output : "the report");
  return bad ? -1 : 0;
}

static void summary(const tc_report *r, size_t n_cached) {
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
  if (r->n_failures)
    fprintf(stderr, "; %zu could not be analyzed", r->n_failures);
  fputc('\n', stderr);
  for (size_t i = 0; i < r->n_failures; i++)
    fprintf(stderr, "tagcheck: %s: not analyzed completely: %s\n", r->failures[i].file,
            r->failures[i].reason);
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
  tc_report r;
  tc_report_init(&r);
  char *cache_dir = NULL;

  char cwd[4096];
  const char *start = o->compdb_dir ? o->compdb_dir : getcwd(cwd, sizeof cwd);
  if (tc_config_load(o, start ? start : ".", err, sizeof err) != 0) {
    fprintf(stderr, "tagcheck: %s\n", err);
    goto done;
  }
  if (!o->dump_ir) {
    rules = load_rules(o, err, sizeof err);
    if (!rules) {
      fprintf(stderr, "tagcheck: %s\n", err);
      goto done;
    }
  }
  status = build_units(o, &db, &ul);
  if (status != 0) goto done;
  status = 2;
  if (!o->no_cache) {
    cache_dir = default_cache_dir(o, &db);
    if (cache_dir) cache = tc_cache_open(cache_dir);
  }
  if (tc_jobs_run(ul.units, ul.n, o->jobs, cache) != 0) {
    fprintf(stderr, "tagcheck: out of memory while lowering the units\n");
    status = 3;
    goto done;
  }
  t_lowered = now_s();
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
  r.n_units = ul.n;
  for (size_t i = 0; i < ul.n; i++)
    if (ul.units[i].failure) tc_report_add_failure(&r, ul.files[i], ul.units[i].failure);
  t_merged = now_s();
  if (o->dump_ir) {
    prog = merge_units(&ul, NULL, ul.n);
    if (!prog) {
      fprintf(stderr, "tagcheck: out of memory\n");
      status = 3;
      goto done;
    }
    FILE *out = open_output(o);
    if (!out) goto done;
    tc_ir_dump(prog, out);
    if (close_output(o, out) != 0) goto done;
    for (size_t i = 0; i < r.n_failures; i++)
      fprintf(stderr, "tagcheck: %s: %s\n", r.failures[i].file, r.failures[i].reason);
    status = r.n_failures ? 3 : 0;
    goto done;
  }
  tc_report_add_builtin_rules(&r);
  tc_rules_describe(rules, &r);
  tc_engine_opts eo = engine_opts(o);
  analysis_totals at;
  memset(&at, 0, sizeof at);
  if (analyze_components(o, &ul, rules, &eo, cache, &r, &at) != 0) {
    fprintf(stderr, "tagcheck: the analysis ran out of memory\n");
    status = 3;
    goto done;
  }
  t_analyzed = now_s();
  tc_apply_suppressions(&r);
  tc_apply_rule_settings(&r, o);
  if (o->baseline && tc_apply_baseline(&r, o->baseline, o, err, sizeof err) != 0) {
    fprintf(stderr, "tagcheck: %s\n", err);
    goto done;
  }
  tc_report_sort(&r);
  FILE *out = open_output(o);
  if (!out) goto done;
  int wrc = tc_write_report(&r, o, out);
  if (close_output(o, out) != 0 || wrc != 0) goto done;
  if (!o->quiet) summary(&r, n_cached);
  if (stats)
    fprintf(stderr,
            "tagcheck: stats: lower %.3f s, merge %.3f s, analysis %.3f s, report %.3f s; "
            "%llu instructions, %zu roots analyzed in %u group%s; %zu component%s, %zu "
            "from the cache\n",
            t_lowered - t_start, t_merged - t_lowered, t_analyzed - t_merged,
            now_s() - t_analyzed, at.es.insns, at.es.roots, at.es.groups,
            at.es.groups == 1 ? "" : "s", at.n_components, at.n_components == 1 ? "" : "s",
            at.n_reused);
  status = tc_report_exit_status(&r, o);
done:
  tc_report_free(&r);
  tc_program_free(prog);
  units_free(&ul);
  tc_compdb_free(&db);
  tc_cache_close(cache);
  free(cache_dir);
  tc_rules_free(rules);
  return status;
}

/* ---- editor mode ---- */

struct tc_session {
  const tc_options *opts;
  tc_rules *rules;
};

tc_session *tc_session_new(const tc_options *o, char *err, size_t err_len) {
  tc_session *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  s->opts = o;
  s->rules = load_rules(o, err, err_len);
  if (!s->rules) {
    free(s);
    return NULL;
  }
  return s;
}

void tc_session_free(tc_session *s) {
  if (!s) return;
  tc_rules_free(s->rules);
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
  tc_parser *parser = tc_parser_new();
  if (!parser) {
    snprintf(c->err, c->err_len, "out of memory");
    return;
  }
  tc_parse_result pr;
  if (tc_parse_unit(parser, c->cmd, c->unsaved, c->n_unsaved, 0, &pr) != 0) {
    snprintf(c->err, c->err_len, "out of memory");
    tc_parser_free(parser);
    return;
  }
  tc_parser_free(parser);
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
  tc_engine_opts eo = engine_opts(c->s->opts);
  if (tc_engine_analyze(pr.prog, c->s->rules, &eo, r) != 0) {
    snprintf(c->err, c->err_len, "the analysis ran out of memory");
    tc_parse_result_free(&pr);
    return;
  }
  tc_parse_result_free(&pr);
  tc_apply_suppressions(r);
  tc_apply_rule_settings(r, c->s->opts);
  tc_report_sort(r);
  c->rc = 0;
}

int tc_session_analyze(tc_session *s, const tc_compile_cmd *cmd, const tc_unsaved_file *unsaved,
                       size_t n_unsaved, tc_report *out, char *err, size_t err_len) {
  session_call c = {s, cmd, unsaved, n_unsaved, out, err, err_len, -1};
  tc_run_on_big_stack(session_analyze, &c);
  return c.rc;
}
