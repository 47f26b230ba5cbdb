/* tests/runtime/rt_util.c — helpers shared by the runtime's unit tests (see rt_util.h). */
#include "rt_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t g_tensors_at_start;

int rt_setup(void **state) {
  (void)state;
  dt_set_error_mode(DT_ERRORS_RETURN);
  g_tensors_at_start = dt__live_tensors();
  return 0;
}

int rt_teardown(void **state) {
  (void)state;
  if (dt__live_tensors() != g_tensors_at_start) {
    fprintf(stderr, "leak: %lld live tensors at start, %lld at the end\n",
            (long long)g_tensors_at_start, (long long)dt__live_tensors());
    return -1;
  }
  return 0;
}

void rt_read_f(const dt_tensor *t, float *out, int64_t cap) {
  assert_non_null(t);
  assert_true(dt_numel(t) <= cap);
  assert_int_equal(dt_read_floats(t, out, cap), 0);
  assert_int_equal(dt_last_status(), DT_OK);
}

void rt_read_i(const dt_tensor *t, int64_t *out, int64_t cap) {
  assert_non_null(t);
  assert_true(dt_numel(t) <= cap);
  assert_int_equal(dt_read_ints(t, out, cap), 0);
  assert_int_equal(dt_last_status(), DT_OK);
}

void rt_assert_shape(const dt_tensor *t, int rank, const int64_t *shape) {
  assert_non_null(t);
  assert_int_equal(dt_rank(t), rank);
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    assert_int_equal(dt_dim(t, i), shape[i]);
    n *= shape[i];
  }
  assert_int_equal(dt_numel(t), n);
}

void rt_assert_failed(const void *result, dt_status status, ...) {
  const char *msg = dt_last_error();
  if (result != NULL || dt_last_status() != status)
    fprintf(stderr, "expected status %d (%s), got %d: %s\n", (int)status, dt_status_rule_id(status),
            (int)dt_last_status(), msg);
  assert_null(result);
  assert_int_equal(dt_last_status(), status);
  char tail[64];
  snprintf(tail, sizeof tail, " [%s]", dt_status_rule_id(status));
  size_t n = strlen(msg), m = strlen(tail);
  assert_true(n >= m);
  assert_string_equal(msg + n - m, tail);
  va_list ap;
  va_start(ap, status);
  for (const char *frag = va_arg(ap, const char *); frag != NULL; frag = va_arg(ap, const char *)) {
    if (strstr(msg, frag) == NULL) fprintf(stderr, "missing \"%s\" in: %s\n", frag, msg);
    assert_non_null(strstr(msg, frag));
  }
  va_end(ap);
}

void rt_free_all(dt_tensor *first, ...) {
  va_list ap;
  va_start(ap, first);
  for (dt_tensor *t = first; t != NULL; t = va_arg(ap, dt_tensor *)) dt_free(t);
  va_end(ap);
}

dt_tensor *rt_iota(dt_device d, int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= shape[i];
  float *v = malloc(sizeof(float) * (size_t)(n ? n : 1));
  assert_non_null(v);
  for (int64_t i = 0; i < n; i++) v[i] = 0.5f * (float)i - 3.0f;
  dt_tensor *t = dt_from_floats(d, v, rank, shape);
  free(v);
  assert_non_null(t);
  return t;
}
