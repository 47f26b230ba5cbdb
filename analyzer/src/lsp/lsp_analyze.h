/* analyzer/src/lsp/lsp_analyze.h — analysis of one open document for the LSP server, in a
 * long-lived process, on top of the driver's editor session (driver.h): finds the document's
 * compile command (-p DIR, or compile_commands.json in the folders above it and in their build/
 * subfolders, like clangd; a header it does not list is analyzed through the whole programs
 * of the units that include it; another file it does not list with the flags of the nearest
 * file it lists; fallback flags when there is none), analyzes the unit with the unsaved text
 * of every open document under its project's settings (lsp_project.h), and re-reads
 * suppression comments from that unsaved text. State (project sessions, loaded compile
 * databases) lives in the analyzer object. */
#ifndef TC_LSP_ANALYZE_H
#define TC_LSP_ANALYZE_H

#include <stddef.h>

#include "frontend/parse.h"
#include "options.h"
#include "report/diag.h"

typedef struct tc_lsp_analyzer tc_lsp_analyzer;

typedef struct tc_lsp_result {
  tc_report report;     /* findings of the document's program — every unit of its component of
                           the database, or the document's unit alone without one —
                           (suppressions and rule settings applied) */
  char **program_files; /* the units analyzed (heap) */
  size_t n_program_files;
  int fallback;         /* no compile command was found: fallback flags were used */
  char *fallback_reason;/* why (heap), when fallback */
  char *command_source; /* the compile_commands.json used; with fallback, where the flags came
                           from: "fallback flags: -std=c11 …" or "the flags of FILE" (heap) */
} tc_lsp_result;

/* Checks that the settings the command line would use (configuration file, rules) load. NULL
   with a message in err when they cannot. opts must outlive the analyzer. */
tc_lsp_analyzer *tc_lsp_analyzer_new(const tc_options *opts, char *err, size_t err_len);
void tc_lsp_analyzer_free(tc_lsp_analyzer *a);

/* Analyzes the translation unit of path (absolute). unsaved lists the open documents' texts
   (path's own among them). Returns 0 with res filled (tc_lsp_result_free), or -1 with a reason
   in err (no AST at all, or out of memory). */
int tc_lsp_analyze(tc_lsp_analyzer *a, const char *path, const tc_unsaved_file *unsaved,
                   size_t n_unsaved, tc_lsp_result *res, char *err, size_t err_len);
void tc_lsp_result_free(tc_lsp_result *res);

/* Forgets loaded compile databases and project settings (after the client reports changed
   files). */
void tc_lsp_analyzer_reset(tc_lsp_analyzer *a);

/* The compile_commands.json that applies to path: DIR/compile_commands.json for -p DIR, else
   the first of FOLDER/compile_commands.json and FOLDER/build/compile_commands.json that exists,
   for FOLDER = path's folder and each folder above it. Returns its folder (heap), or NULL. */
char *tc_lsp_find_compdb_dir(const char *compdb_dir_option, const char *path);

#endif /* TC_LSP_ANALYZE_H */
