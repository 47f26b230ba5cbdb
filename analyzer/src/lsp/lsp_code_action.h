/* analyzer/src/lsp/lsp_code_action.h — textDocument/codeAction: the quick fixes of the
 * diagnostics published for a document (each carries its fix-it in `data.fix`, built by
 * lsp_diagnostics.c on the unsaved text) whose range meets the requested one. */
#ifndef TC_LSP_CODE_ACTION_H
#define TC_LSP_CODE_ACTION_H

#include <cjson/cJSON.h>

/* The CodeAction[] result for params ({textDocument, range, context}) given the diagnostics
   published for the document (an array): one "quickfix" per diagnostic with a fix whose range
   intersects params.range, with the diagnostic and a WorkspaceEdit. Never NULL but out of
   memory (an empty array when nothing applies). */
cJSON *tc_lsp_code_actions(const cJSON *published, const cJSON *params);

#endif /* TC_LSP_CODE_ACTION_H */
