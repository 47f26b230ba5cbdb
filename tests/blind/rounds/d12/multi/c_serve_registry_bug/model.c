// provenance: blind round d12
#include "model.h"
#include "registry.h"
#include <stdio.h>
#include <stdlib.h>

int lm_init(lm_t *m, const serve_config_t *c) {
  m->dev = c->compute;
  m->vocab = c->vocab;
  m->hidden = c->hidden;
  /* the embedding table is big: look it up in place instead of copying it */
  m->embed = registry_get("embed");
  m->out_proj = dt_to_device(registry_get("out_proj"), c->compute);
  m->out_bias = dt_to_device(registry_get("out_bias"), c->compute);
  m->temp = registry_constant("inv_temperature", c->compute, 1.0f / c->temperature);
  return m->embed && m->out_proj && m->out_bias ? 0 : -1;
}

dt_tensor *lm_logits(const lm_t *m, const int64_t *tokens, int n) {
  float *onehot = calloc((size_t)n * m->vocab, sizeof(float));
  if (!onehot) return NULL;
  for (int i = 0; i < n; i++) onehot[i * m->vocab + tokens[i] % m->vocab] = 1.0f;
  int64_t os[2] = {n, m->vocab};
  dt_tensor *oh = dt_from_floats(m->dev, onehot, 2, os);
  free(onehot);
  dt_tensor *h = dt_matmul(oh, m->embed); // expect-error: backend-mismatch
  dt_tensor *ha = dt_tanh(h);
  dt_tensor *lo = dt_matmul(ha, m->out_proj);
  dt_tensor *lb = dt_add(lo, m->out_bias);
  dt_tensor *scaled = dt_mul(lb, m->temp);
  dt_free(oh); dt_free(h); dt_free(ha); dt_free(lo); dt_free(lb);
  return scaled;
}

void lm_free(lm_t *m) {
  dt_free(m->out_proj);
  dt_free(m->out_bias);
  /* embed and temp belong to the registry */
}
