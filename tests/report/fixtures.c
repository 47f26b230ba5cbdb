/* tests/report/fixtures.c — the shared test helpers of fixtures.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fixtures.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *fx_strdup(const char *s) {
  char *p = strdup(s);
  if (!p) abort();
  return p;
}

char *fx_mkdtemp(void) {
  const char *tmp = getenv("TMPDIR");
  char templ[4096];
  snprintf(templ, sizeof templ, "%s/tc-report-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(templ)) abort();
  char *real = realpath(templ, NULL);
  if (!real) abort();
  return real;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

void fx_rmtree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

char *fx_write(const char *dir, const char *name, const char *content) {
  char *path = NULL;
  if (asprintf(&path, "%s/%s", dir, name) < 0) abort();
  for (char *p = path + strlen(dir) + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  fputs(content, f);
  fclose(f);
  return path;
}

char *fx_read(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf) abort();
  buf[n] = '\0';
  return buf;
}

void fx_options(tc_options *o, const char *root) {
  memset(o, 0, sizeof *o);
  if (root) o->root = fx_strdup(root);
  o->quiet = 1;
}

static void free_list(char **list, size_t n) {
  for (size_t i = 0; i < n; i++) free(list[i]);
  free(list);
}

void fx_options_free(tc_options *o) {
  free(o->root);
  free(o->config);
  free(o->baseline);
  free(o->output);
  free_list(o->rules_files, o->n_rules_files);
  free_list(o->enable_rules, o->n_enable_rules);
  free_list(o->disable_rules, o->n_disable_rules);
  free_list(o->unavailable, o->n_unavailable);
  free_list(o->severity_rules, o->n_severity);
  free_list(o->severity_levels, o->n_severity);
  free_list(o->exclude, o->n_exclude);
  free(o->config_loaded);
  memset(o, 0, sizeof *o);
}

static const char *TRAIN_C =
    "#include <dt/dt.h>\n"                                        /* 1 */
    "\n"                                                          /* 2 */
    "void train(void) {\n"                                        /* 3 */
    "  dt_device gpu = dt_sim(1);\n"                              /* 4 */
    "  dt_tensor *w = dt_zeros(gpu, DT_FLOAT, 1, (int64_t[]){4});\n" /* 5 */
    "  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, (int64_t[]){4});\n" /* 6 */
    "  dt_tensor *y = dt_add(w, x);\n"                            /* 7 */
    "  // tagcheck: ignore[kind-mismatch] checked by hand\n"      /* 8 */
    "  dt_tensor *z = dt_add(y, y);\n"                            /* 9 */
    "\tdt_tensor *q = dt_mul(w, x); /* tabbed */\n"               /* 10 */
    "}\n";

void fx_sample_report(tc_report *r, const char *dir, const char *outside_dir) {
  char *train = fx_write(dir, "src/train.c", TRAIN_C);
  char *odd = fx_write(dir, "src/odd name #1 100%\xff.c", "int f(void) { return dt_add(a, b); }\n");
  char *outside = fx_write(outside_dir, "lib/helper.c", "void h(void) { dt_neg(t); }\n");

  tc_report_init(r);
  tc_report_add_builtin_rules(r);
  r->n_units = 4;

  tc_loc call = {train, 7, 18, 7, 30};
  tc_diag *d = tc_report_add(r, "backend-mismatch", TC_LEVEL_ERROR, &call, "dt_add", "train",
                             "dt_add: The provided tensors are not on the same backend (sim:1 "
                             "and cpu): w is sim:1 (from dt_sim(1) at line 4), x is cpu");
  tc_loc n1 = {train, 4, 19, 0, 0}, n2 = {train, 5, 27, 0, 0}, n3 = {train, 6, 26, 0, 0};
  tc_diag_add_note(d, &n1, "tag sim:1 comes from dt_sim(1) here");
  tc_diag_add_note(d, &n2, "w created on sim:1 here");
  tc_diag_add_note(d, &n3, "x created on cpu here");

  tc_loc sup = {train, 9, 18, 9, 30};
  tc_report_add(r, "kind-mismatch", TC_LEVEL_WARNING, &sup, "dt_add", "train",
                "dt_add: [float] and [int] on one path");

  tc_loc tab = {train, 10, 17, 10, 29};
  d = tc_report_add(r, "backend-mismatch", TC_LEVEL_WARNING, &tab, "dt_mul", "train",
                    "dt_mul: operands may be on different backends");
  tc_diag_add_note(d, &n2, "w created on sim:1 here");

  tc_loc oddloc = {odd, 1, 22, 1, 34};
  tc_report_add(r, "device-mismatch", TC_LEVEL_ERROR, &oddloc, "dt_add", "f",
                "dt_add: sim:0 and sim:1");

  tc_loc outloc = {outside, 1, 16, 0, 0};
  d = tc_report_add(r, "autodiff-expected", TC_LEVEL_ERROR, &outloc, "dt_neg", "h",
                    "dt_neg: Expected autodiff-wrapped float tensor, got cpu");
  tc_loc whole_file = {outside, 0, 0, 0, 0}; /* a note without a line */
  tc_diag_add_note(d, &whole_file, "t is a plain tensor of this file");

  tc_report_add_failure(r, odd, "error: unknown type name 'dt_tensor' (fatal)");
  tc_report_sort(r);
  free(train);
  free(odd);
  free(outside);
}
