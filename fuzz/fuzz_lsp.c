/* fuzz/fuzz_lsp.c — libFuzzer harness for the LSP message reader: the bytes arrive in chunks
 * (sizes taken from the input) through the framing reader; every message body is classified by
 * the JSON-RPC parser and answered as the server would; document URIs and texts go through the
 * URI decoder and the position mapping. Never a crash, a hang, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "lsp/lsp_frame.h"
#include "lsp/lsp_rpc.h"
#include "lsp/lsp_text.h"
#include "lsp/lsp_uri.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the server does with a document: decode its URI, index its text, map a few positions
   both ways (in UTF-16 and in UTF-8 units). */
static void exercise_document(const cJSON *doc) {
  const cJSON *uri = cJSON_GetObjectItemCaseSensitive(doc, "uri");
  if (cJSON_IsString(uri)) {
    char *path = tc_lsp_uri_to_path(uri->valuestring);
    if (path != NULL && path[0] != '/') abort();
    free(path);
  }
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(doc, "text");
  if (!cJSON_IsString(text)) return;
  tc_lsp_lines lines;
  const char *s = text->valuestring;
  size_t len = strlen(s);
  if (tc_lsp_lines_init(&lines, s, len) != 0) return;
  for (unsigned line = 0; line < 4; line++)
    for (int utf8 = 0; utf8 < 2; utf8++) {
      unsigned col = line * 7 + 1;
      tc_lsp_pos p = tc_lsp_lines_position(&lines, line + 1, col, utf8);
      size_t off = tc_lsp_lines_offset(&lines, p, utf8);
      if (off > len) abort();
      (void)tc_lsp_lines_token_end(&lines, line + 1, col);
    }
  (void)tc_lsp_utf16_units(s, len);
  tc_lsp_lines_free(&lines);
}

static void handle_body(const char *body, size_t len) {
  tc_lsp_msg m;
  tc_lsp_msg_parse(body, len, &m);
  char *reply = NULL;
  switch (m.kind) {
    case TC_LSP_MSG_INVALID:
      reply = tc_lsp_error_response(m.id, m.error_code, m.error);
      break;
    case TC_LSP_MSG_REQUEST:
      if (m.method == NULL || m.id == NULL) abort();
      reply = tc_lsp_response(m.id, cJSON_CreateString(m.method));
      break;
    case TC_LSP_MSG_NOTIFICATION:
      if (m.method == NULL) abort();
      if (cJSON_IsObject(m.params))
        exercise_document(cJSON_GetObjectItemCaseSensitive(m.params, "textDocument"));
      reply = tc_lsp_notification("window/logMessage", cJSON_CreateObject());
      break;
    case TC_LSP_MSG_RESPONSE:
      break;
  }
  if (reply != NULL) {
    cJSON *sent = cJSON_Parse(reply); /* what the server sends must be JSON */
    if (sent == NULL) abort();
    cJSON_Delete(sent);
  }
  free(reply);
  tc_lsp_msg_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  /* The first byte picks the chunk size the bytes are fed in (1..256): partial headers and
     bodies split anywhere. */
  size_t chunk = (size_t)data[0] + 1;
  data++;
  size--;
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  size_t fed = 0, frames = 0;
  for (;;) {
    if (fed < size) {
      size_t n = size - fed < chunk ? size - fed : chunk;
      if (tc_lsp_reader_feed(&r, (const char *)data + fed, n) != 0) break;
      fed += n;
    }
    int progressed = 0;
    for (;;) {
      char *body = NULL;
      size_t body_len = 0;
      char err[256];
      err[0] = '\0';
      tc_lsp_frame_status st = tc_lsp_reader_next(&r, &body, &body_len, err, sizeof err);
      if (st == TC_LSP_FRAME_NONE) break;
      progressed = 1;
      if (++frames > size + 1) abort(); /* every frame consumes bytes: more is a loop */
      if (st == TC_LSP_FRAME_BAD) {
        if (err[0] == '\0') abort(); /* a skipped header block says why */
        continue;
      }
      if (body == NULL || body[body_len] != '\0') abort();
      handle_body(body, body_len);
      free(body);
    }
    if (fed >= size && !progressed) break;
  }
  tc_lsp_reader_free(&r);
  return 0;
}
