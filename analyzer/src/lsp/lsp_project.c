/* analyzer/src/lsp/lsp_project.c — per-project options and sessions of the LSP server (see
 * lsp_project.h). A project's options are a private copy of the command-line options
 * (tc_options_copy) with the configuration merged in by the driver's tc_config_load. */
#include "lsp/lsp_project.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/config_scope.h"
#include "report/output.h"
#include "driver/config.h"

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

tc_lsp_projects *tc_lsp_projects_new(const tc_options *cli) {
  tc_lsp_projects *p = calloc(1, sizeof *p);
  if (p) p->cli = cli;
  return p;
}

static void project_free(project *pr) {
  if (!pr) return;
  tc_session_free(pr->session);
  tc_options_release(&pr->opts);
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
  if (tc_options_copy(p->cli, &o) != 0) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  if (tc_config_load(&o, dir, err, err_len) != 0) {
    tc_options_release(&o);
    return NULL;
  }
  struct timespec mt = mtime_of(o.config_loaded);
  for (size_t i = 0; i < p->n; i++) {
    project *pr = p->items[i];
    if (!same_config(pr->config, o.config_loaded)) continue;
    if (pr->mtime.tv_sec == mt.tv_sec && pr->mtime.tv_nsec == mt.tv_nsec) {
      tc_options_release(&o);
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
      tc_options_release(&o);
      snprintf(err, err_len, "out of memory");
      return NULL;
    }
    p->items = items;
    p->cap = cap;
  }
  project *pr = calloc(1, sizeof *pr);
  if (!pr) {
    tc_options_release(&o);
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  pr->mtime = mt;
  pr->opts = o;
  pr->config = o.config_loaded ? strdup(o.config_loaded) : NULL;
  pr->session = (!o.config_loaded || pr->config) ? tc_session_new(p->cli, &pr->opts, err, err_len) : NULL;
  if (!pr->session) {
    if (o.config_loaded && !pr->config) snprintf(err, err_len, "out of memory");
    project_free(pr);
    return NULL;
  }
  p->items[p->n++] = pr;
  *opts = &pr->opts;
  return pr->session;
}
