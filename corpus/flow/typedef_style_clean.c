/* corpus/flow/typedef_style_clean.c — a different house style: typedef'd handle types,
 * Allman braces, an error-checking macro that wraps every call (CHECK jumps to a cleanup label
 * when a call returns NULL) and a function-like macro naming the device. Clean. */
#include <stdio.h>

#include <dt/dt.h>

typedef dt_tensor *tensor_t;
typedef dt_device device_t;

#define ACCEL() dt_sim(1)
#define CHECK(expr)                                                                            \
  do                                                                                           \
  {                                                                                            \
    if ((expr) == NULL)                                                                        \
      goto fail;                                                                               \
  } while (0)

static int run(device_t dev)
{
  int rc = 1;
  tensor_t a = NULL, b = NULL, c = NULL, d = NULL;
  CHECK(a = dt_randn(dev, 1, 2, (const int64_t[]){3, 3}));
  CHECK(b = dt_ones(dev, DT_FLOAT, 2, (const int64_t[]){3, 3}));
  CHECK(c = dt_matmul(a, b));
  CHECK(d = dt_add(c, a));
  rc = 0;
fail:
  dt_free(d);
  dt_free(c);
  dt_free(b);
  dt_free(a);
  return rc;
}

int main(void)
{
  device_t dev = ACCEL();
  if (run(dev) != 0)
    return 1;
  printf("ok\n");
  return 0;
}
