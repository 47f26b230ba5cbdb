/* tests/engine/test_engine_cases.c — end-to-end cases for the engine: every C file in
 * tests/engine/cases (and every directory there, its .c files linked as one program) is lowered
 * by the real front end, analyzed with rules/dt.json, and its findings compared with the inline
 * `// expect-error: RULE` / `// expect-warning: RULE` annotations (file, line, rule, level; no
 * finding unannotated). A first-comment `// tagcheck-args: --unavailable B` marks B unavailable. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "harness.h"

typedef struct tcase {
  char *path;   /* a file or a directory */
  char **files; /* .c files analyzed */
  size_t n_files;
  char **annot; /* files whose annotations count (.c and .h) */
  size_t n_annot;
} tcase;

static void push(char ***v, size_t *n, const char *s) {
  *v = realloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = strdup(s);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

static void collect_dir(tcase *c, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t len = strlen(dir) + strlen(de->d_name) + 2;
    char *p = malloc(len);
    snprintf(p, len, "%s/%s", dir, de->d_name);
    if (ends_with(de->d_name, ".c")) push(&c->files, &c->n_files, p);
    if (ends_with(de->d_name, ".c") || ends_with(de->d_name, ".h"))
      push(&c->annot, &c->n_annot, p);
    free(p);
  }
  closedir(d);
  qsort(c->files, c->n_files, sizeof *c->files, cmp_str);
}

/* Reads `tagcheck-args: --unavailable X` from the case's files. */
static size_t unavailable_of(const tcase *c, char names[4][32]) {
  size_t n = 0;
  for (size_t i = 0; i < c->n_annot; i++) {
    FILE *f = fopen(c->annot[i], "r");
    if (!f) continue;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
      const char *p = strstr(line, "tagcheck-args:");
      if (!p) continue;
      for (const char *q = strstr(p, "--unavailable"); q && n < 4;
           q = strstr(q + 1, "--unavailable")) {
        if (sscanf(q + 13, " %31[a-z0-9_]", names[n]) == 1) n++;
      }
    }
    fclose(f);
  }
  return n;
}

static void run_case(void **state) {
  const tcase *c = *state;
  char names[4][32];
  const char *un[4];
  size_t nu = unavailable_of(c, names);
  for (size_t i = 0; i < nu; i++) un[i] = names[i];
  eh_opts o;
  memset(&o, 0, sizeof o);
  o.unavailable = un;
  o.n_unavailable = nu;
  tc_report r;
  tc_report_init(&r);
  char err[1024] = "";
  int rc = eh_analyze_files((const char *const *)c->files, c->n_files, &o, &r, err, sizeof err);
  if (rc) fail_msg("%s: %s", c->path, err);
  char msg[16384];
  int bad = eh_compare((const char *const *)c->annot, c->n_annot, &r, msg, sizeof msg);
  tc_report_free(&r);
  if (bad) fail_msg("%s: %d mismatch(es)\n%s", c->path, bad, msg);
}

int main(void) {
  DIR *d = opendir(TC_ENGINE_CASES_DIR);
  if (!d) {
    fprintf(stderr, "no cases directory %s\n", TC_ENGINE_CASES_DIR);
    return 1;
  }
  char **names = NULL;
  size_t n_names = 0;
  struct dirent *de;
  while ((de = readdir(d)))
    if (de->d_name[0] != '.') push(&names, &n_names, de->d_name);
  closedir(d);
  qsort(names, n_names, sizeof *names, cmp_str);
  tcase *cases = calloc(n_names ? n_names : 1, sizeof *cases);
  struct CMUnitTest *tests = calloc(n_names ? n_names : 1, sizeof *tests);
  size_t n = 0;
  for (size_t i = 0; i < n_names; i++) {
    size_t len = strlen(TC_ENGINE_CASES_DIR) + strlen(names[i]) + 2;
    char *p = malloc(len);
    snprintf(p, len, "%s/%s", TC_ENGINE_CASES_DIR, names[i]);
    struct stat st;
    if (stat(p, &st)) {
      free(p);
      continue;
    }
    tcase *c = &cases[n];
    c->path = p;
    if (S_ISDIR(st.st_mode)) {
      collect_dir(c, p);
    } else if (ends_with(p, ".c")) {
      push(&c->files, &c->n_files, p);
      push(&c->annot, &c->n_annot, p);
    } else {
      free(c->path);
      continue;
    }
    tests[n].name = names[i];
    tests[n].test_func = run_case;
    tests[n].initial_state = c;
    n++;
  }
  if (n == 0) {
    fprintf(stderr, "no cases in %s\n", TC_ENGINE_CASES_DIR);
    return 1;
  }
  int rc = _cmocka_run_group_tests("engine_cases", tests, n, NULL, NULL);
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < cases[i].n_files; k++) free(cases[i].files[k]);
    for (size_t k = 0; k < cases[i].n_annot; k++) free(cases[i].annot[k]);
    free(cases[i].files);
    free(cases[i].annot);
    free(cases[i].path);
  }
  for (size_t i = 0; i < n_names; i++) free(names[i]);
  free(names);
  free(cases);
  free(tests);
  return rc;
}
