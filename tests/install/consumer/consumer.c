/* tests/install/consumer/consumer.c — a tiny program built against an INSTALLED libdt (through
 * pkg-config and through find_package(dt)): computes with the public API, catches a tag
 * mismatch in return mode, and checks the message names this file and the rule id. */
#include <dt/dt.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  dt_set_error_mode(DT_ERRORS_RETURN);
  dt_tensor *a = dt_from_floats(dt_cpu(), (const float[]){1, 2, 3, 4}, 2, (const int64_t[]){2, 2});
  dt_tensor *b = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *t = dt_transpose(a);
  dt_tensor *c = dt_matmul(a, t);
  dt_tensor *s = dt_add(a, b);
  float v[4];
  int rc = 0;
  if (!a || !b || !t || !c || !s || dt_read_floats(s, v, 4) != 0)
    rc = 1;
  else if (v[0] != 2 || v[3] != 5)
    rc = 2;
  dt_tensor *i = dt_from_ints(dt_cpu(), (const int64_t[]){1, 2}, 1, (const int64_t[]){2});
  if (rc == 0 && (dt_add(b, i) != NULL || dt_last_status() != DT_ERR_KIND_MISMATCH)) rc = 3;
  if (rc == 0 && (strstr(dt_last_error(), "consumer.c:") == NULL ||
                  strstr(dt_last_error(), "[kind-mismatch]") == NULL))
    rc = 4;
  dt_tensor *all[] = {a, b, t, c, s, i};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) dt_free(all[k]);
  if (rc == 0) printf("consumer: ok (%s)\n", DT_VERSION_STRING);
  return rc;
}
