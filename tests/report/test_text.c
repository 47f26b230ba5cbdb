/* tests/report/test_text.c — the clang-style text writer: header line format, the source
 * line with a caret under the column (tabs and UTF-8 kept aligned), tildes over the range,
 * notes, suppressed findings hidden unless --show-suppressed, unit failures, missing files,
 * control characters and invalid UTF-8 escaped, clang's colors with --color. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixtures.h"
#include "report/output.h"

static char *render(const tc_report *r, tc_options *o) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  o->format = TC_FORMAT_TEXT;
  assert_int_equal(tc_write_report(r, o, f), 0);
  fclose(f);
  return buf;
}

/* The line of out that follows the line starting with `header`. */
static char *line_after(const char *out, const char *header, int skip) {
  const char *p = strstr(out, header);
  assert_non_null(p);
  for (int i = 0; i <= skip; i++) {
    p = strchr(p, '\n');
    assert_non_null(p);
    p++;
  }
  const char *e = strchr(p, '\n');
  return strndup(p, e ? (size_t)(e - p) : strlen(p));
}

static void test_clang_format_and_caret(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *out_dir = fx_mkdtemp();
  tc_report r;
  fx_sample_report(&r, dir, out_dir);
  tc_options o;
  fx_options(&o, dir);
  char *out = render(&r, &o);

  char header[4096];
  snprintf(header, sizeof header,
           "%s/src/train.c:7:18: error: dt_add: The provided tensors are not on the same "
           "backend",
           dir);
  assert_non_null(strstr(out, header));
  assert_non_null(strstr(out, "[backend-mismatch]\n"));
  char *src = line_after(out, header, 0);
  char *caret = line_after(out, header, 1);
  assert_string_equal(src, "  dt_tensor *y = dt_add(w, x);");
  /* column 18 is 'd' of dt_add; the range ends before column 30 */
  assert_string_equal(caret, "                 ^~~~~~~~~~~~");
  assert_int_equal(src[17], 'd');
  free(src);
  free(caret);

  /* notes follow, in flow order, each with its own caret */
  snprintf(header, sizeof header, "%s/src/train.c:4:19: note: tag sim:1 comes from dt_sim(1) here",
           dir);
  const char *n1 = strstr(out, header);
  assert_non_null(n1);
  snprintf(header, sizeof header, "%s/src/train.c:6:26: note: x created on cpu here", dir);
  const char *n3 = strstr(out, header);
  assert_non_null(n3);
  assert_true(n1 < n3);
  caret = line_after(out, header, 1);
  assert_string_equal(caret, "                         ^");
  free(caret);

  /* a tab before the column is copied, so the caret lines up in any terminal */
  snprintf(header, sizeof header, "%s/src/train.c:10:17: warning:", dir);
  caret = line_after(out, header, 1);
  assert_true(caret[0] == '\t');
  assert_int_equal(strspn(caret + 1, " "), 15);
  assert_string_equal(caret + 16, "^~~~~~~~~~~~");
  free(caret);
  free(out);

  tc_report_free(&r);
  fx_options_free(&o);
  fx_rmtree(dir);
  fx_rmtree(out_dir);
  free(dir);
  free(out_dir);
}

/* --color: clang's colors when asked; none when told not to, nor (auto) into a file. */
static void test_colors(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *out_dir = fx_mkdtemp();
  tc_report r;
  fx_sample_report(&r, dir, out_dir);
  tc_options o;
  fx_options(&o, dir);
  o.color = TC_COLOR_ALWAYS;
  char *out = render(&r, &o);
  char header[4096];
  snprintf(header, sizeof header, "\033[1m%s/src/train.c:7:18:\033[0m \033[1;31merror:\033[0m "
           "\033[1mdt_add:", dir);
  assert_non_null(strstr(out, header));
  assert_non_null(strstr(out, "\033[1;35mwarning:\033[0m"));
  assert_non_null(strstr(out, "\033[1;30mnote:\033[0m"));
  assert_non_null(strstr(out, "\033[1;32m^~~~~~~~~~~~\033[0m\n"));
  free(out);
  o.color = TC_COLOR_NEVER;
  out = render(&r, &o);
  assert_null(strchr(out, '\033'));
  free(out);
  o.color = TC_COLOR_AUTO; /* a memory stream is no terminal */
  out = render(&r, &o);
  assert_null(strchr(out, '\033'));
  free(out);
  tc_report_free(&r);
  fx_options_free(&o);
  fx_rmtree(dir);
  fx_rmtree(out_dir);
  free(dir);
  free(out_dir);
}

