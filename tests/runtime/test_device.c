/* tests/runtime/test_device.c — device values and the backend registry (device.c): constructors,
 * autodiff wrapping, names, equality, availability, unavailable and out-of-range devices, and
 * dt_register_backend's validation. */
#include "rt_util.h"

#include <string.h>

#include "dt/backend.h"

static void test_constructors(void **state) {
  (void)state;
  dt_device c = dt_cpu(), s = dt_sim(1), g = dt_cuda(0);
  assert_int_equal(c.backend, DT_BACKEND_CPU);
  assert_int_equal(c.ordinal, 0);
  assert_int_equal(c.autodiff, 0);
  assert_int_equal(s.backend, DT_BACKEND_SIM);
  assert_int_equal(s.ordinal, 1);
  assert_int_equal(g.backend, DT_BACKEND_CUDA);
  assert_int_equal(g.ordinal, 0);
  /* Constructors never fail, even for devices that do not exist. */
  dt_device far = dt_sim(99);
  assert_int_equal(far.ordinal, 99);
}

static void test_autodiff_wrapping(void **state) {
  (void)state;
  dt_device ad = dt_autodiff(dt_sim(1));
  assert_int_equal(dt_last_status(), DT_OK);
  assert_true(ad.autodiff);
  assert_int_equal(ad.backend, DT_BACKEND_SIM);
  assert_int_equal(ad.ordinal, 1);
  dt_device inner = dt_inner_device(ad);
  assert_false(inner.autodiff);
  assert_true(dt_device_equal(inner, dt_sim(1)));
  assert_true(dt_device_equal(dt_inner_device(dt_cpu()), dt_cpu()));

  dt_device nested = dt_autodiff(ad);
  assert_int_equal(dt_last_status(), DT_ERR_AUTODIFF_NESTED);
  assert_non_null(strstr(dt_last_error(), "autodiff<sim:1>"));
  assert_non_null(strstr(dt_last_error(), "[autodiff-nested]"));
  assert_non_null(strstr(dt_last_error(), "dt_autodiff"));
  assert_true(nested.autodiff); /* still a usable autodiff device */
  /* The next successful fallible call resets the status. */
  (void)dt_autodiff(dt_cpu());
  assert_int_equal(dt_last_status(), DT_OK);
  assert_string_equal(dt_last_error(), "");
}

static void test_equality(void **state) {
  (void)state;
  assert_true(dt_device_equal(dt_cpu(), dt_cpu()));
  assert_true(dt_device_equal(dt_sim(0), dt_sim(0)));
  assert_false(dt_device_equal(dt_sim(0), dt_sim(1)));
  assert_false(dt_device_equal(dt_sim(0), dt_cuda(0)));
  assert_false(dt_device_equal(dt_cpu(), dt_autodiff(dt_cpu())));
  assert_true(dt_device_equal(dt_autodiff(dt_cpu()), dt_autodiff(dt_cpu())));
  /* Autodiff-ness compares as a flag, whatever non-zero value it holds. */
  dt_device odd = {DT_BACKEND_CPU, 0, 7};
  assert_true(dt_device_equal(odd, dt_autodiff(dt_cpu())));
}

static void test_names(void **state) {
  (void)state;
  char buf[64];
  assert_int_equal(dt_device_name(dt_cpu(), buf, sizeof buf), 3);
  assert_string_equal(buf, "cpu");
  dt_device_name(dt_sim(1), buf, sizeof buf);
  assert_string_equal(buf, "sim:1");
  dt_device_name(dt_cuda(0), buf, sizeof buf);
  assert_string_equal(buf, "cuda:0");
  int need = dt_device_name(dt_autodiff(dt_cuda(0)), buf, sizeof buf);
  assert_string_equal(buf, "autodiff<cuda:0>");
  assert_int_equal(need, (int)strlen("autodiff<cuda:0>"));
  dt_device_name(dt_autodiff(dt_cpu()), buf, sizeof buf);
  assert_string_equal(buf, "autodiff<cpu>");
  /* Truncation like snprintf: the return value is the full length. */
  char small[5];
  assert_int_equal(dt_device_name(dt_autodiff(dt_sim(1)), small, sizeof small), 15);
  assert_string_equal(small, "auto");
  assert_int_equal(dt_device_name(dt_sim(12), NULL, 0), 6);
  /* An out-of-range backend value is named, not a crash. */
  dt_device bad = {(dt_backend)42, 0, 0};
  assert_true(dt_device_name(bad, buf, sizeof buf) > 0);
  assert_non_null(strstr(buf, "42"));
}

