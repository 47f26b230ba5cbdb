/* tests/frontend/fe_util.c — helpers for the front-end tests (see fe_util.h): temporary
 * directories and files, lowering snippets through the real libclang front end, and IR
 * queries by name. */
#include "fe_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fe_tmpdir(char *out, size_t len) {
  const char *base = getenv("TMPDIR");
  snprintf(out, len, "%s/tc_fe_XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(out)) out[0] = '\0';
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void fe_rmdir(const char *dir) {
  if (dir && dir[0]) nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void fe_write(const char *dir, const char *name, const char *text, char *out, size_t len) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  for (char *s = path + strlen(dir) + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    mkdir(path, 0777);
    *s = '/';
  }
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  if (out) snprintf(out, len, "%s", path);
}

int fe_lower_args(const char *source, const char *const *args, size_t n_args, fe_unit *u) {
  memset(u, 0, sizeof *u);
  fe_tmpdir(u->dir, sizeof u->dir);
  if (!u->dir[0]) return -1;
  fe_write(u->dir, "t.c", source, u->path, sizeof u->path);
  const char *all[32];
  size_t n = 0;
  all[n++] = "-I" TC_TEST_RUNTIME_INCLUDE;
  for (size_t i = 0; i < n_args && n < 32; i++) all[n++] = args[i];
  tc_compile_cmd cmd;
  if (tc_compile_cmd_from_args(u->path, all, n, u->dir, &cmd) != 0) return -1;
  tc_parser *p = tc_parser_new();
  tc_parse_result r;
  int rc = tc_parse_unit(p, &cmd, NULL, 0, 0, &r);
  tc_parser_free(p);
  tc_compile_cmd_free(&cmd);
  if (rc != 0) return -1;
  u->prog = r.prog;
  u->failure = r.failure;
  r.prog = NULL;
  r.failure = NULL;
  tc_parse_result_free(&r);
  return u->prog ? 0 : -1;
}

int fe_lower(const char *source, fe_unit *u) { return fe_lower_args(source, NULL, 0, u); }

void fe_free(fe_unit *u) {
  tc_program_free(u->prog);
  free(u->failure);
  fe_rmdir(u->dir);
  memset(u, 0, sizeof *u);
}

const tc_function *fe_func(const tc_program *p, const char *name) {
  for (uint32_t ui = 0; ui < p->n_units; ui++) {
    const tc_unit *u = &p->units[ui];
    if (u->global_init && strcmp(tc_str(p, u->global_init->name), name) == 0)
      return u->global_init;
    for (uint32_t i = 0; i < u->n_functions; i++)
      if (strcmp(tc_str(p, u->functions[i].name), name) == 0) return &u->functions[i];
  }
  return NULL;
}

const tc_insn *fe_call(const tc_program *p, const tc_function *fn, const char *callee, int nth) {
  if (!fn) return NULL;
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
      const tc_insn *in = &fn->blocks[b].insns[i];
      if (in->kind == TC_I_CALL && strcmp(tc_str(p, in->callee.name), callee) == 0 && nth-- == 0)
        return in;
    }
  return NULL;
}

int fe_count_calls(const tc_program *p, const tc_function *fn, const char *callee) {
  int n = 0;
  while (fe_call(p, fn, callee, n)) n++;
  return n;
}

const char *fe_fmt(const tc_program *p, const tc_function *fn, const tc_path *path, char *buf,
                   size_t len) {
  tc_path_format(p, fn, path, buf, len);
  return buf;
}

const tc_insn *fe_write_to(const tc_program *p, const tc_function *fn, tc_insn_kind kind,
                           const char *dst, int nth) {
  char buf[512];
  if (!fn) return NULL;
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
      const tc_insn *in = &fn->blocks[b].insns[i];
      if (in->kind != kind || !in->has_dst) continue;
      if (strcmp(fe_fmt(p, fn, &in->dst, buf, sizeof buf), dst) == 0 && nth-- == 0) return in;
    }
  return NULL;
}

int fe_count_kind(const tc_function *fn, tc_insn_kind kind) {
  int n = 0;
  for (uint32_t b = 0; fn && b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) n += fn->blocks[b].insns[i].kind == kind;
  return n;
}

int fe_local(const tc_program *p, const tc_function *fn, const char *name, int nth) {
  for (uint32_t i = 0; fn && i < fn->n_locals; i++)
    if (strcmp(tc_str(p, fn->locals[i].name), name) == 0 && nth-- == 0) return (int)i;
  return -1;
}

int fe_block_of(const tc_function *fn, const tc_insn *in) {
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    if (fn->blocks[b].n_insns && in >= fn->blocks[b].insns &&
        in < fn->blocks[b].insns + fn->blocks[b].n_insns)
      return (int)b;
  return -1;
}

int fe_reaches(const tc_function *fn, uint32_t from, uint32_t to) {
  char *seen = calloc(fn->n_blocks, 1);
  uint32_t *stack = malloc(fn->n_blocks * sizeof *stack);
  uint32_t n = 0;
  int found = 0;
  stack[n++] = from;
  seen[from] = 1;
  while (n && !found) {
    uint32_t b = stack[--n];
    const tc_term *t = &fn->blocks[b].term;
    for (uint32_t s = 0; s < t->n_succ; s++) {
      uint32_t x = t->succ[s];
      if (x == to) found = 1;
      if (!seen[x]) {
        seen[x] = 1;
        stack[n++] = x;
      }
    }
  }
  free(seen);
  free(stack);
  return found;
}
