/* tests/runtime/test_backend_iface.c — the device interface from a backend author's side
 * (dt/backend.h): a test backend registered in the cuda slot (this process only) with host
 * memory, whose kernels and copies can be made to fail. Covers dt_register_backend, the
 * device-error rule with the backend's own text, probe failures as backend-unavailable with the
 * backend's reason, and ordinals beyond device_count. */
#include "rt_util.h"

#include <stdlib.h>
#include <string.h>

#include "dt/backend.h"

static int g_fail_run, g_fail_copy_in, g_fail_copy_out, g_runs;
static _Thread_local const char *tl_why = "";

static int t_probe_ok(char *why, size_t n) {
  (void)why;
  (void)n;
  return 0;
}
static int t_probe_no(char *why, size_t n) {
  strncpy(why, "no GPU in this test", n - 1);
  why[n - 1] = '\0';
  return -1;
}
static int t_count(void) { return 1; }
static void *t_alloc(int o, size_t b) {
  (void)o;
  return malloc(b ? b : 1);
}
static void t_free(int o, void *p) {
  (void)o;
  free(p);
}
static int t_copy_in(int o, void *d, const void *s, size_t b) {
  (void)o;
  if (g_fail_copy_in) {
    tl_why = "injected copy-in failure";
    return -1;
  }
  memcpy(d, s, b);
  return 0;
}
static int t_copy_out(int o, void *d, const void *s, size_t b) {
  (void)o;
  if (g_fail_copy_out) {
    tl_why = "injected copy-out failure";
    return -1;
  }
  memcpy(d, s, b);
  return 0;
}
static int t_run(int o, const dt_op_desc *op) {
  (void)o;
  g_runs++;
  if (g_fail_run || op->op != DT_OP_FILL) {
    tl_why = "injected kernel failure";
    return -1;
  }
  /* FILL is the one kernel this backend has (float only). */
  float *out = op->out;
  for (int64_t i = 0; i < op->n; i++) out[i] = op->u.scalar.value;
  return 0;
}
static const char *t_last_error(void) { return tl_why; }

static dt_backend_iface g_iface = {.api_version = DT_BACKEND_API_VERSION,
                                   .backend = DT_BACKEND_CUDA,
                                   .name = "testdev",
                                   .probe = t_probe_ok,
                                   .device_count = t_count,
                                   .alloc = t_alloc,
                                   .free = t_free,
                                   .copy_in = t_copy_in,
                                   .copy_out = t_copy_out,
                                   .copy_device = NULL,
                                   .run = t_run,
                                   .synchronize = NULL,
                                   .last_error = t_last_error};

static void test_registered_backend_runs(void **state) {
  (void)state;
  assert_int_equal(dt_register_backend(&g_iface), 0);
  assert_true(dt_backend_available(DT_BACKEND_CUDA));
  dt_tensor *t = dt_full(dt_cuda(0), 2.5f, 1, SHAPE(3));
  assert_non_null(t);
  assert_true(g_runs > 0);
  float v[3];
  rt_read_f(t, v, 3);
  assert_true(v[0] == 2.5f && v[2] == 2.5f);
  /* Through host memory both ways (the test backend has no copy_device). */
  dt_tensor *c = dt_to_device(t, dt_cpu());
  dt_tensor *back = dt_to_device(c, dt_cuda(0));
  dt_tensor *same = dt_to_device(back, dt_cuda(0));
  assert_non_null(same);
  rt_read_f(same, v, 3);
  assert_true(v[1] == 2.5f);
  /* One device only. */
  rt_assert_failed(dt_full(dt_cuda(1), 1.0f, 0, NULL), DT_ERR_BACKEND_UNAVAILABLE, "cuda:1",
                   "1 device", NULL);
  rt_free_all(t, c, back, same, NULL);
}

static void test_device_errors(void **state) {
  (void)state;
  assert_int_equal(dt_register_backend(&g_iface), 0);
  dt_tensor *a = dt_from_floats(dt_cuda(0), FLOATS(1, 2), 1, SHAPE(2));
  assert_non_null(a);
  /* A kernel the backend fails: device-error with its own text; no tensor left behind. */
  const int64_t live = dt__live_tensors();
  rt_assert_failed(dt_add(a, a), DT_ERR_DEVICE, "dt_add", "testdev", "cuda:0",
                   "injected kernel failure", NULL);
  assert_int_equal(dt__live_tensors(), live);
  g_fail_run = 1;
  rt_assert_failed(dt_zeros(dt_cuda(0), DT_FLOAT, 1, SHAPE(2)), DT_ERR_DEVICE, "dt_zeros", NULL);
  g_fail_run = 0;
  g_fail_copy_out = 1;
  float v[2];
  assert_int_equal(dt_read_floats(a, v, 2), DT_ERR_DEVICE);
  assert_non_null(strstr(dt_last_error(), "injected copy-out failure"));
  rt_assert_failed(dt_to_device(a, dt_cpu()), DT_ERR_DEVICE, "dt_to_device", "copy out", NULL);
  g_fail_copy_out = 0;
  g_fail_copy_in = 1;
  rt_assert_failed(dt_from_floats(dt_cuda(0), FLOATS(1), 0, NULL), DT_ERR_DEVICE, "copy in", NULL);
  dt_tensor *h = dt_from_floats(dt_cpu(), FLOATS(1, 2), 1, SHAPE(2));
  rt_assert_failed(dt_to_device(h, dt_cuda(0)), DT_ERR_DEVICE, "injected copy-in failure", NULL);
  rt_assert_failed(dt_randn(dt_cuda(0), 3, 1, SHAPE(4)), DT_ERR_DEVICE, "dt_randn", NULL);
  g_fail_copy_in = 0;
  assert_int_equal(dt__live_tensors(), live + 1);
  rt_free_all(a, h, NULL);
}

static void test_probe_failure_is_unavailable(void **state) {
  (void)state;
  assert_int_equal(dt_register_backend(&g_iface), 0);
  dt_tensor *before = dt_full(dt_cuda(0), 4.0f, 0, NULL);
  assert_non_null(before);
  dt_backend_iface no = g_iface;
  no.probe = t_probe_no;
  assert_int_equal(dt_register_backend(&no), 0);
  assert_false(dt_backend_available(DT_BACKEND_CUDA));
  rt_assert_failed(dt_zeros(dt_cuda(0), DT_FLOAT, 0, NULL), DT_ERR_BACKEND_UNAVAILABLE, "dt_zeros",
                   "no GPU in this test", NULL);
  /* Tensors made before stay usable with the interface they were made with. */
  float v;
  rt_read_f(before, &v, 1);
  assert_true(v == 4.0f);
  dt_free(before);
  assert_int_equal(dt_register_backend(&g_iface), 0);
  assert_true(dt_backend_available(DT_BACKEND_CUDA));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registered_backend_runs),
      cmocka_unit_test(test_device_errors),
      cmocka_unit_test(test_probe_failure_is_unavailable),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
