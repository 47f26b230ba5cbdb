/* analyzer/src/lsp/lsp_frame.c — LSP base protocol framing (Content-Length headers) over a file
 * descriptor: buffered reads with poll() timeouts, header parsing, resynchronisation after
 * malformed header blocks, and framed writes. */
#include "lsp/lsp_frame.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char k_content_length[] = "content-length:";

void tc_lsp_reader_init(tc_lsp_reader *r, int fd) {
  memset(r, 0, sizeof *r);
  r->fd = fd;
}

void tc_lsp_reader_free(tc_lsp_reader *r) {
  free(r->buf);
  r->buf = NULL;
  r->len = r->cap = 0;
}

int tc_lsp_reader_feed(tc_lsp_reader *r, const char *bytes, size_t n) {
  if (r->len + n + 1 > r->cap) {
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < r->len + n + 1) cap *= 2;
    char *nb = realloc(r->buf, cap);
    if (!nb) return -1;
    r->buf = nb;
    r->cap = cap;
  }
  memcpy(r->buf + r->len, bytes, n);
  r->len += n;
  r->buf[r->len] = '\0';
  return 0;
}

int tc_lsp_reader_fill(tc_lsp_reader *r, int timeout_ms) {
  if (r->eof) return -1;
  struct pollfd p = {.fd = r->fd, .events = POLLIN};
  int n = poll(&p, 1, timeout_ms);
  if (n < 0) return errno == EINTR ? 0 : (r->eof = 1, -1);
  if (n == 0) return 0;
  char chunk[65536];
  ssize_t got = read(r->fd, chunk, sizeof chunk);
  if (got < 0) {
    if (errno == EINTR || errno == EAGAIN) return 0;
    r->eof = 1;
    return -1;
  }
  if (got == 0) {
    r->eof = 1;
    return -1;
  }
  if (tc_lsp_reader_feed(r, chunk, (size_t)got) != 0) {
    r->eof = 1;
    return -1;
  }
  return 1;
}

static void consume(tc_lsp_reader *r, size_t n) {
  memmove(r->buf, r->buf + n, r->len - n);
  r->len -= n;
  r->buf[r->len] = '\0';
}

/* Offset of the next "Content-Length:" (any case) in the buffer, or SIZE_MAX. */
static size_t find_content_length(const tc_lsp_reader *r) {
  size_t k = sizeof k_content_length - 1;
  for (size_t i = 0; i + k <= r->len; i++)
    if (strncasecmp(r->buf + i, k_content_length, k) == 0) return i;
  return (size_t)-1;
}

/* Skips to the next header start. Returns 1 when found, 0 when more input is needed (keeping a
   tail that may be the beginning of a split "Content-Length:"). */
static int resync(tc_lsp_reader *r) {
  size_t at = find_content_length(r);
  if (at != (size_t)-1) {
    consume(r, at);
    r->resync = 0;
    return 1;
  }
  size_t keep = sizeof k_content_length - 2;
  if (r->len > keep) consume(r, r->len - keep);
  return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t'; }

/* Parses one header line [line, end) (no line terminator). Returns 0, or -1 with err. */
static int parse_header_line(const char *line, const char *end, long long *content_length,
                             char *err, size_t err_len) {
  const char *colon = memchr(line, ':', (size_t)(end - line));
  if (!colon) {
    snprintf(err, err_len, "header line without ':' (\"%.*s\")", (int)(end - line > 60 ? 60 : end - line),
             line);
    return -1;
  }
  size_t name_len = (size_t)(colon - line);
  const char *v = colon + 1;
  while (v < end && is_space(*v)) v++;
  const char *ve = end;
  while (ve > v && is_space(ve[-1])) ve--;
  if (name_len == 14 && strncasecmp(line, "Content-Length", 14) == 0) {
    if (v == ve) {
      snprintf(err, err_len, "empty Content-Length");
      return -1;
    }
    long long n = 0;
    for (const char *p = v; p < ve; p++) {
      if (*p < '0' || *p > '9') {
        snprintf(err, err_len, "Content-Length is not a number (\"%.*s\")",
                 (int)(ve - v > 40 ? 40 : ve - v), v);
        return -1;
      }
      n = n * 10 + (*p - '0');
      if ((size_t)n > TC_LSP_MAX_BODY) {
        snprintf(err, err_len, "Content-Length over the %zu-byte limit", TC_LSP_MAX_BODY);
        return -1;
      }
    }
    *content_length = n;
  }
  /* Content-Type and any other header: accepted and ignored (bodies are always UTF-8 JSON). */
  return 0;
}

tc_lsp_frame_status tc_lsp_reader_next(tc_lsp_reader *r, char **body, size_t *body_len,
                                       char *err, size_t err_len) {
  *body = NULL;
  *body_len = 0;
  if (err_len) err[0] = '\0';
  if (r->resync && !resync(r)) return TC_LSP_FRAME_NONE;
  /* Blank lines between messages are tolerated. */
  size_t skip = 0;
  while (skip < r->len && (r->buf[skip] == '\r' || r->buf[skip] == '\n')) skip++;
  if (skip) consume(r, skip);
  if (r->len == 0) return TC_LSP_FRAME_NONE;

  long long content_length = -1;
  size_t pos = 0;
  int bad = 0, done = 0;
  while (!bad && !done) {
    char *nl = memchr(r->buf + pos, '\n', r->len - pos);
    if (!nl) break;
    const char *line = r->buf + pos;
    const char *end = nl;
    if (end > line && end[-1] == '\r') end--;
    pos = (size_t)(nl - r->buf) + 1;
    if (end == line) done = 1;
    else if (parse_header_line(line, end, &content_length, err, err_len) != 0) bad = 1;
    if (pos > TC_LSP_MAX_HEADER && !done) {
      snprintf(err, err_len, "header block longer than %zu bytes", TC_LSP_MAX_HEADER);
      bad = 1;
    }
  }
  if (!bad && !done) {
    if (r->len <= TC_LSP_MAX_HEADER) return TC_LSP_FRAME_NONE; /* header still arriving */
    snprintf(err, err_len, "header block longer than %zu bytes", TC_LSP_MAX_HEADER);
    bad = 1;
  }
  if (!bad && content_length < 0) {
    snprintf(err, err_len, "header block without Content-Length");
    bad = 1;
  }
  if (bad) {
    /* Drop the bad block (at least one byte, so resync cannot find this header again). */
    consume(r, pos > 0 ? pos : 1);
    r->resync = 1;
    return TC_LSP_FRAME_BAD;
  }
  size_t n = (size_t)content_length;
  if (r->len - pos < n) return TC_LSP_FRAME_NONE; /* body still arriving */
  char *b = malloc(n + 1);
  if (!b) {
    snprintf(err, err_len, "out of memory for a %zu-byte message", n);
    consume(r, pos + n);
    return TC_LSP_FRAME_BAD;
  }
  memcpy(b, r->buf + pos, n);
  b[n] = '\0';
  consume(r, pos + n);
  *body = b;
  *body_len = n;
  return TC_LSP_FRAME_MESSAGE;
}

int tc_lsp_write_message(FILE *out, const char *json) {
  size_t n = strlen(json);
  if (fprintf(out, "Content-Length: %zu\r\n\r\n", n) < 0) return -1;
  if (fwrite(json, 1, n, out) != n) return -1;
  return fflush(out) == 0 ? 0 : -1;
}
