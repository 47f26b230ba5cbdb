/* analyzer/src/lsp/lsp_project.c — per-project options and sessions of the LSP server (see
 * lsp_project.h). A project's options are a private copy of the command-line options (the
 * lists a configuration file may extend are deep-copied, so merging never touches the
 * caller's) with the configuration merged in by the report layer's tc_config_load. */
#include "lsp/lsp_project.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/output.h"

typedef struct project {
  char *config;          /* the configuration file merged in, or NULL for none */
  struct timespec mtime; /* of config, to notice edits */
  tc_options opts;
  tc_session *session;
} project;

struct tc_lsp_projects {
  const tc_options *cli;
  project **items; /* never moved: sessions point at their project's options */
  size_t n, cap;
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

/* Frees what options_copy allocated and what tc_config_load added. */
static void options_release(tc_options *o) {
  tc_options_free_config(o);
  free_list(o->rules_files, o->n_rules_files);
  free_list(o->enable_rules, o->n_enable_rules);
  free_list(o->disable_rules, o->n_disable_rules);
  free_list(o->unavailable, o->n_unavailable);
  free(o->root);
  memset(o, 0, sizeof *o);
}

/* cli with its own copies of every list and string a configuration file may change. */
static int options_copy(const tc_options *cli, tc_options *o) {
  *o = *cli;
  o->rules_files = o->enable_rules = o->disable_rules = o->unavailable = NULL;
  o->severity_rules = o->severity_levels = o->exclude = NULL;
  o->n_severity = o->n_exclude = 0;
  o->config_loaded = NULL;
  o->root = NULL;
  o->files = NULL; /* the configuration is searched from the document's folder */
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
    options_release(o);
    return -1;
  }
  return 0;
}

tc_lsp_projects *tc_lsp_projects_new(const tc_options *cli) {
  tc_lsp_projects *p = calloc(1, sizeof *p);
  if (p) p->cli = cli;
  return p;
}

static void project_free(project *pr) {
  if (!pr) return;
  tc_session_free(pr->session);
  options_release(&pr->opts);
  free(pr->config);
  free(pr);
}

void tc_lsp_projects_reset(tc_lsp_projects *p) {
  for (size_t i = 0; i < p->n; i++) project_free(p->items[i]);
  p->n = 0;
}

void tc_lsp_projects_free(tc_lsp_projects *p) {
  if (!p) return;
  tc_lsp_projects_reset(p);
  free(p->items);
  free(p);
}

static int same_config(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static struct timespec mtime_of(const char *path) {
  struct stat st;
  struct timespec none = {0, 0};
  return path && stat(path, &st) == 0 ? st.st_mtim : none;
}

tc_session *tc_lsp_projects_session(tc_lsp_projects *p, const char *dir, const tc_options **opts,
                                    char *err, size_t err_len) {
  tc_options o;
  if (options_copy(p->cli, &o) != 0) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  if (tc_config_load(&o, dir, err, err_len) != 0) {
    options_release(&o);
    return NULL;
  }
  struct timespec mt = mtime_of(o.config_loaded);
  for (size_t i = 0; i < p->n; i++) {
    project *pr = p->items[i];
    if (!same_config(pr->config, o.config_loaded)) continue;
    if (pr->mtime.tv_sec == mt.tv_sec && pr->mtime.tv_nsec == mt.tv_nsec) {
      options_release(&o);
      *opts = &pr->opts;
      return pr->session;
    }
    project_free(pr); /* the file changed: load it again */
    p->items[i] = p->items[--p->n];
    break;
  }
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 4;
    project **items = realloc(p->items, cap * sizeof *items);
    if (!items) {
      options_release(&o);
      snprintf(err, err_len, "out of memory");
      return NULL;
    }
    p->items = items;
    p->cap = cap;
  }
  project *pr = calloc(1, sizeof *pr);
  if (!pr) {
    options_release(&o);
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  pr->mtime = mt;
  pr->opts = o;
  pr->config = o.config_loaded ? strdup(o.config_loaded) : NULL;
  pr->session = (!o.config_loaded || pr->config) ? tc_session_new(&pr->opts, err, err_len) : NULL;
  if (!pr->session) {
    if (o.config_loaded && !pr->config) snprintf(err, err_len, "out of memory");
    project_free(pr);
    return NULL;
  }
  p->items[p->n++] = pr;
  *opts = &pr->opts;
  return pr->session;
}
