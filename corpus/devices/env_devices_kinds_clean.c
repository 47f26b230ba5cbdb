/* corpus/devices/env_devices_kinds_clean.c — a scoring step whose two inputs are placed on
   devices read from the environment (unknown to the analyzer), both float: the devices may
   disagree, which the analyzer cannot tell, and nothing fails for sure: no finding. */
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

static int env_int(const char *name, int fallback) {
  const char *s = getenv(name);
  return s ? atoi(s) : fallback;
}

int main(void) {
  const int64_t shape[1] = {2};
  const float weights[2] = {1.0f, 0.5f};
  const float scores[2] = {0.25f, 0.75f};
  dt_device weight_dev = dt_sim(env_int("WEIGHT_DEVICE", 0));
  dt_device score_dev = dt_sim(env_int("SCORE_DEVICE", 0));
  dt_tensor *w = dt_from_floats(weight_dev, weights, 1, shape);
  dt_tensor *p = dt_from_floats(score_dev, scores, 1, shape);
  dt_tensor *weighted = dt_mul(w, p);
  printf("%lld\n", (long long)dt_numel(weighted));
  dt_free(weighted);
  dt_free(p);
  dt_free(w);
  return 0;
}
