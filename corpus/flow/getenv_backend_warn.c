// provenance: blind round field5
// Backend chosen from the environment (DT_DEV=cpu|sim); the positional-encoding table is
// always built on sim:0. With DT_DEV=cpu the add fails: a warning, the default run is clean.
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dt_device device_from_env(void) {
  const char *s = getenv("DT_DEV");
  if (s && strcmp(s, "cpu") == 0) return dt_cpu();
  return dt_sim(0);
}

int main(void) {
  dt_device d = device_from_env();
  dt_tensor *emb = dt_randn(d, 1, 2, (const int64_t[]){6, 4});
  dt_tensor *pos = dt_full(dt_sim(0), 0.01f, 2, (const int64_t[]){6, 4});
  dt_tensor *x = dt_add(emb, pos); // expect-warning: backend-mismatch
  printf("%lld\n", (long long)dt_numel(x));
  dt_free(x); dt_free(pos); dt_free(emb);
  return 0;
}
