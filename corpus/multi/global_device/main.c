// corpus/multi/global_device/main.c — the classifier weights and the features are both made on
// g_device (a global defined in another file). Clean.
#include <stdio.h>

#include "extract.h"
#include "runtime_cfg.h"

int main(void) {
  dt_tensor *w = dt_randn(g_device, 9, 2, (const int64_t[]){3, 2});
  for (int n = 2; n <= 4; n++) {
    dt_tensor *f = extract_features(n);
    dt_tensor *y = dt_matmul(f, w);
    if (g_verbose) printf("%d rows -> %lld scores\n", n, (long long)dt_numel(y));
    dt_free(y);
    dt_free(f);
  }
  dt_free(w);
  return 0;
}
