// provenance: blind round d12
/* Batch scoring service: loads the checkpoint into the registry, builds the model on the
 * configured device, scores request batches and calibrates the scores on the host. */
#include <dt/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include "config.h"
#include "registry.h"
#include "model.h"

static int argmax_row(const float *row, int n) {
  int best = 0;
  for (int i = 1; i < n; i++)
    if (row[i] > row[best]) best = i;
  return best;
}

int main(void) {
  serve_config_t cfg;
  serve_config_load(&cfg);
  serve_config_print(&cfg);
  registry_load_checkpoint(cfg.vocab, cfg.hidden);
  lm_t lm;
  if (lm_init(&lm, &cfg) != 0) {
    fprintf(stderr, "model init failed\n");
    return 1;
  }

  /* calibration reference: uniform scores on the host, scaled by the shared temperature */
  int64_t rs[2] = {1, cfg.vocab};
  dt_tensor *ref = dt_full(cfg.host, 1.0f / cfg.vocab, 2, rs);
  dt_tensor *ref_scaled = dt_mul(ref, registry_constant("inv_temperature", cfg.host, 1.0f / cfg.temperature)); // expect-error: backend-mismatch
  float refv[16] = {0};
  if (ref_scaled) dt_read_floats(ref_scaled, refv, cfg.vocab);

  int64_t requests[3][8] = {{1, 2, 3, 4}, {5, 6, 7, 8, 9}, {0, 0, 1}};
  int lens[3] = {4, 5, 3};
  for (int r = 0; r < 3; r++) {
    int n = lens[r] < cfg.max_batch ? lens[r] : cfg.max_batch;
    dt_tensor *logits = lm_logits(&lm, requests[r], n);
    dt_tensor *host = dt_to_device(logits, cfg.host);
    float buf[8 * 16];
    if (host && dt_read_floats(host, buf, (int64_t)n * cfg.vocab) == 0) {
      printf("request %d:", r);
      for (int i = 0; i < n; i++) printf(" %d", argmax_row(buf + i * cfg.vocab, cfg.vocab));
      printf(" (ref %.3f)\n", refv[0]);
    }
    dt_free(logits);
    dt_free(host);
  }
  dt_free(ref);
  dt_free(ref_scaled);
  lm_free(&lm);
  registry_clear();
  return 0;
}
