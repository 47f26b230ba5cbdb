/* analyzer/src/report/uri.h — file paths as SARIF wants them: the %SRCROOT% directory
 * (--root, default the current directory), paths relative to it, and percent-encoded
 * relative or absolute file:// URIs (spaces, '%', '#', '?', non-UTF-8 bytes…). */
#ifndef TC_URI_H
#define TC_URI_H

#include "options.h"

/* The analysis root: o->root (or the current directory) made absolute and normalized, ending
   in '/'. NULL only when out of memory or the current directory is unknown. */
char *tc_root_dir(const tc_options *o);

/* path made absolute (against the current directory) with "." and ".." and doubled slashes
   removed lexically. NULL when out of memory. */
char *tc_normalize_path(const char *path);

/* The part of path below root_dir ("src/a.c"), or NULL when path is not under it. Both the
   path as given and its real path (symlinks resolved) are tried against root_dir. */
char *tc_path_below_root(const char *root_dir, const char *path);

/* Percent-encodes every byte of s but unreserved characters and '/'. */
char *tc_uri_encode_path(const char *s);

/* "file:///abs/path" for an absolute path (directories: pass one ending in '/'). */
char *tc_file_uri(const char *abs_path);

#endif /* TC_URI_H */
