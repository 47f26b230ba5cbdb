/* analyzer/src/base/file.h — whole files: read into memory (every reader of the analyzer: rules,
 * configuration, compile databases, sources, baselines, cache entries), and replaced atomically
 * (temporary file in the same folder, then rename()). */
#ifndef TC_BASE_FILE_H
#define TC_BASE_FILE_H

#include <stddef.h>

/* The whole file, NUL-terminated (*len bytes before the NUL), malloc'd; NULL with errno set
   (the open's or the read's error, EISDIR for a directory, ENOMEM; with max_bytes > 0, EFBIG
   for anything but a regular file of at most max_bytes). */
char *tc_file_read(const char *path, size_t max_bytes, size_t *len);
/* tc_file_read as bytes: 0, or -1 (missing, unreadable, out of memory). */
int tc_read_file(const char *path, unsigned char **data, size_t *len);
/* Replaces path with data: writes a temporary file next to it, flushes it, renames it over
   path. A path that exists keeps its permission bits and, where the process may, its owner and
   group. On any failure the temporary file is removed and path is left as it was. Returns 0,
   or -1 with errno set. */
int tc_write_file_atomically(const char *path, const void *data, size_t len);
/* The temporary name tc_write_file_atomically uses for path ("DIR/.NAME.tagcheck-PID-N.tmp"),
   malloc'd; seq distinguishes concurrent writers of one process. */
char *tc_temp_name_for(const char *path, unsigned long seq);

#endif /* TC_BASE_FILE_H */
