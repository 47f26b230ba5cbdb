/* analyzer/src/lsp/lsp_analyze.c — the LSP server's analysis of one document (see
 * lsp_analyze.h): compile command lookup with cached databases (reloaded when the file
 * changes), fallback flags, the project's session (lsp_project.h) analyzing the document's
 * whole program when the database lists it (for a header, the programs of the units that
 * include it), suppressions from the unsaved text. */
#include "lsp/lsp_analyze.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "frontend/compdb.h"
#include "lsp/lsp_project.h"
#include "lsp/lsp_text.h"
#include "report/suppress.h"
#include "base/path.h"

#ifndef TC_DEFAULT_RULES_BUILD
#define TC_DEFAULT_RULES_BUILD "rules/dt.json"
#endif

typedef struct loaded_db {
  char *dir;         /* folder of the compile_commands.json */
  tc_compdb db;
  int ok;            /* loaded without error */
  char *error;       /* why not, when !ok */
  struct timespec mtime;
  off_t size;
} loaded_db;

struct tc_lsp_analyzer {
  const tc_options *opts;
  tc_lsp_projects *projects;
  loaded_db *dbs;
  size_t n_dbs, cap_dbs;
  char *runtime_include; /* the dt runtime's headers for fallback flags, or NULL */
};

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, name);
  return p;
}

/* path's folder (heap). */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

char *tc_lsp_find_compdb_dir(const char *compdb_dir_option, const char *path) {
  if (compdb_dir_option) return tc_path_absolute(compdb_dir_option, NULL);
  char *dir = dir_of(path);
  while (dir) {
    char *db = join(dir, "compile_commands.json");
    int here = db && is_file(db);
    free(db);
    if (here) return dir;
    char *build = join(dir, "build");
    char *build_db = build ? join(build, "compile_commands.json") : NULL;
    int in_build = build_db && is_file(build_db);
    free(build_db);
    if (in_build) {
      free(dir);
      return build;
    }
    free(build);
    if (strcmp(dir, "/") == 0 || strcmp(dir, ".") == 0) break;
    char *up = dir_of(dir);
    free(dir);
    dir = up;
  }
  free(dir);
  return NULL;
}

/* Where the dt runtime's public headers are: next to the installed rules when they are the
   default ones in use (PREFIX/share/tagcheck/rules/dt.json -> PREFIX/include), else in the
   source tree the rules come from (SRC/rules/dt.json -> SRC/runtime/include). */
static char *find_runtime_include(const tc_options *o) {
  const char *rules[1];
  size_t n = tc_driver_rules_paths(o, rules, 1);
  const char *candidates[2] = {n ? rules[0] : NULL, TC_DEFAULT_RULES_BUILD};
  for (int c = 0; c < 2; c++) {
    if (!candidates[c]) continue;
    char *d1 = dir_of(candidates[c]);          /* .../rules */
    char *d2 = d1 ? dir_of(d1) : NULL;         /* SRC or PREFIX/share/tagcheck */
    char *d3 = d2 ? dir_of(d2) : NULL;         /* PREFIX/share */
    char *d4 = d3 ? dir_of(d3) : NULL;         /* PREFIX */
    char *tries[2] = {d2 ? join(d2, "runtime/include") : NULL, d4 ? join(d4, "include") : NULL};
    char *found = NULL;
    for (int t = 0; t < 2; t++) {
      char *h = tries[t] ? join(tries[t], "dt/dt.h") : NULL;
      if (!found && h && is_file(h)) found = tc_path_absolute(tries[t], NULL);
      free(h);
      free(tries[t]);
    }
    free(d1);
    free(d2);
    free(d3);
    free(d4);
    if (found) return found;
  }
  return NULL;
}

tc_lsp_analyzer *tc_lsp_analyzer_new(const tc_options *opts, char *err, size_t err_len) {
  tc_lsp_analyzer *a = calloc(1, sizeof *a);
  if (!a) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  a->opts = opts;
  a->projects = tc_lsp_projects_new(opts);
  /* Load the settings the command line would use here (the -p folder's or the current one's
     configuration, and its rules) so that a broken set-up is reported at once. */
  char cwd[PATH_MAX];
  const char *start = opts->compdb_dir ? opts->compdb_dir : getcwd(cwd, sizeof cwd);
  const tc_options *first;
  if (!a->projects || !tc_lsp_projects_session(a->projects, start ? start : ".", &first, err, err_len)) {
    if (!a->projects) snprintf(err, err_len, "out of memory");
    tc_lsp_projects_free(a->projects);
    free(a);
    return NULL;
  }
  a->runtime_include = find_runtime_include(opts);
  return a;
}

static void db_release(loaded_db *d) {
  free(d->dir);
  free(d->error);
  tc_compdb_free(&d->db);
  memset(d, 0, sizeof *d);
}

void tc_lsp_analyzer_reset(tc_lsp_analyzer *a) {
  for (size_t i = 0; i < a->n_dbs; i++) db_release(&a->dbs[i]);
  a->n_dbs = 0;
  tc_lsp_projects_reset(a->projects);
}

