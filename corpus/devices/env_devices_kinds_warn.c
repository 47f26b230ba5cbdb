/* corpus/devices/env_devices_kinds_warn.c — a scoring step whose two inputs are placed on
   devices read from the environment (unknown to the analyzer): whether they agree is not known,
   but the labels are integers and the scores floats, so the product fails its kind check on
   every path where the devices agree. Bug: a warning (kind-mismatch; a device-mismatch may come
   first). */
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

static int env_int(const char *name, int fallback) {
  const char *s = getenv(name);
  return s ? atoi(s) : fallback;
}

int main(void) {
  const int64_t shape[1] = {2};
  const int64_t labels[2] = {1, 0};
  const float scores[2] = {0.25f, 0.75f};
  dt_device label_dev = dt_sim(env_int("LABEL_DEVICE", 0));
  dt_device score_dev = dt_sim(env_int("SCORE_DEVICE", 0));
  dt_tensor *y = dt_from_ints(label_dev, labels, 1, shape);
  dt_tensor *p = dt_from_floats(score_dev, scores, 1, shape);
  dt_tensor *hit = dt_mul(y, p); /* expect-warning: kind-mismatch */
  printf("%lld\n", (long long)dt_numel(hit));
  dt_free(hit);
  dt_free(p);
  dt_free(y);
  return 0;
}
