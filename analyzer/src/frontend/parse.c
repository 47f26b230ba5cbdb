/* analyzer/src/frontend/parse.c — libclang parsing of one unit: builds the CXUnsavedFile list,
 * parses with the unit's arguments, turns error and fatal diagnostics into the unit's failure
 * reason, lowers the AST (lower.c) and collects the files the unit includes. */
#include "frontend/parse.h"

#include <clang-c/Index.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lower.h"
#include "base/path.h"

struct tc_parser {
  CXIndex index;
  pthread_t thread;     /* the thread stack_floor describes */
  uintptr_t stack_floor;
  int have_floor;
};

void tc_frontend_version(char *buf, size_t n) {
  CXString v = clang_getClangVersion();
  const char *c = clang_getCString(v);
  snprintf(buf, n, "%s (libclang)", c ? c : "clang version unknown");
  clang_disposeString(v);
}

tc_parser *tc_parser_new(void) {
  tc_parser *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->index = clang_createIndex(0, 0);
  if (!p->index) {
    free(p);
    return NULL;
  }
  return p;
}

void tc_parser_free(tc_parser *p) {
  if (!p) return;
  clang_disposeIndex(p->index);
  free(p);
}

enum {
  PARSE_OPTIONS = CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles
};

/* The flag a driver diagnostic says libclang rejects ("unknown argument: '-fconserve-stack'",
   "unsupported option '-mfoo' for target …"), as a pointer into msg and its length; 0 when
   the diagnostic is not about a rejected flag. */
static size_t rejected_flag(const char *msg, const char **flag) {
  static const char *const starts[] = {"unknown argument: '", "unsupported option '",
                                       "unknown argument '"};
  for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
    size_t n = strlen(starts[k]);
    if (strncmp(msg, starts[k], n) != 0) continue;
    const char *end = strchr(msg + n, '\'');
    if (!end || end == msg + n) return 0;
    *flag = msg + n;
    return (size_t)(end - *flag);
  }
  return 0;
}

/* cmd's arguments without those tu's diagnostics reject: *out (borrowed strings, malloc'd
   vector). Returns how many were dropped. */
static size_t without_rejected_flags(CXTranslationUnit tu, const tc_compile_cmd *cmd,
                                     char ***out, size_t *n_out) {
  size_t dropped = 0;
  *out = calloc(cmd->argc + 1, sizeof **out);
  if (!*out) return 0;
  unsigned char *drop = calloc(cmd->argc + 1, 1);
  if (!drop) {
    free(*out);
    *out = NULL;
    return 0;
  }
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXString sp = clang_getDiagnosticSpelling(d);
    const char *msg = clang_getCString(sp), *flag = NULL;
    size_t len = msg ? rejected_flag(msg, &flag) : 0;
    for (size_t a = 0; len && a < cmd->argc; a++)
      if (!drop[a] && strlen(cmd->argv[a]) == len && strncmp(cmd->argv[a], flag, len) == 0) {
        drop[a] = 1;
        dropped++;
      }
    clang_disposeString(sp);
    clang_disposeDiagnostic(d);
  }
  *n_out = 0;
  for (size_t a = 0; a < cmd->argc; a++)
    if (!drop[a]) (*out)[(*n_out)++] = cmd->argv[a];
  free(drop);
  return dropped;
}

static CXTranslationUnit parse(tc_parser *p, const tc_compile_cmd *cmd,
                               const tc_unsaved_file *unsaved, size_t n_unsaved,
                               enum CXErrorCode *code) {
  struct CXUnsavedFile *uf = NULL;
  if (n_unsaved) {
    uf = calloc(n_unsaved, sizeof *uf);
    if (!uf) {
      *code = CXError_Failure;
      return NULL;
    }
    for (size_t i = 0; i < n_unsaved; i++) {
      uf[i].Filename = unsaved[i].path;
      uf[i].Contents = unsaved[i].text;
      uf[i].Length = (unsigned long)unsaved[i].len;
    }
  }
  CXTranslationUnit tu = NULL;
  *code = clang_parseTranslationUnit2(p->index, cmd->file, (const char *const *)cmd->argv,
                                      (int)cmd->argc, uf, (unsigned)n_unsaved, PARSE_OPTIONS, &tu);
  if (*code != CXError_Success) tu = NULL;
  /* a flag of the unit's compiler that libclang rejects (a gcc-only -f option, an nvcc one):
     parsed again without it, as if that compiler's flag did not change the code */
  char **kept = NULL;
  size_t n_kept = 0;
  if (tu && without_rejected_flags(tu, cmd, &kept, &n_kept) > 0) {
    CXTranslationUnit again = NULL;
    enum CXErrorCode c2 = clang_parseTranslationUnit2(p->index, cmd->file,
                                                      (const char *const *)kept, (int)n_kept, uf,
                                                      (unsigned)n_unsaved, PARSE_OPTIONS, &again);
    if (c2 == CXError_Success && again) {
      clang_disposeTranslationUnit(tu);
      tu = again;
    }
  }
  free(kept);
  free(uf);
  return tu;
}

int tc_parse_only(tc_parser *p, const tc_compile_cmd *cmd) {
  enum CXErrorCode code;
  CXTranslationUnit tu = parse(p, cmd, NULL, 0, &code);
  if (!tu) return -1;
  clang_disposeTranslationUnit(tu);
  return 0;
}

