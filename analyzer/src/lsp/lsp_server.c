/* analyzer/src/lsp/lsp_server.c — `tagcheck --lsp`: the message loop of the language server.
 * One thread: poll() on the input with a timeout that is the next debounce deadline, handle every
 * complete message, and analyze a document once its edits have been quiet for the debounce
 * interval (catching up with input first, so only the latest version is analyzed). Lifecycle,
 * text synchronisation (full, or ranged edits if a client sends them), publishDiagnostics for
 * the document and the other files (headers) of its translation unit; quick fixes and hover
 * (lsp_code_action.h, lsp_hover.h) answered from them. */
#include "lsp/lsp.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp/lsp_analyze.h"
#include "lsp/lsp_code_action.h"
#include "lsp/lsp_diagnostics.h"
#include "lsp/lsp_docs.h"
#include "lsp/lsp_frame.h"
#include "lsp/lsp_hover.h"
#include "lsp/lsp_rpc.h"

#ifndef TC_VERSION
#define TC_VERSION "0.0.0"
#endif

/* Quiet period after the last edit before a document is analyzed. */
#define TC_LSP_DEFAULT_DEBOUNCE_MS 200
#define TC_LSP_MAX_DEBOUNCE_MS 10000

enum { MSG_ERROR = 1, MSG_WARNING = 2, MSG_INFO = 3, MSG_LOG = 4 }; /* window/showMessage types */

typedef struct lsp_server {
  const tc_options *opts;
  tc_options run; /* the analyzer's: opts, and what a hover observes (lsp_hover.h) */
  FILE *out;
  tc_lsp_reader in;
  tc_lsp_docs docs;
  tc_lsp_analyzer *analyzer; /* NULL when the rules could not be loaded */
  char analyzer_error[512];
  int initialized;    /* initialize answered */
  int shutdown;       /* shutdown answered */
  int exiting;        /* exit received */
  int write_failed;   /* the client's end is gone */
  int utf8;           /* positions in UTF-8 bytes (negotiated), else UTF-16 code units */
  long long debounce_ms;
} lsp_server;

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void send_body(lsp_server *s, char *body) {
  if (!body) {
    fprintf(stderr, "tagcheck --lsp: out of memory building a message\n");
    return;
  }
  if (!s->write_failed && tc_lsp_write_message(s->out, body) != 0) {
    fprintf(stderr, "tagcheck --lsp: cannot write to the client; stopping\n");
    s->write_failed = 1;
  }
  free(body);
}

static void send_error(lsp_server *s, const cJSON *id, int code, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  send_body(s, tc_lsp_error_response(id, code, msg));
}

/* window/showMessage (show != 0) or window/logMessage. */
static void send_message(lsp_server *s, int show, int type, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cJSON *p = cJSON_CreateObject();
  cJSON_AddNumberToObject(p, "type", type);
  cJSON_AddStringToObject(p, "message", msg);
  send_body(s, tc_lsp_notification(show ? "window/showMessage" : "window/logMessage", p));
}

/* ---- publishing ---- */

static int contains_equal(const cJSON *array, const cJSON *item) {
  const cJSON *x;
  cJSON_ArrayForEach(x, array) {
    if (cJSON_Compare(x, item, 1)) return 1;
  }
  return 0;
}

/* Publishes for uri the union of what every open document's unit found there. */
static void publish_target(lsp_server *s, const char *uri) {
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "uri", uri);
  const tc_lsp_doc *target = tc_lsp_docs_find(&s->docs, uri);
  if (target) cJSON_AddNumberToObject(params, "version", (double)target->version);
  cJSON *all = cJSON_AddArrayToObject(params, "diagnostics");
  for (size_t i = 0; i < s->docs.n; i++) {
    const cJSON *mine = cJSON_GetObjectItemCaseSensitive(s->docs.items[i]->published, uri);
    const cJSON *d;
    cJSON_ArrayForEach(d, mine) {
      if (!contains_equal(all, d)) cJSON_AddItemToArray(all, cJSON_Duplicate(d, 1));
    }
  }
  send_body(s, tc_lsp_notification("textDocument/publishDiagnostics", params));
}

