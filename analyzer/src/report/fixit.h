/* analyzer/src/report/fixit.h — fix-its rendered from the sources: a finding's edits
 * (diag.h tc_fix_edit: a range, a template, the source ranges it reads) become byte
 * ranges and replacement texts, which the writers show (text, JSON, SARIF, the language
 * server) and which `--fix` applies and `--export-fixes` writes as clang-tidy's YAML. */
#ifndef TC_FIXIT_H
#define TC_FIXIT_H

#include <stddef.h>
#include <stdio.h>

#include "report/diag.h"
#include "report/source.h"

/* One rendered edit: [offset, offset + length) of file (bytes) becomes text. */
typedef struct tc_fix_repl {
  const char *file;   /* the diag's string */
  const tc_loc *range;
  size_t offset, length;
  char *text;         /* heap-owned */
} tc_fix_repl;

/* Renders every edit of d against the texts in sc into *out (*n entries; the caller frees
   them with tc_fix_repls_free). Returns 0; -1 (nothing in *out) when d has no fix, or a
   range cannot be read (a file gone, a position past its end): the fix is then not offered. */
int tc_fix_render(tc_source_cache *sc, const tc_diag *d, tc_fix_repl **out, size_t *n);
void tc_fix_repls_free(tc_fix_repl *r, size_t n);

/* --fix: applies the fixes of r's findings that are not suppressed to their files, in place.
   Edits of one file that overlap an earlier one (in report order) are skipped whole, with
   their finding's other edits; each file is replaced atomically (base/file.h), keeping its
   mode and owner; a symbolic link's target is fixed, the link kept. *applied counts the findings fixed, *skipped those left out. Returns 0, or -1
   with "FILE: reason" in err. */
int tc_fix_apply(const tc_report *r, size_t *applied, size_t *skipped, char *err,
                 size_t err_len);

/* --export-fixes: clang-tidy's YAML (MainSourceFile, Diagnostics with DiagnosticName,
   DiagnosticMessage {Message, FilePath, FileOffset, Replacements}, Level), which
   clang-apply-replacements reads. Only findings with a fix and not suppressed. Returns 0, or
   -1 on a write error. */
int tc_fix_export_yaml(const tc_report *r, const char *main_source, FILE *out);

#endif /* TC_FIXIT_H */
