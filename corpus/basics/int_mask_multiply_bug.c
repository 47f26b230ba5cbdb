// provenance: blind round field
// Padding mask created with DT_INT and multiplied into float activations.
#include <dt/dt.h>
#include <stdio.h>

typedef struct { int seq_len, hidden; dt_device dev; } model_cfg;

static dt_tensor *padding_mask(const model_cfg *c) {
  return dt_ones(c->dev, DT_INT, 2, (const int64_t[]){c->seq_len, c->hidden});
}

int main(void) {
  model_cfg cfg = { 5, 8, dt_sim(0) };
  dt_tensor *act = dt_randn(cfg.dev, 1, 2, (const int64_t[]){cfg.seq_len, cfg.hidden});
  dt_tensor *mask = padding_mask(&cfg);
  dt_tensor *masked = dt_mul(act, mask); // expect-error: kind-mismatch
  printf("%p\n", (void *)masked);
  return 0;
}