/* Publishes every target named in old or in doc's current diagnostics (so files whose
   findings went away are cleared). */
static void publish_changes(lsp_server *s, const cJSON *old, const cJSON *current) {
  const cJSON *t;
  cJSON_ArrayForEach(t, current) {
    publish_target(s, t->string);
  }
  cJSON_ArrayForEach(t, old) {
    if (!cJSON_GetObjectItemCaseSensitive(current, t->string)) publish_target(s, t->string);
  }
}

/* ---- analysis ---- */

static void analyze_doc(lsp_server *s, tc_lsp_doc *doc) {
  doc->dirty = 0;
  if (!doc->path) {
    send_message(s, 0, MSG_LOG, "tagcheck: %s is not a file: URI; not analyzed", doc->uri);
    return;
  }
  if (!s->analyzer) return; /* the start-up error was shown once */
  size_t n;
  tc_unsaved_file *unsaved = tc_lsp_docs_unsaved(&s->docs, &n);
  if (!unsaved) return;
  tc_lsp_result res;
  char err[1024];
  long long t0 = now_ms();
  int rc = tc_lsp_analyze(s->analyzer, doc->path, unsaved, n, &res, err, sizeof err);
  free(unsaved);
  if (rc != 0) {
    /* Shown once per distinct reason (a broken configuration is fixed, then broken again). */
    int seen = doc->last_error && strcmp(doc->last_error, err) == 0;
    send_message(s, !seen, MSG_ERROR, "tagcheck: %s could not be analyzed: %s", doc->path, err);
    free(doc->last_error);
    doc->last_error = strdup(err);
    return;
  }
  free(doc->last_error);
  doc->last_error = NULL;
  if (res.fallback && !doc->fallback_told) {
    doc->fallback_told = 1;
    send_message(s, 1, MSG_INFO,
                 "tagcheck: no compile command for %s (%s); analyzing it with %s",
                 doc->path, res.fallback_reason ? res.fallback_reason : "not found",
                 res.command_source ? res.command_source : "");
  }
  if (res.report.n_failures > 0)
    send_message(s, 0, MSG_LOG, "tagcheck: %s: %s (analyzed as far as its syntax tree goes)",
                 doc->path, res.report.failures[0].reason ? res.report.failures[0].reason : "");
  free(doc->program);
  doc->program = res.n_program_files ? strdup(res.program_files[0]) : NULL;
  cJSON *current = tc_lsp_diagnostics_build(&res.report, &s->docs, doc->uri, s->utf8);
  if (current) {
    /* what every other open document of the same program published is replaced by this
       analysis of the whole program (else a fixed finding would live on in its union) */
    cJSON *old = cJSON_CreateObject();
    for (size_t i = 0; old && i < s->docs.n; i++) {
      tc_lsp_doc *o = s->docs.items[i];
      int same_program = o == doc || (o->program && res.n_program_files &&
                                      strcmp(o->program, res.program_files[0]) == 0);
      for (size_t k = 0; !same_program && o->path && k < res.n_program_files; k++)
        same_program = strcmp(o->path, res.program_files[k]) == 0;
      if (!same_program) continue;
      const cJSON *t;
      cJSON_ArrayForEach(t, o->published) {
        if (!cJSON_GetObjectItemCaseSensitive(old, t->string))
          cJSON_AddItemToObject(old, t->string, cJSON_CreateArray());
      }
      cJSON_Delete(o->published);
      o->published = o == doc ? current : cJSON_Duplicate(current, 1);
    }
    publish_changes(s, old, current);
    cJSON_Delete(old);
  }
  send_message(s, 0, MSG_LOG, "tagcheck: %s v%lld: %zu finding(s) in %lld ms", doc->path,
               doc->version, res.report.n_diags, now_ms() - t0);
  tc_lsp_result_free(&res);
}

