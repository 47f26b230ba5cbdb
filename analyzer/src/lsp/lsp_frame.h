/* analyzer/src/lsp/lsp_frame.h — LSP base protocol framing: messages are a header block
 * ("Content-Length: N\r\n", optionally "Content-Type: …\r\n", then "\r\n") followed by N bytes
 * of JSON. The reader buffers raw bytes from a file descriptor (so the server can poll() it with
 * a timeout for debouncing) and splits them into message bodies; bad header blocks are reported
 * once and skipped up to the next "Content-Length:". */
#ifndef TC_LSP_FRAME_H
#define TC_LSP_FRAME_H

#include <stddef.h>
#include <stdio.h>

/* Largest accepted body and header block; larger ones are reported as bad headers. */
#define TC_LSP_MAX_BODY ((size_t)64 << 20)
#define TC_LSP_MAX_HEADER ((size_t)8192)

typedef struct tc_lsp_reader {
  int fd;
  char *buf;     /* bytes read and not yet consumed: buf[0 .. len) */
  size_t len, cap;
  int resync;    /* after a bad header: skipping to the next "Content-Length:" */
  int eof;       /* the peer closed its end (or a read error) */
} tc_lsp_reader;

typedef enum tc_lsp_frame_status {
  TC_LSP_FRAME_NONE = 0, /* no complete message buffered yet */
  TC_LSP_FRAME_MESSAGE,  /* *body (NUL-terminated, heap; caller frees) holds one message */
  TC_LSP_FRAME_BAD       /* a malformed header block was skipped; err says why */
} tc_lsp_frame_status;

void tc_lsp_reader_init(tc_lsp_reader *r, int fd);
void tc_lsp_reader_free(tc_lsp_reader *r);

/* Waits up to timeout_ms (-1: forever, 0: just look) for input and reads what is available.
   Returns 1 when bytes were read, 0 on timeout, -1 at end of input or on a read error (r->eof
   is then set). Interrupted waits count as timeouts. */
int tc_lsp_reader_fill(tc_lsp_reader *r, int timeout_ms);

/* Takes the next complete message (or bad header block) out of the buffer. */
tc_lsp_frame_status tc_lsp_reader_next(tc_lsp_reader *r, char **body, size_t *body_len,
                                       char *err, size_t err_len);

/* Appends bytes to the reader's buffer as if they had been read (tests, and fill itself).
   Returns 0, or -1 when out of memory. */
int tc_lsp_reader_feed(tc_lsp_reader *r, const char *bytes, size_t n);

/* Writes one framed message (json: a NUL-terminated body) to out and flushes it. Returns 0, or
   -1 on a write error (the client went away). */
int tc_lsp_write_message(FILE *out, const char *json);

#endif /* TC_LSP_FRAME_H */
