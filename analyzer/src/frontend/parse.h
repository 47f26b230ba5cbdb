/* analyzer/src/frontend/parse.h — parsing one unit with libclang and lowering it: a parser owns
 * one CXIndex (one per thread), parses a compile command (optionally with unsaved editor
 * buffers), records clang's errors as the unit's failure, lowers the AST into a fresh one-unit
 * program and lists the files the unit includes (for the cache). The rest of the analyzer
 * never sees libclang. */
#ifndef TC_PARSE_H
#define TC_PARSE_H

#include <stddef.h>

#include "frontend/compdb.h"
#include "ir/ir.h"

typedef struct tc_parser tc_parser;

typedef struct tc_unsaved_file {
  const char *path; /* absolute */
  const char *text;
  size_t len;
} tc_unsaved_file;

typedef struct tc_parse_result {
  tc_program *prog; /* one unit; NULL when libclang gave no AST at all */
  char *failure;    /* why the unit failed (clang errors, no AST), or NULL */
  char **deps;      /* want_deps: every file the unit read (the main file first), absolute */
  size_t n_deps;
  char **missing;   /* want_deps: headers looked for and not found, as spelled in #include */
  size_t n_missing;
} tc_parse_result;

/* The libclang the front end runs on, e.g. "Debian clang version 19.1.7 (libclang)". */
void tc_frontend_version(char *buf, size_t n);

tc_parser *tc_parser_new(void);
void tc_parser_free(tc_parser *p);

/* Parses and lowers cmd. Returns 0 (also for a unit with errors: see failure), or -1 when out
   of memory. */
int tc_parse_unit(tc_parser *p, const tc_compile_cmd *cmd, const tc_unsaved_file *unsaved,
                  size_t n_unsaved, int want_deps, tc_parse_result *out);
void tc_parse_result_free(tc_parse_result *r);

/* Only parses cmd and disposes of the AST (the benchmark's floor). Returns 0 when libclang
   produced an AST. */
int tc_parse_only(tc_parser *p, const tc_compile_cmd *cmd);

#endif /* TC_PARSE_H */
