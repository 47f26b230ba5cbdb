/* analyzer/src/lsp/lsp_uri.h — the local path of a file:// URI a client sends (percent-decoded).
 * The other direction, path to URI, is the shared tc_file_uri (base/uri.h). */
#ifndef TC_LSP_URI_H
#define TC_LSP_URI_H

/* "file:///a%20b/c.c" -> "/a b/c.c" (heap). NULL for other schemes, remote hosts, relative or
   malformed URIs and embedded NULs. */
char *tc_lsp_uri_to_path(const char *uri);

#endif /* TC_LSP_URI_H */
