/* tests/lsp/lsp_client.c — the test LSP client (see lsp_client.h): process spawning on pipes,
 * framing written from the specification independently of the server's reader, waits with
 * poll() timeouts. */
#include "lsp_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double lsp_client_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

int lsp_client_spawn(lsp_client *c, const char *const *argv, const char *cwd, const char *stderr_path) {
  memset(c, 0, sizeof *c);
  int in[2], out[2];
  if (pipe(in) != 0) return -1;
  if (pipe(out) != 0) {
    close(in[0]);
    close(in[1]);
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    if (stderr_path) {
      int e = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (e >= 0) dup2(e, 2);
    }
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    if (cwd && chdir(cwd) != 0) _exit(126);
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  c->pid = pid;
  c->to_server = in[1];
  c->from_server = out[0];
  c->seen = cJSON_CreateArray();
  signal(SIGPIPE, SIG_IGN);
  return 0;
}

int lsp_client_send_raw(lsp_client *c, const char *bytes, size_t n) {
  while (n > 0) {
    ssize_t w = write(c->to_server, bytes, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    bytes += w;
    n -= (size_t)w;
  }
  return 0;
}

static int send_body(lsp_client *c, const char *body) {
  char header[64];
  int h = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", strlen(body));
  if (lsp_client_send_raw(c, header, (size_t)h) != 0) return -1;
  return lsp_client_send_raw(c, body, strlen(body));
}

int lsp_client_sendf(lsp_client *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *body = NULL;
  int n = vasprintf(&body, fmt, ap);
  va_end(ap);
  if (n < 0) return -1;
  int rc = send_body(c, body);
  free(body);
  return rc;
}

int lsp_client_notify(lsp_client *c, const char *method, cJSON *params) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  cJSON_AddStringToObject(m, "method", method);
  cJSON_AddItemToObject(m, "params", params);
  char *body = cJSON_PrintUnformatted(m);
  cJSON_Delete(m);
  int rc = body ? send_body(c, body) : -1;
  free(body);
  return rc;
}

/* Parses one message out of c->buf if a whole one is there: headers are lines ending in CRLF up
   to an empty line; Content-Length is required. */
static cJSON *parse_buffered(lsp_client *c) {
  const char *end = c->len ? strstr(c->buf, "\r\n\r\n") : NULL;
  if (!end) return NULL;
  size_t header_len = (size_t)(end - c->buf) + 4;
  long length = -1;
  for (const char *p = c->buf; p < end;) {
    const char *eol = strstr(p, "\r\n");
    if (strncasecmp(p, "Content-Length:", 15) == 0) length = strtol(p + 15, NULL, 10);
    p = eol + 2;
  }
  if (length < 0) {
    fprintf(stderr, "lsp_client: server sent a header block without Content-Length\n");
    abort();
  }
  if (c->len < header_len + (size_t)length) return NULL;
  cJSON *m = cJSON_ParseWithLength(c->buf + header_len, (size_t)length);
  if (!m) {
    fprintf(stderr, "lsp_client: server sent invalid JSON: %.*s\n", (int)length, c->buf + header_len);
    abort();
  }
  size_t used = header_len + (size_t)length;
  memmove(c->buf, c->buf + used, c->len - used);
  c->len -= used;
  c->buf[c->len] = '\0';
  return m;
}

const cJSON *lsp_client_next(lsp_client *c, int timeout_ms) {
  double deadline = lsp_client_now_ms() + timeout_ms;
  for (;;) {
    cJSON *m = parse_buffered(c);
    if (m) {
      cJSON_AddItemToArray(c->seen, m);
      return m;
    }
    double left = deadline - lsp_client_now_ms();
    if (left <= 0) return NULL;
    struct pollfd p = {.fd = c->from_server, .events = POLLIN};
    int n = poll(&p, 1, (int)left + 1);
    if (n <= 0) continue;
    if (c->len + 65536 + 1 > c->cap) {
      c->cap = (c->len + 65536 + 1) * 2;
      c->buf = realloc(c->buf, c->cap);
    }
    ssize_t got = read(c->from_server, c->buf + c->len, 65536);
    if (got <= 0) return NULL;
    c->len += (size_t)got;
    c->buf[c->len] = '\0';
  }
}

static int is_method(const cJSON *m, const char *method, const char *uri) {
  const cJSON *mm = cJSON_GetObjectItem(m, "method");
  if (!cJSON_IsString(mm) || strcmp(mm->valuestring, method) != 0) return 0;
  if (!uri) return 1;
  const cJSON *u = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "uri");
  return cJSON_IsString(u) && strcmp(u->valuestring, uri) == 0;
}

