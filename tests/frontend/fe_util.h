/* tests/frontend/fe_util.h — helpers for the front-end tests: write C sources into a fresh
 * temporary directory, parse and lower them with the real front end, and look things up in the
 * resulting IR (functions, calls, assignments, variables) by meaning rather than by position. */
#ifndef FE_UTIL_H
#define FE_UTIL_H

#include <stddef.h>

#include "frontend/compdb.h"
#include "frontend/parse.h"
#include "ir/ir.h"

typedef struct fe_unit {
  tc_program *prog;
  char *failure;
  char dir[512];
  char path[1024];
} fe_unit;

/* Makes a fresh temporary directory (removed by fe_rmdir). */
void fe_tmpdir(char *out, size_t len);
void fe_rmdir(const char *dir);
/* Writes text to dir/name (creating subdirectories); returns the full path (static per call
   site is avoided: written into out). */
void fe_write(const char *dir, const char *name, const char *text, char *out, size_t len);

/* Lowers `source` as t.c in a fresh directory with -I<runtime include> and extra args. */
int fe_lower(const char *source, fe_unit *u);
int fe_lower_args(const char *source, const char *const *args, size_t n_args, fe_unit *u);
void fe_free(fe_unit *u);

const tc_function *fe_func(const tc_program *p, const char *name);
/* The nth (0-based) call of callee in fn, searching blocks in order; NULL if none. */
const tc_insn *fe_call(const tc_program *p, const tc_function *fn, const char *callee, int nth);
int fe_count_calls(const tc_program *p, const tc_function *fn, const char *callee);
/* The nth instruction of kind writing a destination that formats as dst. */
const tc_insn *fe_write_to(const tc_program *p, const tc_function *fn, tc_insn_kind kind,
                           const char *dst, int nth);
int fe_count_kind(const tc_function *fn, tc_insn_kind kind);
/* The path formatted (tc_path_format) into a buffer owned by the caller. */
const char *fe_fmt(const tc_program *p, const tc_function *fn, const tc_path *path, char *buf,
                   size_t len);
/* The index of the nth local named name, or -1. */
int fe_local(const tc_program *p, const tc_function *fn, const char *name, int nth);
/* The block holding insn (by address), or -1. */
int fe_block_of(const tc_function *fn, const tc_insn *in);
/* Whether block `to` can be reached from block `from` (following successors). */
int fe_reaches(const tc_function *fn, uint32_t from, uint32_t to);

#endif /* FE_UTIL_H */
