/* tests/backends/test_sim_guard.c — sim's device memory is not host memory: a forked child
 * that dereferences the device pointer behind a sim tensor dies (the arena is PROT_NONE outside
 * copies and kernel launches), whatever the tensor went through before (creation, a kernel,
 * a read-back), on both ordinals; the parent, meanwhile, keeps using the same tensors. The
 * device pointer is taken from the runtime's internals (internal.h), as a stray host pointer
 * would be. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bk_util.h"
#include "internal.h"

#define SURVIVED 42

typedef enum { READ, WRITE } access_kind;

/* Forks a child that touches p; asserts the child died of the access. */
static void expect_fault(const void *p, access_kind how, const char *what) {
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    if (how == READ) {
      volatile const unsigned char *q = p;
      unsigned char v = *q;
      (void)v;
    } else {
      *(volatile unsigned char *)p = 1;
    }
    _exit(SURVIVED);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (WIFEXITED(status) && WEXITSTATUS(status) == SURVIVED)
    fail_msg("%s: the host access to device memory did not fault", what);
  /* SIGSEGV normally; under AddressSanitizer its SEGV handler reports and exits non-zero */
  if (WIFSIGNALED(status)) {
    if (WTERMSIG(status) != SIGSEGV && WTERMSIG(status) != SIGBUS)
      fail_msg("%s: the child died of signal %d", what, WTERMSIG(status));
  } else {
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  }
}

static const void *device_ptr(const dt_tensor *t) { return dt__resolve_fast(t)->storage->data; }

static void test_fresh_tensor(void **state) {
  (void)state;
  const int64_t shape[1] = {1000};
  for (int ord = 0; ord < 2; ++ord) {
    dt_tensor *t = dt_full(dt_sim(ord), 3.0f, 1, shape);
    assert_non_null(t);
    expect_fault(device_ptr(t), READ, "read of a new tensor");
    expect_fault(device_ptr(t), WRITE, "write to a new tensor");
    float v[1000];
    assert_int_equal(dt_read_floats(t, v, 1000), 0); /* the parent still reads it */
    assert_float_equal(v[999], 3.0f, 0);
    dt_free(t);
  }
}

static void test_after_kernel_and_reads(void **state) {
  (void)state;
  const int64_t shape[2] = {64, 64};
  dt_tensor *a = dt_randn(dt_sim(0), 1, 2, shape), *b = dt_randn(dt_sim(0), 2, 2, shape);
  dt_tensor *c = dt_matmul(a, b);
  assert_non_null(c);
  expect_fault(device_ptr(c), READ, "read after a kernel launch");
  expect_fault(device_ptr(a), WRITE, "write to a kernel's input");
  float v[64 * 64];
  assert_int_equal(dt_read_floats(c, v, 64 * 64), 0);
  expect_fault(device_ptr(c), READ, "read after a read-back");
  dt_tensor *moved = dt_to_device(c, dt_sim(1));
  assert_non_null(moved);
  expect_fault(device_ptr(moved), READ, "read of a tensor moved to sim:1");
  float w[64 * 64];
  assert_int_equal(dt_read_floats(moved, w, 64 * 64), 0);
  for (int i = 0; i < 64 * 64; ++i) assert_float_equal(v[i], w[i], 0);
  bk_free_all(a, b, c, moved, NULL);
}

static void test_cpu_memory_is_host_memory(void **state) {
  (void)state;
  /* the control: a cpu tensor's storage is ordinary host memory the child may read */
  const int64_t shape[1] = {16};
  dt_tensor *t = dt_full(dt_cpu(), 1.0f, 1, shape);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    volatile const float *q = device_ptr(t);
    _exit(q[15] == 1.0f ? SURVIVED : 1);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == SURVIVED);
  dt_free(t);
}

int main(void) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fresh_tensor),
      cmocka_unit_test(test_after_kernel_and_reads),
      cmocka_unit_test(test_cpu_memory_is_host_memory),
  };
  return cmocka_run_group_tests_name("sim host-access guard", tests, NULL, NULL);
}
