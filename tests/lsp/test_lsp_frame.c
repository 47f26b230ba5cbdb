/* tests/lsp/test_lsp_frame.c — LSP base-protocol framing: Content-Length headers, messages split
 * or batched across reads, bad header blocks reported once and skipped to the next message,
 * poll() timeouts and end of input on a real pipe, framed writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp/lsp_frame.h"

static void feed(tc_lsp_reader *r, const char *s) { assert_int_equal(tc_lsp_reader_feed(r, s, strlen(s)), 0); }

/* Expects the next frame to be a message with exactly this body. */
static void expect_body(tc_lsp_reader *r, const char *want) {
  char *body;
  size_t len;
  char err[256];
  assert_int_equal(tc_lsp_reader_next(r, &body, &len, err, sizeof err), TC_LSP_FRAME_MESSAGE);
  assert_int_equal(len, strlen(want));
  assert_string_equal(body, want);
  free(body);
}

static void expect_status(tc_lsp_reader *r, tc_lsp_frame_status want, const char *err_part) {
  char *body;
  size_t len;
  char err[256];
  assert_int_equal(tc_lsp_reader_next(r, &body, &len, err, sizeof err), want);
  assert_null(body);
  if (err_part) assert_non_null(strstr(err, err_part));
}

static void test_one_message(void **state) {
  (void)state;
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  feed(&r, "Content-Length: 2\r\n\r\n{}");
  expect_body(&r, "{}");
  expect_status(&r, TC_LSP_FRAME_NONE, NULL);
  tc_lsp_reader_free(&r);
}

static void test_batched_and_content_type(void **state) {
  (void)state;
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  feed(&r, "content-length:3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]"
           "Content-Length: 5\n\n\"abc\"");
  expect_body(&r, "[1]");
  expect_body(&r, "\"abc\"");
  expect_status(&r, TC_LSP_FRAME_NONE, NULL);
  tc_lsp_reader_free(&r);
}

static void test_split_byte_by_byte(void **state) {
  (void)state;
  const char *body = "{\"a\":\"\xc3\xa9t\xc3\xa9\"}";
  char msg[128];
  snprintf(msg, sizeof msg, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  size_t n = strlen(msg);
  for (size_t i = 0; i + 1 < n; i++) {
    assert_int_equal(tc_lsp_reader_feed(&r, msg + i, 1), 0);
    expect_status(&r, TC_LSP_FRAME_NONE, NULL);
  }
  assert_int_equal(tc_lsp_reader_feed(&r, msg + n - 1, 1), 0);
  expect_body(&r, body);
  tc_lsp_reader_free(&r);
}

static void test_missing_length_resyncs(void **state) {
  (void)state;
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  feed(&r, "Content-Type: x\r\n\r\n{\"lost\":1}Content-Length: 2\r\n\r\n{}");
  expect_status(&r, TC_LSP_FRAME_BAD, "without Content-Length");
  expect_body(&r, "{}");
  expect_status(&r, TC_LSP_FRAME_NONE, NULL);
  tc_lsp_reader_free(&r);
}

static void test_bad_lengths(void **state) {
  (void)state;
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  feed(&r, "Content-Length: 12abc\r\n\r\n{}");
  expect_status(&r, TC_LSP_FRAME_BAD, "not a number");
  expect_status(&r, TC_LSP_FRAME_NONE, NULL); /* skipping: one report per bad block */
  feed(&r, "Content-Length: 99999999999999999999\r\n\r\n");
  expect_status(&r, TC_LSP_FRAME_BAD, "limit");
  feed(&r, "Content-Length:\r\n\r\n");
  expect_status(&r, TC_LSP_FRAME_BAD, "empty Content-Length");
  feed(&r, "Content-Length: 4\r\n\r\nnull");
  expect_body(&r, "null");
  expect_status(&r, TC_LSP_FRAME_NONE, NULL);
  tc_lsp_reader_free(&r);
}

static void test_garbage_line_and_blank_lines(void **state) {
  (void)state;
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  feed(&r, "hello world\r\n\r\n\r\nContent-Length: 2\r\n\r\n{}\r\n\r\nContent-Length: 1\r\n\r\n1");
  expect_status(&r, TC_LSP_FRAME_BAD, "without ':'");
  expect_body(&r, "{}");
  expect_body(&r, "1");
  tc_lsp_reader_free(&r);
}

static void test_endless_header(void **state) {
  (void)state;
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, -1);
  char *junk = malloc(TC_LSP_MAX_HEADER + 100);
  memset(junk, 'x', TC_LSP_MAX_HEADER + 99);
  junk[TC_LSP_MAX_HEADER + 99] = '\0';
  feed(&r, junk);
  expect_status(&r, TC_LSP_FRAME_BAD, "longer than");
  free(junk);
  feed(&r, "Content-Length: 2\r\n\r\n[]");
  expect_body(&r, "[]");
  /* The buffer does not keep growing while skipping. */
  assert_true(r.len < 64);
  tc_lsp_reader_free(&r);
}

static void test_pipe_fill(void **state) {
  (void)state;
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  tc_lsp_reader r;
  tc_lsp_reader_init(&r, fds[0]);
  assert_int_equal(tc_lsp_reader_fill(&r, 20), 0); /* nothing yet: a timeout */
  const char *msg = "Content-Length: 4\r\n\r\ntrue";
  assert_int_equal(write(fds[1], msg, strlen(msg)), (ssize_t)strlen(msg));
  assert_int_equal(tc_lsp_reader_fill(&r, 1000), 1);
  expect_body(&r, "true");
  close(fds[1]);
  assert_int_equal(tc_lsp_reader_fill(&r, 1000), -1);
  assert_true(r.eof);
  tc_lsp_reader_free(&r);
  close(fds[0]);
}

static void test_write_message(void **state) {
  (void)state;
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  assert_non_null(f);
  assert_int_equal(tc_lsp_write_message(f, "{\"x\":\"\xe2\x82\xac\"}"), 0);
  fclose(f);
  /* The length counts bytes, not characters: the euro sign is three. */
  assert_string_equal(buf, "Content-Length: 11\r\n\r\n{\"x\":\"\xe2\x82\xac\"}");
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_message),          cmocka_unit_test(test_batched_and_content_type),
      cmocka_unit_test(test_split_byte_by_byte),   cmocka_unit_test(test_missing_length_resyncs),
      cmocka_unit_test(test_bad_lengths),          cmocka_unit_test(test_garbage_line_and_blank_lines),
      cmocka_unit_test(test_endless_header),       cmocka_unit_test(test_pipe_fill),
      cmocka_unit_test(test_write_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
