/* tests/report/fixtures.h — helpers shared by the report-layer tests: scratch directories
 * with source files, a representative report (notes, suppressions, failures, odd paths), and
 * reading files back. */
#ifndef TC_REPORT_FIXTURES_H
#define TC_REPORT_FIXTURES_H

#include <stddef.h>

#include "options.h"
#include "report/diag.h"

/* Creates a fresh directory under $TMPDIR (or /tmp); returns its absolute path (free it). */
char *fx_mkdtemp(void);
/* Removes a directory tree made by fx_mkdtemp. */
void fx_rmtree(const char *dir);
/* Writes content to dir/name (creating subdirectories); returns the absolute path. */
char *fx_write(const char *dir, const char *name, const char *content);
/* The whole file, NUL-terminated (free it); NULL if unreadable. */
char *fx_read(const char *path);
/* A copy of s. */
char *fx_strdup(const char *s);
/* Options with every field zero and root set (a copy of root). Free with fx_options_free. */
void fx_options(tc_options *o, const char *root);
void fx_options_free(tc_options *o);

/* Source files of the sample report (in dir) and the report itself: two errors with notes,
   a warning, a suppressed finding, a finding in a file whose name has a space, '#', '%' and
   a non-UTF-8 byte, one outside dir (outside_dir), and a failed unit. */
void fx_sample_report(tc_report *r, const char *dir, const char *outside_dir);

#endif /* TC_REPORT_FIXTURES_H */