void tc_lsp_analyzer_free(tc_lsp_analyzer *a) {
  if (!a) return;
  tc_lsp_analyzer_reset(a);
  free(a->dbs);
  free(a->runtime_include);
  tc_lsp_projects_free(a->projects);
  free(a);
}

/* The database of folder dir, loaded on first use and reloaded when the file changed. NULL
   out of memory. */
static loaded_db *database(tc_lsp_analyzer *a, const char *dir) {
  char *path = join(dir, "compile_commands.json");
  struct stat st;
  int exists = path && stat(path, &st) == 0;
  free(path);
  for (size_t i = 0; i < a->n_dbs; i++) {
    loaded_db *d = &a->dbs[i];
    if (strcmp(d->dir, dir) != 0) continue;
    if (exists && st.st_mtim.tv_sec == d->mtime.tv_sec && st.st_mtim.tv_nsec == d->mtime.tv_nsec &&
        st.st_size == d->size)
      return d;
    db_release(d);
    a->dbs[i] = a->dbs[--a->n_dbs];
    break;
  }
  if (a->n_dbs == a->cap_dbs) {
    size_t cap = a->cap_dbs ? 2 * a->cap_dbs : 4;
    loaded_db *dbs = realloc(a->dbs, cap * sizeof *dbs);
    if (!dbs) return NULL;
    a->dbs = dbs;
    a->cap_dbs = cap;
  }
  loaded_db *d = &a->dbs[a->n_dbs];
  memset(d, 0, sizeof *d);
  d->dir = strdup(dir);
  if (!d->dir) return NULL;
  if (exists) {
    d->mtime = st.st_mtim;
    d->size = st.st_size;
  }
  char err[1024];
  d->ok = tc_compdb_load(dir, &d->db, err, sizeof err) == 0;
  if (!d->ok) d->error = strdup(err);
  a->n_dbs++;
  return d;
}

/* Appends s to the heap string *acc (space-separated). */
static void append_word(char **acc, const char *s) {
  size_t n = *acc ? strlen(*acc) : 0;
  char *r = realloc(*acc, n + strlen(s) + 2);
  if (!r) return;
  if (n) r[n++] = ' ';
  strcpy(r + n, s);
  *acc = r;
}

/* The fallback command of path: C11 with its folder, include/ next to it, ../include and the
   runtime's headers on the include path. *flags gets them as text for the message. */
static int fallback_command(const tc_lsp_analyzer *a, const char *path, tc_compile_cmd *cmd,
                            char **flags) {
  char *dir = dir_of(path);
  if (!dir) return -1;
  char *inc[4] = {join(dir, ""), join(dir, "include"), join(dir, "../include"),
                  a->runtime_include ? strdup(a->runtime_include) : NULL};
  const char *args[6];
  char *owned[4] = {NULL, NULL, NULL, NULL};
  size_t n = 0;
  args[n++] = "-std=c11";
  for (int i = 0; i < 4; i++) {
    if (!inc[i]) continue;
    size_t len = strlen(inc[i]);
    if (len > 1 && inc[i][len - 1] == '/') inc[i][len - 1] = '\0';
    char *norm = tc_path_absolute(inc[i], NULL);
    owned[i] = malloc(strlen(norm ? norm : inc[i]) + 3);
    if (owned[i]) {
      sprintf(owned[i], "-I%s", norm ? norm : inc[i]);
      args[n++] = owned[i];
    }
    free(norm);
  }
  *flags = NULL;
  append_word(flags, "fallback flags:");
  for (size_t i = 0; i < n; i++) append_word(flags, args[i]);
  int rc = tc_compile_cmd_from_args(path, args, n, dir, cmd);
  for (int i = 0; i < 4; i++) {
    free(inc[i]);
    free(owned[i]);
  }
  free(dir);
  return rc;
}

/* The unsaved text of file, or NULL when it is not open. */
static const tc_unsaved_file *unsaved_of(const tc_unsaved_file *u, size_t n, const char *file) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(u[i].path, file) == 0) return &u[i];
  return NULL;
}

/* The driver reads suppression comments from disk; for open documents the unsaved text is
   what the user sees, so decide again from it (a comment just typed suppresses, one just
   deleted no longer does). */
static void resuppress_unsaved(tc_report *r, const tc_unsaved_file *unsaved, size_t n_unsaved) {
  tc_suppressions sup = {NULL, 0, 0};
  const tc_unsaved_file *scanned = NULL; /* the document sup was read from */
  for (size_t i = 0; i < r->n_diags; i++) {
    tc_diag *d = &r->diags[i];
    const tc_unsaved_file *u = d->loc.file ? unsaved_of(unsaved, n_unsaved, d->loc.file) : NULL;
    if (!u) continue;
    if (u != scanned) {
      tc_suppressions_free(&sup);
      scanned = NULL;
      if (tc_suppressions_scan(u->text, u->len, &sup) != 0) continue;
      scanned = u;
    }
    const tc_suppression *s = tc_suppressions_find(&sup, d->loc.line, d->rule_id);
    char *why = s ? strdup(s->justification) : NULL;
    d->suppressed = why != NULL;
    free(d->suppression_text);
    d->suppression_text = why;
  }
  tc_suppressions_free(&sup);
}