static void test_availability(void **state) {
  (void)state;
  assert_true(dt_backend_available(DT_BACKEND_CPU));
  assert_true(dt_backend_available(DT_BACKEND_SIM));
  assert_false(dt_backend_available((dt_backend)0));
  assert_false(dt_backend_available((dt_backend)17));
  /* cuda depends on the build and the machine; a tensor there must agree with the answer. */
  dt_tensor *t = dt_zeros(dt_cuda(0), DT_FLOAT, 1, SHAPE(4));
  if (dt_backend_available(DT_BACKEND_CUDA)) {
    assert_non_null(t);
    dt_free(t);
  } else {
    rt_assert_failed(t, DT_ERR_BACKEND_UNAVAILABLE, "dt_zeros", "cuda", NULL);
  }
}

static void test_unavailable_devices(void **state) {
  (void)state;
  /* sim:0 and sim:1 exist; a far ordinal fails at the first allocation, not at construction. */
  dt_tensor *t = dt_from_floats(dt_sim(1), FLOATS(1, 2), 1, SHAPE(2));
  assert_non_null(t);
  dt_free(t);
  rt_assert_failed(dt_from_floats(dt_sim(64), FLOATS(1, 2), 1, SHAPE(2)), DT_ERR_BACKEND_UNAVAILABLE,
                   "sim:64", NULL);
  rt_assert_failed(dt_ones(dt_autodiff(dt_sim(64)), DT_FLOAT, 1, SHAPE(2)),
                   DT_ERR_BACKEND_UNAVAILABLE, "sim:64", NULL);
  rt_assert_failed(dt_zeros(dt_cuda(1000), DT_FLOAT, 0, NULL), DT_ERR_BACKEND_UNAVAILABLE,
                   "cuda:1000", NULL);
  /* The cpu has one device. */
  dt_device cpu1 = {DT_BACKEND_CPU, 1, 0};
  rt_assert_failed(dt_zeros(cpu1, DT_FLOAT, 0, NULL), DT_ERR_BACKEND_UNAVAILABLE, "cpu:1", NULL);
  /* Negative ordinals and unknown backends are invalid arguments. */
  rt_assert_failed(dt_zeros(dt_sim(-1), DT_FLOAT, 0, NULL), DT_ERR_INVALID_ARGUMENT, "sim:-1", NULL);
  dt_device bad = {(dt_backend)9, 0, 0};
  rt_assert_failed(dt_zeros(bad, DT_FLOAT, 0, NULL), DT_ERR_INVALID_ARGUMENT, NULL);
}

/* A backend interface for the registration checks (never used to run anything). */
static int fake_probe(char *why, size_t n) {
  (void)why;
  (void)n;
  return 0;
}
static int fake_count(void) { return 1; }
static void *fake_alloc(int o, size_t b) {
  (void)o;
  (void)b;
  return NULL;
}
static void fake_free(int o, void *p) {
  (void)o;
  (void)p;
}
static int fake_copy(int o, void *d, const void *s, size_t b) {
  (void)o;
  (void)d;
  (void)s;
  (void)b;
  return -1;
}
static int fake_run(int o, const dt_op_desc *op) {
  (void)o;
  (void)op;
  return -1;
}

static void test_register_validation(void **state) {
  (void)state;
  dt_backend_iface f = {.api_version = DT_BACKEND_API_VERSION + 1,
                        .backend = DT_BACKEND_CUDA,
                        .name = "fake",
                        .probe = fake_probe,
                        .device_count = fake_count,
                        .alloc = fake_alloc,
                        .free = fake_free,
                        .copy_in = fake_copy,
                        .copy_out = fake_copy,
                        .run = fake_run};
  assert_int_equal(dt_register_backend(&f), -1); /* another API version */
  f.api_version = DT_BACKEND_API_VERSION;
  f.run = NULL;
  assert_int_equal(dt_register_backend(&f), -1); /* incomplete */
  f.run = fake_run;
  f.backend = (dt_backend)0;
  assert_int_equal(dt_register_backend(&f), -1); /* no such backend slot */
  assert_int_equal(dt_register_backend(NULL), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_constructors),       cmocka_unit_test(test_autodiff_wrapping),
      cmocka_unit_test(test_equality),           cmocka_unit_test(test_names),
      cmocka_unit_test(test_availability),       cmocka_unit_test(test_unavailable_devices),
      cmocka_unit_test(test_register_validation),
  };
  return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
