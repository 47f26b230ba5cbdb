// provenance: blind round d12
#ifndef SERVE_MODEL_H
#define SERVE_MODEL_H
#include <dt/dt.h>
#include "config.h"

typedef struct {
  dt_device dev;
  const dt_tensor *embed;   /* [vocab, hidden] */
  dt_tensor *out_proj;      /* [hidden, vocab] */
  dt_tensor *out_bias;      /* [vocab] */
  dt_tensor *temp;          /* [1] */
  int vocab, hidden;
} lm_t;

int lm_init(lm_t *m, const serve_config_t *c);
dt_tensor *lm_logits(const lm_t *m, const int64_t *tokens, int n);
void lm_free(lm_t *m);
#endif