/* The entry of db whose file shares the longest folder prefix with path (clangd's guess for
   headers and new files), or NULL for an empty database. */
static const tc_compile_cmd *nearest_entry(const tc_compdb *db, const char *path) {
  const tc_compile_cmd *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < db->n; i++) {
    const char *f = db->cmds[i].file;
    size_t common = 0, dir_len = 0;
    while (f[common] && f[common] == path[common]) {
      if (f[common] == '/') dir_len = common + 1;
      common++;
    }
    if (!best || dir_len > best_len) {
      best = &db->cmds[i];
      best_len = dir_len;
    }
  }
  return best;
}

/* Sets *why (heap) to a printf-style reason. */
static void set_reason(char **why, const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + strlen(b ? b : "") + 1;
  *why = malloc(n);
  if (*why) snprintf(*why, n, fmt, a, b ? b : "");
}

int tc_lsp_analyze(tc_lsp_analyzer *a, const char *path, const tc_unsaved_file *unsaved,
                   size_t n_unsaved, tc_lsp_result *res, char *err, size_t err_len) {
  memset(res, 0, sizeof *res);
  tc_report_init(&res->report);
  char *dir = dir_of(path);
  const tc_options *opts = NULL;
  tc_session *session = dir ? tc_lsp_projects_session(a->projects, dir, &opts, err, err_len) : NULL;
  free(dir);
  if (!session) return -1;

  tc_compile_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  const tc_compile_cmd *use = NULL;
  const tc_compdb *use_db = NULL; /* use is an entry of it: analyze its whole program */
  char *db_dir = tc_lsp_find_compdb_dir(a->opts->compdb_dir, path);
  if (!db_dir) {
    set_reason(&res->fallback_reason, "no compile_commands.json in its folder or above%s%s",
               a->opts->compdb_dir ? "" : " (nor in their build/ subfolders)", NULL);
  } else {
    const loaded_db *d = database(a, db_dir);
    if (d && !d->ok) {
      set_reason(&res->fallback_reason, "the compile database cannot be read: %s%s", d->error, NULL);
    } else if (d) {
      use = tc_compdb_find(&d->db, path, NULL);
      if (!use) {
        char resolved[PATH_MAX];
        if (realpath(path, resolved)) use = tc_compdb_find(&d->db, resolved, NULL);
      }
      if (use) {
        res->command_source = strdup(d->db.path);
        use_db = &d->db;
      } else {
        /* a header: the whole programs of the units that include it, when some do */
        int hrc = tc_session_analyze_includers(session, &d->db, path, unsaved, n_unsaved,
                                               &res->report, &res->program_files,
                                               &res->n_program_files, err, err_len);
        if (hrc <= 0) {
          free(db_dir);
          if (hrc < 0) {
            tc_lsp_result_free(res);
            return -1;
          }
          res->command_source = strdup(d->db.path);
          resuppress_unsaved(&res->report, unsaved, n_unsaved);
          return 0;
        }
        set_reason(&res->fallback_reason, "%s does not list it%s", d->db.path, NULL);
        /* Borrow the flags of the nearest listed file, as clangd does for headers. */
        const tc_compile_cmd *near = nearest_entry(&d->db, path);
        if (near && tc_compile_cmd_copy(near, &cmd) == 0) {
          free(cmd.file);
          cmd.file = strdup(path);
          if (cmd.file) {
            set_reason(&res->command_source, "the flags of %s%s", near->file, NULL);
            res->fallback = 1;
            use = &cmd;
          } else {
            tc_compile_cmd_free(&cmd);
          }
        }
      }
    }
  }
  free(db_dir);
  if (!use) {
    if (fallback_command(a, path, &cmd, &res->command_source) != 0) {
      snprintf(err, err_len, "out of memory");
      tc_lsp_result_free(res);
      return -1;
    }
    res->fallback = 1;
    use = &cmd;
  }
  int rc = tc_session_analyze(session, use_db, use, unsaved, n_unsaved, &res->report,
                              &res->program_files, &res->n_program_files, err, err_len);
  tc_compile_cmd_free(&cmd);
  if (rc != 0) {
    tc_lsp_result_free(res);
    return -1;
  }
  resuppress_unsaved(&res->report, unsaved, n_unsaved);
  return 0;
}

void tc_lsp_result_free(tc_lsp_result *res) {
  tc_report_free(&res->report);
  free(res->command_source);
  free(res->fallback_reason);
  res->command_source = res->fallback_reason = NULL;
  for (size_t i = 0; i < res->n_program_files; i++) free(res->program_files[i]);
  free(res->program_files);
  res->program_files = NULL;
  res->n_program_files = 0;
}
