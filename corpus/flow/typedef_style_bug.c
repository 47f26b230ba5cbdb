/* corpus/flow/typedef_style_bug.c — the same style with a bug hidden behind the typedefs and
 * the CHECK macro: the bias is created on the host inside a CHECK, and the failing add is also
 * inside a CHECK (reported at the line where the macro is used). Bug: backend-mismatch. */
#include <stdio.h>

#include <dt/dt.h>

typedef dt_tensor *tensor_t;
typedef dt_device device_t;

#define CHECK(expr)                                                                            \
  do                                                                                           \
  {                                                                                            \
    if ((expr) == NULL)                                                                        \
      goto fail;                                                                               \
  } while (0)

int main(void)
{
  device_t dev = dt_sim(0);
  tensor_t x = NULL, bias = NULL, y = NULL;
  CHECK(x = dt_randn(dev, 1, 2, (const int64_t[]){2, 4}));
  CHECK(bias = dt_zeros(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){4}));
  CHECK(y = dt_add(x, bias)); // expect-error: backend-mismatch
  printf("%lld\n", (long long)dt_numel(y));
fail:
  dt_free(y);
  dt_free(bias);
  dt_free(x);
  return 0;
}
