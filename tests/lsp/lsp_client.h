/* tests/lsp/lsp_client.h — a minimal LSP client for the tests and the benchmark: spawns
 * `tagcheck --lsp` on pipes, sends framed messages (or raw bytes), and reads the server's
 * messages with timeouts through its own small framing parser (deliberately independent of the
 * server's), keeping notifications it skipped so tests can count them. */
#ifndef TC_TEST_LSP_CLIENT_H
#define TC_TEST_LSP_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

typedef struct lsp_client {
  pid_t pid;
  int to_server;    /* server's stdin */
  int from_server;  /* server's stdout */
  char *buf;        /* received bytes not yet parsed */
  size_t len, cap;
  cJSON *seen;      /* array of every message received, in order */
} lsp_client;

/* Starts argv[0] with argv (NULL-terminated) in directory cwd (NULL: the current one); the
   server's stderr goes to stderr_path (NULL: inherited). Returns 0 or -1. */
int lsp_client_spawn(lsp_client *c, const char *const *argv, const char *cwd, const char *stderr_path);

int lsp_client_send_raw(lsp_client *c, const char *bytes, size_t n);
/* Frames and sends one JSON body built with printf-style formatting. */
int lsp_client_sendf(lsp_client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sends {"jsonrpc":"2.0","method":M,"params":P} with P a cJSON tree (taken over). */
int lsp_client_notify(lsp_client *c, const char *method, cJSON *params);

/* The next message, waiting up to timeout_ms; NULL on timeout or end of output. The message
   is also appended to c->seen (which owns it). */
const cJSON *lsp_client_next(lsp_client *c, int timeout_ms);
/* Waits for a response with this numeric id. */
const cJSON *lsp_client_response(lsp_client *c, int id, int timeout_ms);
/* Waits for a notification with this method (and, when uri is not NULL, params.uri == uri). */
const cJSON *lsp_client_notification(lsp_client *c, const char *method, const char *uri, int timeout_ms);
/* The first notification with this method (params.uri == uri unless uri is NULL, and
   params.version == version unless version < 0) not taken before: from the messages already
   seen, else waiting for it. It is marked taken. NULL on timeout. */
const cJSON *lsp_client_take(lsp_client *c, const char *method, const char *uri, int version,
                             int timeout_ms);
/* How many messages of c->seen are notifications with this method (and uri when not NULL). */
int lsp_client_count(const lsp_client *c, const char *method, const char *uri);

/* The usual opening and closing of a session: initialize (id; offering UTF-8 positions or
   not) then initialized, returning initialize's result (NULL: no answer or an error);
   textDocument/didOpen of a C document; shutdown (id) then exit, returning the exit status
   (-1: no answer in time). */
const cJSON *lsp_client_initialize(lsp_client *c, int id, int offer_utf8, int timeout_ms);
int lsp_client_open(lsp_client *c, const char *uri, const char *text, int version);
int lsp_client_shutdown(lsp_client *c, int id, int timeout_ms);

/* Closes the server's stdin (end of input) and/or waits for it to exit; returns its exit
   status, or -1 on timeout (the server is then killed) or when it died of a signal. */
int lsp_client_wait_exit(lsp_client *c, int close_input, int timeout_ms);
/* The server's resident set size in KiB (from /proc), or -1. */
long lsp_client_rss_kb(const lsp_client *c);
void lsp_client_free(lsp_client *c);

/* Milliseconds on a monotonic clock. */
double lsp_client_now_ms(void);

/* A file's whole content (heap, NUL-terminated), or NULL. */
char *lsp_read_file(const char *path, size_t *len);

#endif /* TC_TEST_LSP_CLIENT_H */
