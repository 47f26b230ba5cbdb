// tests/wholedb/reach/through_pointer.c — the API reached only through a function designator
// held in a table: still analyzed, its backend mismatch still found.
#include <dt/dt.h>

typedef dt_tensor *(*binary_op)(const dt_tensor *, const dt_tensor *);
static const binary_op ops[] = {dt_mul};

static dt_tensor *make(dt_device d, const float *v) {
  return dt_from_floats(d, v, 1, (const int64_t[]){2});
}

int main(void) {
  static const float v[2] = {1, 2};
  typedef dt_tensor *(*maker)(dt_device, const float *);
  maker mk = make;
  dt_tensor *a = mk(dt_cpu(), v), *b = mk(dt_sim(1), v);
  dt_tensor *c = ops[0](a, b);
  dt_free(c);
  dt_free(b);
  dt_free(a);
  return 0;
}