/* --color auto on a terminal (a pseudo-terminal here) colors; NO_COLOR and TERM=dumb do not. */
static void test_color_auto_on_a_terminal(void **state) {
  (void)state;
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) skip(); /* no ptys here */
  int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  assert_true(slave >= 0);
  fcntl(master, F_SETFL, O_NONBLOCK);
  char *dir = fx_mkdtemp();
  char *out_dir = fx_mkdtemp();
  tc_report r;
  fx_sample_report(&r, dir, out_dir);
  tc_options o;
  fx_options(&o, dir);
  o.color = TC_COLOR_AUTO;
  o.format = TC_FORMAT_TEXT;
  const char *envs[][2] = {{"TERM", "xterm"}, {"NO_COLOR", "1"}, {"TERM", "dumb"}};
  for (int i = 0; i < 3; i++) {
    unsetenv("NO_COLOR");
    setenv("TERM", "xterm", 1);
    setenv(envs[i][0], envs[i][1], 1);
    FILE *f = fdopen(dup(slave), "w");
    assert_non_null(f);
    assert_int_equal(tc_write_report(&r, &o, f), 0);
    fclose(f);
    /* all of it: a pseudo-terminal hands the output over in pieces (4 KiB at a time), and a
       piece left unread would be read as the next run's */
    char buf[65536];
    size_t n = 0;
    for (ssize_t got; n < sizeof buf - 1 && (got = read(master, buf + n, sizeof buf - 1 - n)) > 0;)
      n += (size_t)got;
    assert_true(n > 0);
    buf[n] = '\0';
    if (i == 0)
      assert_non_null(strstr(buf, "\033[1;31merror:"));
    else
      assert_null(strchr(buf, '\033'));
  }
  unsetenv("NO_COLOR");
  close(slave);
  close(master);
  tc_report_free(&r);
  fx_options_free(&o);
  fx_rmtree(dir);
  fx_rmtree(out_dir);
  free(dir);
  free(out_dir);
}

static void test_suppressed_hidden_unless_asked(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *out_dir = fx_mkdtemp();
  tc_report r;
  fx_sample_report(&r, dir, out_dir);
  tc_apply_suppressions(&r);
  tc_options o;
  fx_options(&o, dir);
  char *out = render(&r, &o);
  assert_null(strstr(out, "[kind-mismatch]"));
  free(out);
  o.show_suppressed = 1;
  out = render(&r, &o);
  assert_non_null(strstr(out, "[kind-mismatch] (suppressed: checked by hand)"));
  free(out);
  tc_report_free(&r);
  fx_options_free(&o);
  fx_rmtree(dir);
  fx_rmtree(out_dir);
  free(dir);
  free(out_dir);
}

static void test_failures_and_missing_sources(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  tc_loc loc = {"/nonexistent/dir/x.c", 12, 3, 0, 0};
  tc_report_add(&r, "device-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "f", "dt_add: sim:0 and sim:1");
  tc_loc far = {"/nonexistent/dir/x.c", 0, 0, 0, 0};
  tc_diag_add_note(&r.diags[0], &far, "somewhere in this file");
  tc_report_add_failure(&r, "/p/broken.c", "fatal error: 'dt/dt.h' file not found");
  tc_options o;
  fx_options(&o, "/");
  char *out = render(&r, &o);
  assert_string_equal(out,
                      "/nonexistent/dir/x.c:12:3: error: dt_add: sim:0 and sim:1 [device-mismatch]\n"
                      "/nonexistent/dir/x.c: note: somewhere in this file\n"
                      "/p/broken.c: error: could not analyze this translation unit: fatal error: "
                      "'dt/dt.h' file not found\n");
  free(out);
  tc_report_free(&r);
  fx_options_free(&o);
}

static void test_empty_report_prints_nothing(void **state) {
  (void)state;
  tc_report r;
  tc_report_init(&r);
  tc_options o;
  fx_options(&o, "/");
  o.quiet = 0; /* no findings: no summary line either */
  char *out = render(&r, &o);
  assert_string_equal(out, "");
  free(out);
  tc_report_free(&r);
  fx_options_free(&o);
}

static void test_column_past_end_and_huge_message(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "u.c", "int \xc3\xa9t\xc3\xa9 = dt_add(a, b);\n");
  tc_report r;
  tc_report_init(&r);
  size_t big = 1 << 20;
  char *msg = malloc(big + 1);
  memset(msg, 'm', big);
  msg[big] = '\0';
  tc_loc loc = {src, 1, 13, 1, 25}; /* byte column of dt_add after two 2-byte characters */
  tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "", msg);
  tc_loc past = {src, 1, 400, 0, 0};
  tc_report_add(&r, "kind-mismatch", TC_LEVEL_ERROR, &past, "dt_add", "", "past the end");
  tc_options o;
  fx_options(&o, dir);
  char *out = render(&r, &o);
  assert_non_null(strstr(out, msg));
  /* UTF-8 continuation bytes take no screen column: the caret sits under 'd' */
  char *caret = line_after(out, "[backend-mismatch]", 1);
  assert_string_equal(caret, "          ^~~~~~~~~~~~");
  free(caret);
  caret = line_after(out, "past the end", 1);
  assert_int_equal(caret[strlen(caret) - 1], '^');
  free(caret);
  free(out);
  free(msg);
  free(src);
  tc_report_free(&r);
  fx_options_free(&o);
  fx_rmtree(dir);
  free(dir);
}

