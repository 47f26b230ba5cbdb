// The kind rules: after every tag rule, float/int/bool combinations an operation refuses.
#include <dt/dt.h>
int main(void) {
  dt_device d = dt_sim(0);
  dt_tensor *f = dt_randn(d, 1, 2, (const int64_t[]){2, 2});
  dt_tensor *i = dt_from_ints(d, (const int64_t[]){1, 2, 3, 4}, 2, (const int64_t[]){2, 2});
  dt_tensor *b = dt_greater(f, f);
  dt_tensor *k1 = dt_add(f, i); // expect-error: kind-mismatch
  dt_tensor *k2 = dt_where(f, f, f); // expect-error: kind-mismatch
  dt_tensor *k3 = dt_matmul(b, b); // expect-error: kind-mismatch
  dt_tensor *k4 = dt_mean(i); // expect-error: kind-mismatch
  dt_tensor *ok1 = dt_where(b, i, i);
  dt_tensor *ok2 = dt_sum(i);
  dt_tensor *k5 = dt_exp(i); // expect-error: kind-mismatch
  dt_tensor *zb = dt_zeros(d, DT_BOOL, 1, (const int64_t[]){4});
  dt_tensor *k6 = dt_neg(zb); // expect-error: kind-mismatch
  float out[4];
  dt_read_floats(i, out, 4); // expect-error: kind-mismatch
  int64_t iout[4];
  dt_read_ints(b, iout, 4);
  dt_tensor *h = dt_randn(dt_cpu(), 2, 2, (const int64_t[]){2, 2});
  dt_tensor *k7 = dt_add(h, i); // expect-error: backend-mismatch
  if (dt_kind_of(f) == DT_FLOAT) {
    dt_tensor *ok3 = dt_log(f);
    dt_free(ok3);
  }
  (void)k1; (void)k2; (void)k3; (void)k4; (void)ok1; (void)ok2; (void)k5; (void)k6; (void)k7;
  return 0;
}