const cJSON *lsp_client_response(lsp_client *c, int id, int timeout_ms) {
  double deadline = lsp_client_now_ms() + timeout_ms;
  for (;;) {
    double left = deadline - lsp_client_now_ms();
    const cJSON *m = lsp_client_next(c, left > 0 ? (int)left : 0);
    if (!m) return NULL;
    const cJSON *mid = cJSON_GetObjectItem(m, "id");
    if (!cJSON_GetObjectItem(m, "method") && cJSON_IsNumber(mid) && mid->valueint == id) return m;
  }
}

const cJSON *lsp_client_notification(lsp_client *c, const char *method, const char *uri, int timeout_ms) {
  double deadline = lsp_client_now_ms() + timeout_ms;
  for (;;) {
    double left = deadline - lsp_client_now_ms();
    const cJSON *m = lsp_client_next(c, left > 0 ? (int)left : 0);
    if (!m) return NULL;
    if (is_method(m, method, uri)) return m;
  }
}

static int matches_take(const cJSON *m, const char *method, const char *uri, int version) {
  if (cJSON_GetObjectItem(m, "_taken") || !is_method(m, method, uri)) return 0;
  if (version < 0) return 1;
  const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "params"), "version");
  return cJSON_IsNumber(v) && v->valueint == version;
}

const cJSON *lsp_client_take(lsp_client *c, const char *method, const char *uri, int version,
                             int timeout_ms) {
  cJSON *m;
  cJSON_ArrayForEach(m, c->seen) {
    if (matches_take(m, method, uri, version)) {
      cJSON_AddTrueToObject(m, "_taken");
      return m;
    }
  }
  double deadline = lsp_client_now_ms() + timeout_ms;
  for (;;) {
    double left = deadline - lsp_client_now_ms();
    const cJSON *n = lsp_client_next(c, left > 0 ? (int)left : 0);
    if (!n) return NULL;
    if (matches_take(n, method, uri, version)) {
      cJSON_AddTrueToObject((cJSON *)n, "_taken");
      return n;
    }
  }
}

int lsp_client_count(const lsp_client *c, const char *method, const char *uri) {
  int n = 0;
  const cJSON *m;
  cJSON_ArrayForEach(m, c->seen) {
    n += is_method(m, method, uri);
  }
  return n;
}

int lsp_client_wait_exit(lsp_client *c, int close_input, int timeout_ms) {
  if (close_input && c->to_server >= 0) {
    close(c->to_server);
    c->to_server = -1;
  }
  double deadline = lsp_client_now_ms() + timeout_ms;
  int status;
  for (;;) {
    pid_t r = waitpid(c->pid, &status, WNOHANG);
    if (r == c->pid) break;
    if (lsp_client_now_ms() > deadline) {
      kill(c->pid, SIGKILL);
      waitpid(c->pid, &status, 0);
      c->pid = 0;
      return -1;
    }
    /* Keep reading so a server blocked on a full pipe can finish. */
    lsp_client_next(c, 10);
  }
  c->pid = 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

long lsp_client_rss_kb(const lsp_client *c) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)c->pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  fclose(f);
  return kb;
}

void lsp_client_free(lsp_client *c) {
  if (c->pid > 0) {
    kill(c->pid, SIGKILL);
    waitpid(c->pid, NULL, 0);
  }
  if (c->to_server >= 0) close(c->to_server);
  if (c->from_server >= 0) close(c->from_server);
  free(c->buf);
  cJSON_Delete(c->seen);
  memset(c, 0, sizeof *c);
}

char *lsp_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s) s[n] = '\0';
  fclose(f);
  if (len) *len = s ? (size_t)n : 0;
  return s;
}

const cJSON *lsp_client_initialize(lsp_client *c, int id, int offer_utf8, int timeout_ms) {
  if (lsp_client_sendf(c,
                       "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"initialize\",\"params\":{"
                       "\"processId\":null,\"rootUri\":null,\"capabilities\":{%s}}}",
                       id, offer_utf8 ? "\"general\":{\"positionEncodings\":[\"utf-8\"]}" : "") != 0)
    return NULL;
  const cJSON *r = lsp_client_response(c, id, timeout_ms);
  if (!r || cJSON_GetObjectItem(r, "error")) return NULL;
  lsp_client_sendf(c, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  return cJSON_GetObjectItem(r, "result");
}

int lsp_client_open(lsp_client *c, const char *uri, const char *text, int version) {
  cJSON *p = cJSON_CreateObject();
  cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
  cJSON_AddStringToObject(td, "uri", uri);
  cJSON_AddStringToObject(td, "languageId", "c");
  cJSON_AddNumberToObject(td, "version", version);
  cJSON_AddStringToObject(td, "text", text);
  return lsp_client_notify(c, "textDocument/didOpen", p);
}

int lsp_client_shutdown(lsp_client *c, int id, int timeout_ms) {
  lsp_client_sendf(c, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"shutdown\"}", id);
  if (!lsp_client_response(c, id, timeout_ms)) return -1;
  lsp_client_sendf(c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  return lsp_client_wait_exit(c, 0, timeout_ms);
}