/* Escape sequences, a carriage return, a bidirectional override and bytes that are not UTF-8,
   in the source line, the file name, the message and a failure: none reaches the output raw;
   each is written as clang writes it, and the caret still points at the call. */
static void test_control_characters_escaped(void **state) {
  (void)state;
  char *dir = fx_mkdtemp();
  char *src = fx_write(dir, "evil\x1b]0;pwned\x07\xff.c",
                       "  /* \x1b[2J\r\xe2\x80\xae */ y = dt_add(w, x);\n");
  tc_report r;
  tc_report_init(&r);
  tc_report_add_builtin_rules(&r);
  /* the call starts at byte 22 (1-based): after 21 bytes, escaped ones among them */
  tc_loc loc = {src, 1, 22, 1, 34};
  tc_report_add(&r, "backend-mismatch", TC_LEVEL_ERROR, &loc, "dt_add", "f",
                "dt_add: tensors from \x1b[31mhere\x1b[0m\n");
  tc_report_add_failure(&r, "/x/\x1b[1Abroken.c", "error at \x9b\x01");
  tc_options o;
  fx_options(&o, dir);
  char *out = render(&r, &o);
  for (const char *p = out; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c == 0xff || c == 0x9b)
      fail_msg("raw byte 0x%02x at offset %zu of:\n%s", c, (size_t)(p - out), out);
  }
  assert_null(strstr(out, "\xe2\x80\xae")); /* U+202E reorders the rest of the line */
  assert_non_null(strstr(out, "evil<U+001B>]0;pwned<U+0007><FF>.c:1:22: error: "));
  assert_non_null(strstr(out, "tensors from <U+001B>[31mhere<U+001B>[0m<U+000A> [backend-mismatch]"));
  assert_non_null(strstr(out, "/x/<U+001B>[1Abroken.c: error: could not analyze this translation "
                              "unit: error at <9B><U+0001>\n"));
  char *line = line_after(out, ".c:1:22: error: ", 0);
  char *caret = line_after(out, ".c:1:22: error: ", 1);
  assert_string_equal(line, "  /* <U+001B>[2J<U+000D><U+202E> */ y = dt_add(w, x);");
  const char *call = strstr(line, "dt_add");
  assert_int_equal(strchr(caret, '^') - caret, call - line); /* under the call, escapes counted */
  assert_string_equal(strchr(caret, '^'), "^~~~~~~~~~~~");
  free(line);
  free(caret);
  free(out);
  tc_report_free(&r);
  fx_options_free(&o);
  free(src);
  fx_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_clang_format_and_caret),
      cmocka_unit_test(test_colors),
      cmocka_unit_test(test_color_auto_on_a_terminal),
      cmocka_unit_test(test_suppressed_hidden_unless_asked),
      cmocka_unit_test(test_failures_and_missing_sources),
      cmocka_unit_test(test_empty_report_prints_nothing),
      cmocka_unit_test(test_column_past_end_and_huge_message),
      cmocka_unit_test(test_control_characters_escaped),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
