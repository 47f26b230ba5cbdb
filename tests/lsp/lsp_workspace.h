/* tests/lsp/lsp_workspace.h — throw-away project folders for the editor tests: fixture sources
 * copied from tests/lsp/fixtures/ into a temporary folder, with (or without) a
 * compile_commands.json listing the .c files, and the expectations read from the fixtures'
 * `// expect-error: RULE` annotations (never hard-coded in the tests). */
#ifndef TC_TEST_LSP_WORKSPACE_H
#define TC_TEST_LSP_WORKSPACE_H

#include <stddef.h>

typedef struct lsp_workspace {
  char dir[256];
  char *files[16];
  size_t n_files;
} lsp_workspace;

/* Creates a temporary folder holding the named fixtures (NULL-terminated list); when compdb_dir
   is not NULL, writes compile_commands.json into that subfolder of it ("." for the folder
   itself, "build" like a CMake build folder) with one entry per .c fixture, compiled with
   -std=c11 and the runtime's include directory. Returns 0 or -1. */
int lsp_workspace_create(lsp_workspace *ws, const char *const *fixtures, const char *compdb_dir);
/* The same with the files taken from folder src_dir instead of tests/lsp/fixtures/. */
int lsp_workspace_create_from(lsp_workspace *ws, const char *src_dir, const char *const *fixtures,
                              const char *compdb_dir);
/* The same, the database's entries compiled with -I include_dir (ggml's headers) instead. */
int lsp_workspace_create_with(lsp_workspace *ws, const char *src_dir, const char *const *fixtures,
                              const char *compdb_dir, const char *include_dir);
/* A workspace of the one fixture `name`, compile_commands.json beside it; the fixture's
   absolute path into path. Returns 0 or -1. */
int lsp_workspace_one(lsp_workspace *ws, const char *name, char *path, size_t n);
/* The same, compiled with -I include_dir. */
int lsp_workspace_one_with(lsp_workspace *ws, const char *name, const char *include_dir,
                           char *path, size_t n);
/* Removes the workspace folder and everything in it. */
void lsp_workspace_remove(lsp_workspace *ws);
/* The absolute path of a file of the workspace, written into buf. */
const char *lsp_workspace_path(lsp_workspace *ws, const char *name, char *buf, size_t n);

/* The expectation a fixture's `// expect-error: RULE` annotation states (read by the corpus's
   annotation reader, tests/corpus/annotations.h): its 1-based line and
   the 0-based column of the last `dt_…(` call before the comment, in bytes and in UTF-16 code
   units. Returns 0, or -1 when the file has no annotation for rule. */
int lsp_fixture_expect(const char *path, const char *rule, unsigned *line, unsigned *byte_col,
                       unsigned *utf16_col);

#endif /* TC_TEST_LSP_WORKSPACE_H */
