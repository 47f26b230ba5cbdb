/* analyzer/src/lsp/lsp_project.h — per-project settings for the LSP server: a document is
 * analyzed with the command-line options merged with the configuration file that applies to it
 * (--config FILE, or the .tagcheck.json nearest above the document, as the command line finds
 * it), so the editor shows what CI reports (rules files, enabled/disabled rules, severities,
 * excluded paths, unavailable backends). One driver session per configuration, reused while
 * the file is unchanged. */
#ifndef TC_LSP_PROJECT_H
#define TC_LSP_PROJECT_H

#include <stddef.h>

#include "driver.h"
#include "options.h"

typedef struct tc_lsp_projects tc_lsp_projects;

/* cli must outlive the projects. */
tc_lsp_projects *tc_lsp_projects_new(const tc_options *cli);
void tc_lsp_projects_free(tc_lsp_projects *p);

/* The session and merged options for a document in folder dir. NULL with the reason in err
   ("FILE:LINE:COL: what is wrong" for a bad configuration or rules file). The session and
   options stay valid until tc_lsp_projects_reset or _free. */
tc_session *tc_lsp_projects_session(tc_lsp_projects *p, const char *dir, const tc_options **opts,
                                    char *err, size_t err_len);

/* Forgets every project (configuration files may have changed). */
void tc_lsp_projects_reset(tc_lsp_projects *p);

#endif /* TC_LSP_PROJECT_H */
