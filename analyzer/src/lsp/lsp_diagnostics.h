/* analyzer/src/lsp/lsp_diagnostics.h — tagcheck findings as LSP Diagnostic objects: range (LSP
 * positions in the negotiated encoding, computed on the unsaved text of open documents), severity,
 * code = rule id, codeDescription.href = the rule's documentation (the
 * same link as SARIF's helpUri: TC_RULES_HELP_URI "#" rule id), source "tagcheck", message,
 * relatedInformation from the notes. Grouped by the URI of the file each finding is in. */
#ifndef TC_LSP_DIAGNOSTICS_H
#define TC_LSP_DIAGNOSTICS_H

#include <cjson/cJSON.h>

#include "lsp/lsp_docs.h"
#include "report/diag.h"

/* A JSON object mapping each file URI with findings in r to the array of its diagnostics.
   Suppressed findings are left out. Files that are open in docs get the client's URI and have
   their positions computed on the unsaved text; others are read from disk. Also adds an empty
   array for main_uri (the analyzed document) so it is always published. NULL out of memory. */
cJSON *tc_lsp_diagnostics_build(const tc_report *r, const tc_lsp_docs *docs, const char *main_uri,
                                int utf8);

/* The URI to publish a file's diagnostics under: an open document's own URI, else file://. */
char *tc_lsp_uri_for_path(const tc_lsp_docs *docs, const char *path);

#endif /* TC_LSP_DIAGNOSTICS_H */
