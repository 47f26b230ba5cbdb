/* analyzer/src/base/uri.h — file paths as SARIF and LSP want them: percent-encoded relative
 * or absolute file:// URIs (spaces, '%', '#', '?', non-UTF-8 bytes…). Paths: base/path.h. */
#ifndef TC_URI_H
#define TC_URI_H

/* Percent-encodes every byte of s but unreserved characters and '/'. */
char *tc_uri_encode_path(const char *s);

/* "file:///abs/path" for an absolute path (directories: pass one ending in '/'). */
char *tc_file_uri(const char *abs_path);

#endif /* TC_URI_H */
