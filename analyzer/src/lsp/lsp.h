/* analyzer/src/lsp/lsp.h — `tagcheck --lsp`: a Language Server Protocol server (JSON-RPC over
 * Content-Length framed messages) that publishes tagcheck's findings as diagnostics for each
 * opened, changed or saved C document. main.c calls tc_lsp_serve when --lsp is given. */
#ifndef TC_LSP_H
#define TC_LSP_H

#include <stdio.h>

#include "options.h"

/* Serves LSP on in/out until the client sends `exit` (or in reaches end of file). opts supplies
   -p DIR (compile database), --rules, --unavailable and the rule settings; the server reads
   them only. Returns the process exit status: 0 when `exit` follows a `shutdown` request, 1
   otherwise (exit without shutdown, end of input, or a fatal start-up error such as unreadable
   rules). Never writes anything but protocol messages to out; logs go to stderr. */
int tc_lsp_serve(const tc_options *opts, FILE *in, FILE *out);

#endif /* TC_LSP_H */