static tc_lsp_doc *next_due(const lsp_server *s) {
  tc_lsp_doc *best = NULL;
  for (size_t i = 0; i < s->docs.n; i++) {
    tc_lsp_doc *d = s->docs.items[i];
    if (d->dirty && (!best || d->due_ms < best->due_ms)) best = d;
  }
  return best;
}

static void schedule(tc_lsp_doc *doc, long long delay_ms) {
  doc->dirty = 1;
  doc->due_ms = now_ms() + delay_ms;
}

/* ---- handlers ---- */

static const char *get_string(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int array_has_string(const cJSON *a, const char *s) {
  const cJSON *x;
  cJSON_ArrayForEach(x, a) {
    if (cJSON_IsString(x) && strcmp(x->valuestring, s) == 0) return 1;
  }
  return 0;
}

static void handle_initialize(lsp_server *s, const cJSON *id, const cJSON *params) {
  const cJSON *caps = cJSON_GetObjectItemCaseSensitive(params, "capabilities");
  const cJSON *general = cJSON_GetObjectItemCaseSensitive(caps, "general");
  int lsp_utf8 = array_has_string(cJSON_GetObjectItemCaseSensitive(general, "positionEncodings"), "utf-8");
  /* clangd's pre-3.17 extension, which Neovim and others still send. */
  int clangd_utf8 = array_has_string(cJSON_GetObjectItemCaseSensitive(caps, "offsetEncoding"), "utf-8");
  s->utf8 = lsp_utf8 || clangd_utf8;
  const cJSON *init = cJSON_GetObjectItemCaseSensitive(params, "initializationOptions");
  const cJSON *debounce = cJSON_GetObjectItemCaseSensitive(init, "debounceMs");
  if (cJSON_IsNumber(debounce) && debounce->valuedouble >= 0 &&
      debounce->valuedouble <= TC_LSP_MAX_DEBOUNCE_MS)
    s->debounce_ms = (long long)debounce->valuedouble;

  cJSON *result = cJSON_CreateObject();
  cJSON *rc = cJSON_AddObjectToObject(result, "capabilities");
  cJSON_AddStringToObject(rc, "positionEncoding", s->utf8 ? "utf-8" : "utf-16");
  cJSON *sync = cJSON_AddObjectToObject(rc, "textDocumentSync");
  cJSON_AddBoolToObject(sync, "openClose", 1);
  cJSON_AddNumberToObject(sync, "change", 1); /* Full */
  cJSON *save = cJSON_AddObjectToObject(sync, "save");
  cJSON_AddBoolToObject(save, "includeText", 0);
  cJSON *actions = cJSON_AddObjectToObject(rc, "codeActionProvider"); /* fix-its as quick fixes */
  cJSON *kinds = cJSON_AddArrayToObject(actions, "codeActionKinds");
  cJSON_AddItemToArray(kinds, cJSON_CreateString("quickfix"));
  cJSON_AddBoolToObject(rc, "hoverProvider", 1); /* the tag under the cursor */
  if (clangd_utf8 && !lsp_utf8) cJSON_AddStringToObject(result, "offsetEncoding", "utf-8");
  cJSON *info = cJSON_AddObjectToObject(result, "serverInfo");
  cJSON_AddStringToObject(info, "name", "tagcheck");
  cJSON_AddStringToObject(info, "version", TC_VERSION);
  send_body(s, tc_lsp_response(id, result));
  s->initialized = 1;
}

/* The open document named by params.textDocument.uri, or NULL (logged). */
static tc_lsp_doc *doc_of(lsp_server *s, const cJSON *params, const char *method) {
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  const char *uri = get_string(td, "uri");
  tc_lsp_doc *doc = uri ? tc_lsp_docs_find(&s->docs, uri) : NULL;
  if (!doc)
    send_message(s, 0, MSG_WARNING, "tagcheck: %s for %s, which is not open; ignored", method,
                 uri ? uri : "(no textDocument.uri)");
  return doc;
}

/* Numbers from the client, converted without undefined behaviour whatever their value. */
static long long to_version(double d) {
  if (!(d > -9.0e15)) return -9000000000000000LL; /* NaN too */
  if (d > 9.0e15) return 9000000000000000LL;
  return (long long)d;
}

static unsigned to_unsigned(double d) {
  if (!(d > 0)) return 0;
  return d >= 4294967295.0 ? 4294967295u : (unsigned)d;
}

static long long version_of(const cJSON *params, long long otherwise) {
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(td, "version");
  return cJSON_IsNumber(v) ? to_version(v->valuedouble) : otherwise;
}

static void handle_did_open(lsp_server *s, const cJSON *params) {
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  const char *uri = get_string(td, "uri");
  const char *text = get_string(td, "text");
  if (!uri || !text) {
    send_message(s, 0, MSG_WARNING, "tagcheck: didOpen without textDocument.uri and .text; ignored");
    return;
  }
  tc_lsp_doc *doc = tc_lsp_docs_open(&s->docs, uri, text, strlen(text), version_of(params, 0));
  if (!doc) {
    send_message(s, 0, MSG_ERROR, "tagcheck: out of memory opening %s", uri);
    return;
  }
  schedule(doc, 0);
}

static unsigned uint_at(const cJSON *pos, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(pos, key);
  return cJSON_IsNumber(v) ? to_unsigned(v->valuedouble) : 0;
}

static void handle_did_change(lsp_server *s, const cJSON *params) {
  tc_lsp_doc *doc = doc_of(s, params, "didChange");
  if (!doc) return;
  const cJSON *changes = cJSON_GetObjectItemCaseSensitive(params, "contentChanges");
  const cJSON *c;
  int ok = 1;
  cJSON_ArrayForEach(c, changes) {
    const char *text = get_string(c, "text");
    if (!text) continue;
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(c, "range");
    if (range) {
      const cJSON *a = cJSON_GetObjectItemCaseSensitive(range, "start");
      const cJSON *b = cJSON_GetObjectItemCaseSensitive(range, "end");
      ok = tc_lsp_doc_apply_edit(doc, uint_at(a, "line"), uint_at(a, "character"),
                                 uint_at(b, "line"), uint_at(b, "character"), text, strlen(text),
                                 s->utf8) == 0 && ok;
    } else {
      ok = tc_lsp_doc_set_text(doc, text, strlen(text), doc->version) == 0 && ok;
    }
  }
  if (!ok) send_message(s, 0, MSG_ERROR, "tagcheck: out of memory applying an edit to %s", doc->uri);
  doc->version = version_of(params, doc->version + 1);
  schedule(doc, s->debounce_ms);
}

static void handle_did_save(lsp_server *s, const cJSON *params) {
  tc_lsp_doc *doc = doc_of(s, params, "didSave");
  if (!doc) return;
  const char *text = get_string(params, "text");
  if (text && tc_lsp_doc_set_text(doc, text, strlen(text), doc->version) != 0)
    send_message(s, 0, MSG_ERROR, "tagcheck: out of memory saving %s", doc->uri);
  schedule(doc, 0);
}

static void handle_did_close(lsp_server *s, const cJSON *params) {
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  const char *uri = get_string(td, "uri");
  if (!uri || !tc_lsp_docs_find(&s->docs, uri)) {
    send_message(s, 0, MSG_WARNING, "tagcheck: didClose for a document that is not open; ignored");
    return;
  }
  cJSON *old = tc_lsp_docs_close(&s->docs, uri);
  cJSON *none = cJSON_CreateObject();
  if (!cJSON_GetObjectItemCaseSensitive(old, uri)) cJSON_AddArrayToObject(none, uri);
  publish_changes(s, old, none);
  cJSON_Delete(none);
  cJSON_Delete(old);
}

/* Compile databases or headers changed on disk: forget cached databases, reanalyze all. */
static void handle_watched_files(lsp_server *s) {
  if (s->analyzer) tc_lsp_analyzer_reset(s->analyzer);
  for (size_t i = 0; i < s->docs.n; i++) schedule(s->docs.items[i], s->debounce_ms);
}

/* The quick fixes of the diagnostics published for the document (every open document's). */
static void handle_code_action(lsp_server *s, const cJSON *id, const cJSON *params) {
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  const char *uri = get_string(td, "uri");
  if (!uri) {
    send_error(s, id, TC_LSP_INVALID_PARAMS, "textDocument/codeAction needs textDocument.uri");
    return;
  }
  cJSON *all = cJSON_CreateArray();
  for (size_t i = 0; all && i < s->docs.n; i++) {
    const cJSON *mine = cJSON_GetObjectItemCaseSensitive(s->docs.items[i]->published, uri);
    const cJSON *d;
    cJSON_ArrayForEach(d, mine) {
      if (!contains_equal(all, d)) cJSON_AddItemToArray(all, cJSON_Duplicate(d, 1));
    }
  }
  cJSON *actions = all ? tc_lsp_code_actions(all, params) : NULL;
  cJSON_Delete(all);
  if (!actions) {
    send_error(s, id, TC_LSP_INTERNAL_ERROR, "out of memory");
    return;
  }
  send_body(s, tc_lsp_response(id, actions));
}

static void handle_hover(lsp_server *s, const cJSON *id, const cJSON *params) {
  char err[1024] = "";
  cJSON *hover = tc_lsp_hover(s->analyzer, &s->run, &s->docs, params, s->utf8, err, sizeof err);
  if (!hover) {
    send_error(s, id, TC_LSP_INTERNAL_ERROR, "tagcheck: %s", err);
    return;
  }
  send_body(s, tc_lsp_response(id, hover));
}

static void handle_request(lsp_server *s, const tc_lsp_msg *m) {
  if (s->shutdown) {
    send_error(s, m->id, TC_LSP_INVALID_REQUEST, "%s after shutdown", m->method);
  } else if (strcmp(m->method, "initialize") == 0) {
    if (s->initialized) send_error(s, m->id, TC_LSP_INVALID_REQUEST, "initialize sent twice");
    else handle_initialize(s, m->id, m->params);
  } else if (!s->initialized) {
    send_error(s, m->id, TC_LSP_SERVER_NOT_INITIALIZED, "%s before initialize", m->method);
  } else if (strcmp(m->method, "shutdown") == 0) {
    s->shutdown = 1;
    send_body(s, tc_lsp_response(m->id, NULL));
  } else if (strcmp(m->method, "textDocument/codeAction") == 0) {
    handle_code_action(s, m->id, m->params);
  } else if (strcmp(m->method, "textDocument/hover") == 0) {
    handle_hover(s, m->id, m->params);
  } else {
    send_error(s, m->id, TC_LSP_METHOD_NOT_FOUND, "tagcheck does not implement %s", m->method);
  }
}

static void handle_notification(lsp_server *s, const tc_lsp_msg *m) {
  const char *method = m->method;
  if (strcmp(method, "exit") == 0) {
    s->exiting = 1;
  } else if (!s->initialized || s->shutdown) {
    /* LSP: notifications before initialize (and after shutdown) are dropped. */
  } else if (strcmp(method, "initialized") == 0) {
    if (!s->analyzer)
      send_message(s, 1, MSG_ERROR, "tagcheck: %s; no diagnostics will be published",
                   s->analyzer_error);
  } else if (strcmp(method, "textDocument/didOpen") == 0) {
    handle_did_open(s, m->params);
  } else if (strcmp(method, "textDocument/didChange") == 0) {
    handle_did_change(s, m->params);
  } else if (strcmp(method, "textDocument/didSave") == 0) {
    handle_did_save(s, m->params);
  } else if (strcmp(method, "textDocument/didClose") == 0) {
    handle_did_close(s, m->params);
  } else if (strcmp(method, "workspace/didChangeWatchedFiles") == 0) {
    handle_watched_files(s);
  }
  /* $/cancelRequest (every request is answered at once), $/setTrace and any other notification:
     nothing to do. */
}

static void handle_body(lsp_server *s, const char *body, size_t len) {
  tc_lsp_msg m;
  tc_lsp_msg_parse(body, len, &m);
  switch (m.kind) {
    case TC_LSP_MSG_INVALID: send_error(s, m.id, m.error_code, "%s", m.error); break;
    case TC_LSP_MSG_REQUEST: handle_request(s, &m); break;
    case TC_LSP_MSG_NOTIFICATION: handle_notification(s, &m); break;
    case TC_LSP_MSG_RESPONSE: break; /* the server sends no requests that need an answer */
  }
  tc_lsp_msg_free(&m);
}

/* Handles every complete message buffered, until exit. */
static void drain(lsp_server *s) {
  while (!s->exiting && !s->write_failed) {
    char *body;
    size_t len;
    char err[256];
    tc_lsp_frame_status st = tc_lsp_reader_next(&s->in, &body, &len, err, sizeof err);
    if (st == TC_LSP_FRAME_NONE) return;
    if (st == TC_LSP_FRAME_BAD) {
      send_error(s, NULL, TC_LSP_INVALID_REQUEST, "Invalid message header: %s", err);
      continue;
    }
    handle_body(s, body, len);
    free(body);
  }
}

static void serve(lsp_server *s) {
  while (!s->exiting && !s->write_failed) {
    drain(s);
    if (s->exiting || s->write_failed || s->in.eof) return;
    tc_lsp_doc *due = next_due(s);
    long long now = now_ms();
    if (due && due->due_ms <= now) {
      /* Catch up with what arrived meanwhile: a newer edit postpones this analysis. */
      for (int i = 0; i < 64 && tc_lsp_reader_fill(&s->in, 0) > 0; i++) {}
      drain(s);
      if (s->exiting || s->write_failed) return;
      due = next_due(s);
      if (due && due->due_ms <= now_ms()) analyze_doc(s, due);
      continue;
    }
    long long wait = due ? due->due_ms - now : -1;
    tc_lsp_reader_fill(&s->in, wait > 60000 ? 60000 : (int)wait);
  }
}

int tc_lsp_serve(const tc_options *opts, FILE *in, FILE *out) {
  int fd = fileno(in);
  if (fd < 0) {
    fprintf(stderr, "tagcheck --lsp: the input stream has no file descriptor\n");
    return 1;
  }
  /* A client that goes away must end the loop (a write error), not kill the process. */
  struct sigaction ignore = {.sa_handler = SIG_IGN}, old_pipe;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &old_pipe);

  lsp_server s;
  memset(&s, 0, sizeof s);
  s.opts = opts;
  s.run = *opts; /* shallow: opts owns the strings */
  s.out = out;
  s.debounce_ms = TC_LSP_DEFAULT_DEBOUNCE_MS;
  tc_lsp_reader_init(&s.in, fd);
  tc_lsp_docs_init(&s.docs);
  s.analyzer = tc_lsp_analyzer_new(&s.run, s.analyzer_error, sizeof s.analyzer_error);
  if (!s.analyzer) fprintf(stderr, "tagcheck --lsp: %s\n", s.analyzer_error);

  serve(&s);

  int status = s.shutdown ? 0 : 1;
  tc_lsp_analyzer_free(s.analyzer);
  tc_lsp_docs_free(&s.docs);
  tc_lsp_reader_free(&s.in);
  sigaction(SIGPIPE, &old_pipe, NULL);
  return status;
}
