// provenance: blind round field2
// cuda availability is checked once in a config function and remembered in a struct field.
#include <dt/dt.h>
#include <stdio.h>
typedef struct { int has_cuda; dt_device dev; } runtime_cfg;
static void configure(runtime_cfg *c) {
  c->has_cuda = dt_backend_available(DT_BACKEND_CUDA);
  c->dev = c->has_cuda ? dt_cuda(0) : dt_cpu();
}
static dt_tensor *make(const runtime_cfg *c, int n) {
  if (c->has_cuda) return dt_ones(dt_cuda(0), DT_FLOAT, 1, (const int64_t[]){n});
  return dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){n});
}
int main(void) {
  runtime_cfg c;
  configure(&c);
  dt_tensor *a = make(&c, 4);
  dt_tensor *b = dt_full(c.dev, 2.0f, 1, (const int64_t[]){4});
  dt_tensor *s = dt_sum(dt_mul(a, b));
  float v; dt_read_floats(s, &v, 1);
  printf("%f\n", v);
  return 0;
}
