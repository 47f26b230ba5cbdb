// Devices spelled as compound literals, initializers and field stores.
#include <dt/dt.h>
int main(void) {
  dt_device a = (dt_device){DT_BACKEND_SIM, 1, 0};
  dt_device b = {.backend = DT_BACKEND_SIM};
  dt_device c = dt_sim(0);
  c.ordinal = 1;
  dt_tensor *ta = dt_ones(a, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *tb = dt_ones(b, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *tc = dt_ones(c, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *s1 = dt_add(ta, tc);
  dt_tensor *s2 = dt_add(ta, tb); // expect-error: device-mismatch
  dt_device d = b;
  d.autodiff = 1;
  dt_tensor *td = dt_ones(d, DT_FLOAT, 1, (const int64_t[]){2});
  dt_tensor *s3 = dt_add(tb, td); // expect-error: autodiff-expected
  dt_free(s1);
  dt_free(s2);
  dt_free(s3);
  return 0;
}
