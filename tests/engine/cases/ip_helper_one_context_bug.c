// A helper that is fine for one caller and always fails for the other: an error at the helper.
#include <dt/dt.h>
static dt_tensor *g_scale;
static dt_tensor *scale(const dt_tensor *x) {
  return dt_mul(x, g_scale); // expect-error: device-mismatch
}
int main(void) {
  g_scale = dt_full(dt_sim(0), 2.0f, 1, (const int64_t[]){1});
  dt_tensor *a = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *b = dt_ones(dt_sim(1), DT_FLOAT, 1, (const int64_t[]){4});
  dt_tensor *sa = scale(a);
  dt_tensor *sb = scale(b);
  dt_free(sa);
  dt_free(sb);
  return 0;
}
