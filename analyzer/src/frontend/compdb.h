/* analyzer/src/frontend/compdb.h — compile commands: reading compile_commands.json (cJSON;
 * `command` or `arguments`, relative directories and files, @response files) and turning a
 * compiler command line into the argument vector libclang parses with (outputs, dependency
 * and link flags dropped, gcc-only flags filtered, paths made absolute, libclang's resource
 * directory and -D__TAGCHECK__=1 added). No libclang types here. */
#ifndef TC_COMPDB_H
#define TC_COMPDB_H

#include <stddef.h>

#include "base/path.h" /* tc_path_absolute */

typedef struct tc_compile_cmd {
  char *file;      /* absolute, lexically normalized */
  char *directory; /* absolute */
  char **argv;     /* the arguments libclang gets (the source file is not among them) */
  size_t argc;
} tc_compile_cmd;

typedef struct tc_compdb {
  char *path; /* the compile_commands.json read */
  tc_compile_cmd *cmds;
  size_t n;
  size_t n_skipped;    /* entries for sources that are not C (CUDA, assembly, …) */
  char *first_skipped; /* the first of those files, for messages */
} tc_compdb;

/* Reads DIR/compile_commands.json (or DIR itself when it is a file). Returns 0, or -1 with "FILE:LINE:COL: what is wrong" (or
   "FILE: entry N: what is wrong") in err. Exact duplicate entries are kept once; entries whose
   file is not C (or C++/Objective-C, which include C headers) by its extension are counted in
   n_skipped and left out: tagcheck analyzes C. */
int tc_compdb_load(const char *dir, tc_compdb *out, char *err, size_t err_len);
/* The same from text already in memory; db_path names it in messages, relative directories are
   relative to db_dir. */
int tc_compdb_parse(const char *text, size_t len, const char *db_path, const char *db_dir,
                    tc_compdb *out, char *err, size_t err_len);
void tc_compdb_free(tc_compdb *db);
/* The first entry for file (absolute or relative to the current directory), NULL if none;
   *count (when non-NULL) gets how many entries name that file. */
const tc_compile_cmd *tc_compdb_find(const tc_compdb *db, const char *file, size_t *count);

/* A command for FILE -- ARGS, relative to cwd (NULL: the process's): ARGS are compiler flags,
   or a whole compiler command when the first is not an option nor a source file (`cc -c FILE
   -o FILE.o`, as CMake gives a clang-tidy stand-in). Returns 0, or -1 when out of memory. */
int tc_compile_cmd_from_args(const char *file, const char *const *args, size_t n_args,
                             const char *cwd, tc_compile_cmd *out);
void tc_compile_cmd_free(tc_compile_cmd *c);
int tc_compile_cmd_copy(const tc_compile_cmd *src, tc_compile_cmd *dst);

/* Splits a shell command line the way POSIX sh does (quotes, backslashes). Returns 0 with a
   malloc'd NULL-terminated vector (tc_argv_free), or -1 on an unterminated quote. */
int tc_shell_split(const char *cmd, char ***argv, size_t *argc);
void tc_argv_free(char **argv, size_t argc);

/* Filters a compiler command line (argv[0] the compiler when has_compiler) into clang
   arguments for a unit compiled in directory; @response files are expanded. Returns 0 with a
   malloc'd vector, or -1 when out of memory. */
int tc_filter_args(const char *const *in, size_t n, int has_compiler, const char *directory,
                   char ***out, size_t *out_n);

/* Whether a source file is one tagcheck parses (C and the languages that include C headers),
   judged by its extension. */
int tc_compdb_is_c_family(const char *file);


#endif /* TC_COMPDB_H */