/* "N errors; first: file:line:col: error: message", or NULL when clang reported no error. */
static char *failure_from_diagnostics(CXTranslationUnit tu) {
  unsigned n = clang_getNumDiagnostics(tu), errors = 0;
  char *first = NULL;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev == CXDiagnostic_Error || sev == CXDiagnostic_Fatal) {
      errors++;
      if (!first) {
        CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                   CXDiagnostic_DisplayColumn);
        const char *c = clang_getCString(s);
        first = strdup(c ? c : "error");
        clang_disposeString(s);
      }
    }
    clang_disposeDiagnostic(d);
  }
  if (!errors) return NULL;
  size_t len = (first ? strlen(first) : 0) + 64;
  char *r = malloc(len);
  if (r) {
    if (errors == 1) snprintf(r, len, "%s", first ? first : "error");
    else snprintf(r, len, "%u errors; first: %s", errors, first ? first : "error");
  }
  free(first);
  return r;
}

typedef struct deps_ctx {
  const char *dir;
  char **v;
  size_t n, cap;
  int oom;
} deps_ctx;

static void collect_include(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  (void)depth;
  deps_ctx *dc = data;
  if (dc->oom) return;
  CXString s = clang_getFileName(f);
  const char *name = clang_getCString(s);
  /* a path through "..": the file the system opens, which a lexical normalization misses when
     a component is a link (libclang names libstdc++'s headers
     "/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/mutex", where /lib links to
     usr/lib: lexically "/include/…", which does not exist, so no C++ unit was ever cached) */
  char *real = name && name[0] == '/' && strstr(name, "/..") ? realpath(name, NULL) : NULL;
  char *abs = real ? real : name ? tc_path_absolute(name, dc->dir) : NULL;
  clang_disposeString(s);
  if (!abs) return;
  for (size_t i = 0; i < dc->n; i++) {
    if (strcmp(dc->v[i], abs) == 0) {
      free(abs);
      return;
    }
  }
  if (dc->n == dc->cap) {
    size_t cap = dc->cap ? dc->cap * 2 : 32;
    char **v = realloc(dc->v, cap * sizeof *v);
    if (!v) {
      free(abs);
      dc->oom = 1;
      return;
    }
    dc->v = v;
    dc->cap = cap;
  }
  dc->v[dc->n++] = abs;
}

/* The names of the headers clang could not find ("'NAME' file not found"): the cache records
   where they would appear. */
static int collect_missing(CXTranslationUnit tu, tc_parse_result *out) {
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXString s = clang_getDiagnosticSpelling(d);
    const char *m = clang_getCString(s);
    const char *end = m ? strstr(m, "' file not found") : NULL;
    int rc = 0;
    if (m && m[0] == '\'' && end && end > m + 1) {
      char **v = realloc(out->missing, (out->n_missing + 1) * sizeof *v);
      char *name = strndup(m + 1, (size_t)(end - m - 1));
      if (v) out->missing = v;
      if (!v || !name) {
        free(name);
        rc = -1;
      } else {
        out->missing[out->n_missing++] = name;
      }
    }
    clang_disposeString(s);
    clang_disposeDiagnostic(d);
    if (rc) return -1;
  }
  return 0;
}

int tc_parse_unit(tc_parser *p, const tc_compile_cmd *cmd, const tc_unsaved_file *unsaved,
                  size_t n_unsaved, int want_deps, tc_parse_result *out) {
  memset(out, 0, sizeof *out);
  enum CXErrorCode code;
  CXTranslationUnit tu = parse(p, cmd, unsaved, n_unsaved, &code);
  if (!tu) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s: libclang could not parse the unit (%s)", cmd->file,
             code == CXError_Crashed ? "libclang crashed"
             : code == CXError_InvalidArguments ? "invalid arguments"
             : code == CXError_ASTReadError ? "AST read error" : "no translation unit");
    out->failure = strdup(buf);
    return out->failure ? 0 : -1;
  }
  int rc = 0;
  out->failure = failure_from_diagnostics(tu);
  out->prog = tc_program_new();
  if (!p->have_floor || !pthread_equal(p->thread, pthread_self())) {
    p->thread = pthread_self();
    p->stack_floor = tc_lower_stack_floor();
    p->have_floor = 1;
  }
  tc_lower_opts opts = {cmd->directory, p->stack_floor, 0};
  if (!out->prog || tc_lower_tu(out->prog, tu, cmd->file, &opts) != 0) {
    /* Out of memory in this unit: it alone fails (reported as not analyzed), the run and the
       language server go on. Only when even the reason cannot be kept is it an error. */
    tc_program_free(out->prog);
    out->prog = NULL;
    free(out->failure);
    char buf[4096];
    snprintf(buf, sizeof buf, "%s: out of memory while lowering the unit", cmd->file);
    out->failure = strdup(buf);
    if (!out->failure) rc = -1;
    want_deps = 0;
  }
  if (rc == 0 && out->failure && out->prog->n_units) out->prog->units[0].parse_failed = 1;
  if (rc == 0 && want_deps) {
    deps_ctx dc = {cmd->directory, NULL, 0, 0, 0};
    clang_getInclusions(tu, collect_include, &dc);
    out->deps = dc.v;
    out->n_deps = dc.n;
    if (dc.oom || collect_missing(tu, out) != 0) rc = -1;
  }
  clang_disposeTranslationUnit(tu);
  if (rc != 0) tc_parse_result_free(out);
  return rc;
}

void tc_parse_result_free(tc_parse_result *r) {
  if (!r) return;
  tc_program_free(r->prog);
  free(r->failure);
  for (size_t i = 0; i < r->n_deps; i++) free(r->deps[i]);
  free(r->deps);
  for (size_t i = 0; i < r->n_missing; i++) free(r->missing[i]);
  free(r->missing);
  memset(r, 0, sizeof *r);
}
