/* analyzer/src/driver/config_scope.c — the nearest configuration of each source file (see
 * config_scope.h): configurations are found walking up from a file's directory, loaded once
 * each over a copy of the command line's options, and remembered by path. */
#include "driver/config_scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "base/uri.h"
#include "base/path.h"
#include "driver/config.h"

typedef struct scoped_config {
  char *path;     /* the configuration file */
  tc_options opts; /* cli's options with it merged in */
  int ok;          /* 0: it could not be read: run's options judge its files */
} scoped_config;

struct tc_config_scope {
  const tc_options *cli, *run;
  scoped_config *items;
  size_t n, cap;
  char *last_dir; /* the findings come sorted by file: the last directory asked and its answer */
  const tc_options *last_opts;
  int failed;
};

static int copy_list(char ***dst, size_t *dst_n, char *const *src, size_t n) {
  *dst = NULL;
  *dst_n = 0;
  if (n == 0) return 0;
  char **v = calloc(n, sizeof *v);
  if (!v) return -1;
  for (size_t i = 0; i < n; i++) {
    v[i] = strdup(src[i] ? src[i] : "");
    if (!v[i]) {
      for (size_t k = 0; k < i; k++) free(v[k]);
      free(v);
      return -1;
    }
  }
  *dst = v;
  *dst_n = n;
  return 0;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

void tc_options_release(tc_options *o) {
  tc_options_free_config(o);
  free_list(o->rules_files, o->n_rules_files);
  free_list(o->enable_rules, o->n_enable_rules);
  free_list(o->disable_rules, o->n_disable_rules);
  free_list(o->unavailable, o->n_unavailable);
  free(o->root);
  memset(o, 0, sizeof *o);
}

int tc_options_copy(const tc_options *cli, tc_options *o) {
  *o = *cli;
  o->rules_files = o->enable_rules = o->disable_rules = o->unavailable = NULL;
  o->severity_rules = o->severity_levels = o->exclude = NULL;
  o->n_severity = o->n_exclude = 0;
  o->config_loaded = NULL;
  o->root = NULL;
  o->files = NULL; /* a copy's configuration is searched from the folder its owner names */
  o->n_files = 0;
  int rc = copy_list(&o->rules_files, &o->n_rules_files, cli->rules_files, cli->n_rules_files) |
           copy_list(&o->enable_rules, &o->n_enable_rules, cli->enable_rules, cli->n_enable_rules) |
           copy_list(&o->disable_rules, &o->n_disable_rules, cli->disable_rules, cli->n_disable_rules) |
           copy_list(&o->unavailable, &o->n_unavailable, cli->unavailable, cli->n_unavailable) |
           copy_list(&o->severity_rules, &o->n_severity, cli->severity_rules, cli->n_severity);
  size_t n_levels = 0;
  rc |= copy_list(&o->severity_levels, &n_levels, cli->severity_levels, cli->n_severity);
  rc |= copy_list(&o->exclude, &o->n_exclude, cli->exclude, cli->n_exclude);
  if (cli->root && !(o->root = strdup(cli->root))) rc = -1;
  if (rc != 0) {
    tc_options_release(o);
    return -1;
  }
  return 0;
}

tc_config_scope *tc_config_scope_new(const tc_options *cli, const tc_options *run) {
  tc_config_scope *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->cli = cli ? cli : run;
  s->run = run;
  return s;
}

void tc_config_scope_free(tc_config_scope *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->items[i].path);
    s->items[i].opts.config = NULL; /* the copy's --config was items[i].path */
    tc_options_release(&s->items[i].opts);
  }
  free(s->items);
  free(s->last_dir);
  free(s);
}

const tc_options *tc_config_scope_cli(const tc_config_scope *s) { return s->cli; }

int tc_config_scope_failed(const tc_config_scope *s) { return s && s->failed; }

/* The options of the configuration at path (loaded on first use); run's when it is unreadable
   or memory runs out. */
static const tc_options *options_of(tc_config_scope *s, const char *path) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->items[i].path, path) == 0) return s->items[i].ok ? &s->items[i].opts : s->run;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 4;
    scoped_config *items = realloc(s->items, cap * sizeof *items);
    if (!items) return s->run;
    s->items = items;
    s->cap = cap;
  }
  scoped_config *c = &s->items[s->n];
  memset(c, 0, sizeof *c);
  if (!(c->path = strdup(path))) return s->run;
  if (tc_options_copy(s->cli, &c->opts) != 0) {
    free(c->path);
    return s->run;
  }
  s->n++;
  c->opts.config = c->path;
  char err[1024];
  if (tc_config_load(&c->opts, NULL, err, sizeof err) == 0) {
    c->ok = 1;
    return &c->opts;
  }
  tc_print_problem("tagcheck", "error", err);
  s->failed = 1;
  return s->run;
}

const tc_options *tc_config_scope_for(tc_config_scope *s, const char *file) {
  if (!s || !file || !*file) return s ? s->run : NULL;
  /* An explicit --config governs every file. */
  if (s->run->config && *s->run->config) return s->run;
  char *dir = tc_normalize_path(file);
  if (!dir) return s->run;
  char *slash = strrchr(dir, '/');
  if (slash == dir) slash[1] = '\0';
  else if (slash) *slash = '\0';
  if (s->last_dir && strcmp(s->last_dir, dir) == 0) {
    free(dir);
    return s->last_opts;
  }
  const tc_options *o = s->run;
  char *nearest = tc_config_find(dir);
  /* No configuration above the file, or the run's own: the run's options. */
  if (nearest && (!s->run->config_loaded || strcmp(nearest, s->run->config_loaded) != 0))
    o = options_of(s, nearest);
  free(nearest);
  free(s->last_dir);
  s->last_dir = dir;
  s->last_opts = o;
  return o;
}

const tc_options *tc_config_scope_lookup(void *scope, const char *file) {
  return tc_config_scope_for(scope, file);
}
