// corpus/flow/generic_selection_bug.c — a type-generic constructor macro picks dt_from_floats or
// dt_from_ints through C11 _Generic on the host buffer's type; the selected function is the one
// called. The ids come from an int64_t buffer, so adding them to the float features mixes kinds
// on every path: an error.
#include <stdio.h>

#include <dt/dt.h>

static dt_tensor *make_f(dt_device d, const float *v, int64_t n) {
  return dt_from_floats(d, v, 1, (const int64_t[]){n});
}
static dt_tensor *make_i(dt_device d, const int64_t *v, int64_t n) {
  return dt_from_ints(d, v, 1, (const int64_t[]){n});
}

#define MAKE(dev, buf, n) _Generic((buf), float *: make_f, int64_t *: make_i)(dev, buf, n)

int main(void) {
  float feats[3] = {0.5f, 1.5f, 2.5f};
  int64_t ids[3] = {3, 1, 4};
  dt_tensor *f = MAKE(dt_sim(1), feats, 3);
  dt_tensor *t = MAKE(dt_sim(1), ids, 3);
  dt_tensor *y = dt_add(f, t); // expect-error: kind-mismatch
  printf("%p\n", (void *)y);
  dt_free(t);
  dt_free(f);
  return 0;
}
