/* analyzer/src/lsp/lsp_hover.c — textDocument/hover: the tag of the tensor expression under
 * the cursor as the analysis sees it at that point (backend, device ordinal, autodiff wrapper,
 * kind; where the rules track buffers, where it is allocated), joined over every path and
 * calling context that reaches it, in Markdown. A hover runs one analysis of the document's
 * program (the unsaved texts of every open document, the whole program with a compile
 * database) that observes the cursor's position (engine/observe.h). */
#ifndef TC_LSP_HOVER_H
#define TC_LSP_HOVER_H

#include <cjson/cJSON.h>

#include "engine/observe.h"
#include "lsp/lsp_analyze.h"
#include "lsp/lsp_docs.h"
#include "options.h"

/* The Hover result for params ({textDocument, position}) — a cJSON object with contents
   (MarkupContent, markdown) and range, or a cJSON null when no tensor expression the analysis
   reached is there. run: the options the analyzer was made with, whose observe field is set
   for this analysis only. utf8: positions are in bytes (else UTF-16 code units). NULL with
   the reason in err when the document cannot be analyzed. */
cJSON *tc_lsp_hover(tc_lsp_analyzer *a, tc_options *run, const tc_lsp_docs *docs,
                    const cJSON *params, int utf8, char *err, size_t err_len);

/* The Markdown of an answer (heap; NULL out of memory). */
char *tc_lsp_hover_markdown(const tc_observed *o);

#endif /* TC_LSP_HOVER_H */
