/* tests/lsp/test_lsp_text.c — clang byte columns to LSP positions: UTF-16 code units by default
 * (2-, 3- and 4-byte UTF-8 characters, stray bytes), UTF-8 bytes when negotiated, "\n" / "\r\n" /
 * "\r" line ends, clamping, the reverse conversion used for ranged edits, token ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lsp/lsp_text.h"

static void test_utf16_units(void **state) {
  (void)state;
  assert_int_equal(tc_lsp_utf16_units("abc", 3), 3);
  assert_int_equal(tc_lsp_utf16_units("\xc3\xa9", 2), 1);         /* é */
  assert_int_equal(tc_lsp_utf16_units("\xe2\x82\xac", 3), 1);     /* € */
  assert_int_equal(tc_lsp_utf16_units("\xf0\x9f\x98\x80", 4), 2); /* 😀: a surrogate pair */
  assert_int_equal(tc_lsp_utf16_units("\xff" "a", 2), 2);         /* stray byte */
  assert_int_equal(tc_lsp_utf16_units("\xf0\x9f" "a", 3), 3);     /* truncated sequence */
}

/* Line 2 is: TAB, 😀 (4 bytes), é (2 bytes), then "dt_add(a, b);" starting at byte column 8. */
static const char k_text[] = "int x;\r\n\t\xf0\x9f\x98\x80\xc3\xa9" "dt_add(a, b);\rlast\n";

static void test_positions(void **state) {
  (void)state;
  tc_lsp_lines l;
  assert_int_equal(tc_lsp_lines_init(&l, k_text, strlen(k_text)), 0);
  assert_int_equal(l.n, 4); /* "int x;", the call line, "last", "" */
  tc_lsp_pos p = tc_lsp_lines_position(&l, 2, 8, 0);
  assert_int_equal(p.line, 1);
  assert_int_equal(p.character, 4); /* tab 1 + emoji 2 + é 1 */
  p = tc_lsp_lines_position(&l, 2, 8, 1);
  assert_int_equal(p.character, 7); /* bytes */
  p = tc_lsp_lines_position(&l, 3, 1, 0);
  assert_int_equal(p.line, 2); /* a lone "\r" ends a line too */
  assert_int_equal(p.character, 0);
  /* Past the end of a line: its end. Past the last line: the end of the text. Unknown: 0,0. */
  p = tc_lsp_lines_position(&l, 1, 200, 0);
  assert_int_equal(p.line, 0);
  assert_int_equal(p.character, 6);
  p = tc_lsp_lines_position(&l, 99, 1, 0);
  assert_int_equal(p.line, 3);
  assert_int_equal(p.character, 0);
  p = tc_lsp_lines_position(&l, 0, 0, 0);
  assert_int_equal(p.line, 0);
  assert_int_equal(p.character, 0);
  tc_lsp_lines_free(&l);
}

static void test_offsets_roundtrip(void **state) {
  (void)state;
  tc_lsp_lines l;
  assert_int_equal(tc_lsp_lines_init(&l, k_text, strlen(k_text)), 0);
  size_t call = (size_t)(strstr(k_text, "dt_add") - k_text);
  assert_int_equal(tc_lsp_lines_offset(&l, (tc_lsp_pos){1, 4}, 0), call);
  assert_int_equal(tc_lsp_lines_offset(&l, (tc_lsp_pos){1, 7}, 1), call);
  /* Inside the surrogate pair: the end of the emoji. */
  assert_int_equal(tc_lsp_lines_offset(&l, (tc_lsp_pos){1, 2}, 0), call - 2);
  assert_int_equal(tc_lsp_lines_offset(&l, (tc_lsp_pos){0, 100}, 0), 6);
  assert_int_equal(tc_lsp_lines_offset(&l, (tc_lsp_pos){50, 0}, 0), strlen(k_text));
  for (unsigned col = 1; col <= 7; col++) {
    tc_lsp_pos p = tc_lsp_lines_position(&l, 1, col, 0);
    assert_int_equal(tc_lsp_lines_offset(&l, p, 0), col - 1);
  }
  tc_lsp_lines_free(&l);
}

static void test_token_end(void **state) {
  (void)state;
  tc_lsp_lines l;
  assert_int_equal(tc_lsp_lines_init(&l, k_text, strlen(k_text)), 0);
  assert_int_equal(tc_lsp_lines_token_end(&l, 2, 8), 14);  /* just past "dt_add" */
  assert_int_equal(tc_lsp_lines_token_end(&l, 2, 14), 15); /* "(": one character */
  assert_int_equal(tc_lsp_lines_token_end(&l, 2, 99), 99); /* past the end: unchanged */
  tc_lsp_lines_free(&l);
}

static void test_empty_text(void **state) {
  (void)state;
  tc_lsp_lines l;
  assert_int_equal(tc_lsp_lines_init(&l, "", 0), 0);
  assert_int_equal(l.n, 1);
  tc_lsp_pos p = tc_lsp_lines_position(&l, 5, 5, 0);
  assert_int_equal(p.line, 0);
  assert_int_equal(p.character, 0);
  tc_lsp_lines_free(&l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_utf16_units),       cmocka_unit_test(test_positions),
      cmocka_unit_test(test_offsets_roundtrip), cmocka_unit_test(test_token_end),
      cmocka_unit_test(test_empty_text),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
