/* tests/runtime/test_abort.c — the error modes across processes: abort by default (SIGABRT,
 * with "file:line: op: message [rule-id]" on stderr), DT_ON_ERROR=return and =abort, and
 * dt_set_error_mode overriding the environment. Runs rt_error_child per scenario. */
#include "rt_util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct outcome {
  int signaled, sig, code;
  int line;
  char out[2048], err[4096];
} outcome;

static void slurp(int fd, char *buf, size_t cap) {
  size_t used = 0;
  ssize_t n;
  while (used + 1 < cap && (n = read(fd, buf + used, cap - 1 - used)) > 0) used += (size_t)n;
  buf[used] = '\0';
  close(fd);
}

/* Runs the child with scenario and DT_ON_ERROR=env_value (NULL: unset). */
static void run_child(const char *scenario, const char *env_value, outcome *o) {
  int out[2], err[2];
  assert_int_equal(pipe(out), 0);
  assert_int_equal(pipe(err), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]), close(err[0]), close(out[1]), close(err[1]);
    if (env_value)
      setenv("DT_ON_ERROR", env_value, 1);
    else
      unsetenv("DT_ON_ERROR");
    execl(RT_ERROR_CHILD, RT_ERROR_CHILD, scenario, (char *)NULL);
    _exit(127);
  }
  close(out[1]), close(err[1]);
  /* Outputs are small: read stdout, then stderr, then reap. */
  slurp(out[0], o->out, sizeof o->out);
  slurp(err[0], o->err, sizeof o->err);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  o->signaled = WIFSIGNALED(status);
  o->sig = o->signaled ? WTERMSIG(status) : 0;
  o->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o->line = -1;
  const char *l = strstr(o->out, "LINE ");
  if (l) o->line = atoi(l + 5);
}

static void assert_aborted_with(const outcome *o, const char *fragment) {
  if (!o->signaled) fprintf(stderr, "child did not abort: out=%s err=%s\n", o->out, o->err);
  assert_true(o->signaled);
  assert_int_equal(o->sig, SIGABRT);
  assert_null(strstr(o->out, "SURVIVED"));
  assert_non_null(strstr(o->err, fragment));
}

static void test_abort_by_default(void **state) {
  (void)state;
  outcome o;
  run_child("default", NULL, &o);
  char want[256];
  snprintf(want, sizeof want,
           "rt_error_child.c:%d: dt_add: The provided tensors are not on the same backend (cpu and "
           "sim:0) [backend-mismatch]\n",
           o.line);
  assert_true(o.line > 0);
  assert_aborted_with(&o, want);
}

static void test_env_return(void **state) {
  (void)state;
  outcome o;
  run_child("default", "return", &o);
  assert_false(o.signaled);
  assert_int_equal(o.code, 0);
  char want[64];
  snprintf(want, sizeof want, "SURVIVED %d NULL", (int)DT_ERR_BACKEND_MISMATCH);
  assert_non_null(strstr(o.out, want));
  assert_string_equal(o.err, ""); /* return mode prints nothing */
}

static void test_env_return_any_case(void **state) {
  (void)state;
  outcome o;
  run_child("default", "RETURN", &o);
  assert_false(o.signaled);
  assert_non_null(strstr(o.out, "SURVIVED"));
}

static void test_env_abort_and_unknown(void **state) {
  (void)state;
  outcome o;
  run_child("default", "abort", &o);
  assert_aborted_with(&o, "[backend-mismatch]");
  run_child("default", "something-else", &o);
  assert_aborted_with(&o, "[backend-mismatch]");
}

static void test_set_mode_overrides_env(void **state) {
  (void)state;
  outcome o;
  run_child("set-return", NULL, &o);
  assert_false(o.signaled);
  assert_int_equal(o.code, 0);
  run_child("set-abort", "return", &o);
  assert_aborted_with(&o, "dt_add");
}

static void test_autodiff_message(void **state) {
  (void)state;
  outcome o;
  run_child("autodiff", NULL, &o);
  char want[256];
  snprintf(want, sizeof want,
           "rt_error_child.c:%d: dt_add: Autodiff float tensor is on the wrong backend (expected "
           "cpu, got sim:0) [autodiff-inner-backend]",
           o.line);
  assert_aborted_with(&o, want);
}

static void test_plain_function_message(void **state) {
  (void)state;
  outcome o;
  run_child("plain", NULL, &o);
  /* Without a call site the line starts with the operation. */
  assert_aborted_with(&o, "dt_add: The provided tensors are not on the same backend");
  assert_int_equal(strncmp(o.err, "dt_add: ", 8), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_abort_by_default),      cmocka_unit_test(test_env_return),
      cmocka_unit_test(test_env_return_any_case),
      cmocka_unit_test(test_env_abort_and_unknown), cmocka_unit_test(test_set_mode_overrides_env),
      cmocka_unit_test(test_autodiff_message),      cmocka_unit_test(test_plain_function_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
