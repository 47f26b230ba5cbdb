// provenance: blind round field3
// Device from the environment via a parser the analyzer cannot follow (getenv + sscanf):
// nothing is known, nothing may be reported. The default run uses sim:0 everywhere.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
static dt_device dev_from_env(const char *var, dt_device fallback) {
  const char *s = getenv(var);
  int ord;
  if (s && sscanf(s, "sim:%d", &ord) == 1) return dt_sim(ord);
  return fallback;
}
int main(void) {
  dt_device data = dev_from_env("DATA_DEVICE", dt_sim(0));
  dt_device model = dev_from_env("MODEL_DEVICE", dt_sim(0));
  dt_tensor *x = dt_randn(data, 1, 2, (const int64_t[]){2, 3});
  dt_tensor *w = dt_randn(model, 2, 2, (const int64_t[]){3, 3});
  dt_tensor *y = dt_matmul(x, w);
  printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
