// corpus/multi/pipeline_stages_bug/encoder.c — the encoder stage: uploads its input and runs on
// its own device.
#include "stages.h"

void stage_init(stage *s, dt_device dev, int in, int out, uint64_t seed) {
  s->dev = dev;
  s->w = dt_randn(dev, seed, 2, (const int64_t[]){in, out});
}

dt_tensor *encoder_run(const stage *s, const dt_tensor *x) {
  dt_tensor *in = dt_to_device(x, s->dev);
  dt_tensor *h = dt_matmul(in, s->w);
  dt_tensor *a = dt_tanh(h);
  dt_free(h);
  dt_free(in);
  return a;
}
