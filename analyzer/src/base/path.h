/* analyzer/src/base/path.h — file paths: made absolute and normalized lexically (".", "..",
 * doubled slashes), their last part and directory, the analysis root (SARIF's %SRCROOT%) and
 * the part of a path below it. Every result is malloc'd unless said otherwise. */
#ifndef TC_BASE_PATH_H
#define TC_BASE_PATH_H

/* Normalizes p lexically in place: repeated '/' collapse, "." segments go, ".." removes the
   segment before it (never above the root of an absolute path; kept at the start of a
   relative one); "" becomes ".". */
void tc_path_normalize(char *p);
/* path made absolute against dir (NULL: the current directory) and normalized lexically. */
char *tc_path_absolute(const char *path, const char *dir);
/* The same against the current directory; NULL for NULL or when out of memory. */
char *tc_normalize_path(const char *path);
/* The last part of path (a pointer into it; path itself when it ends in '/'). */
const char *tc_path_base_name(const char *path);
/* The directory of path, absolute and normalized ("/" for a file at the root). */
char *tc_path_dir_of(const char *path);

/* The analysis root: root (NULL or "": the current directory) made absolute, symlinks
   resolved, normalized, ending in '/'. NULL only when out of memory or the current directory
   is unknown. */
char *tc_path_root_dir(const char *root);
/* The part of path below root_dir ("src/a.c"), or NULL when path is not under it. Both the
   path as given and its real path (symlinks resolved) are tried against root_dir. */
char *tc_path_below_root(const char *root_dir, const char *path);

#endif /* TC_BASE_PATH_H */
