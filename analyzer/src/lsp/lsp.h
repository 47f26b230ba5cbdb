/* analyzer/src/lsp/lsp.h — `tagcheck --lsp`: a Language Server Protocol server (JSON-RPC over
 * Content-Length framed messages) that publishes tagcheck's findings as diagnostics for each
 * opened, changed or saved C document. main.c calls tc_lsp_serve when --lsp is given. */
#ifndef TC_LSP_H
#define TC_LSP_H

#include <stdio.h>

#include "options.h"

/* Serves LSP on in/out until the client sends `exit` (or in reaches end of file). in must have a
   file descriptor (it is polled, for debouncing). opts supplies -p DIR (compile database),
   --rules, --unavailable and the rule settings; the server only reads them. Returns the process
   exit status: 0 when the session ends after a `shutdown` request, 1 otherwise (exit without
   shutdown, end of input without shutdown, an input without a descriptor). Rules that cannot be
   loaded do not stop the server: it answers the protocol and shows the error to the user once.
   Writes only protocol messages to out; start-up errors go to stderr. */
int tc_lsp_serve(const tc_options *opts, FILE *in, FILE *out);

#endif /* TC_LSP_H */
