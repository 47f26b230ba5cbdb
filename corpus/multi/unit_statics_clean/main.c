// corpus/multi/unit_statics_clean/main.c — the encoder's tensors are on sim:1 (its own
// `current`), and so is the probe made here: clean. Merging the two units' statics into one
// object would put the encoder's tensors on the decoder's cpu and report a false error.
#include <stdio.h>

#include "placement.h"

int main(void) {
  const int64_t shape[2] = {2, 2};
  current = dt_sim(1); /* main.c's own copy */
  encoder_setup();
  decoder_setup();
  dt_tensor *h = encoder_make(shape);
  dt_tensor *o = decoder_make(shape);
  dt_tensor *probe = dt_full(current, 1.0f, 2, shape);
  dt_tensor *y = dt_add(h, probe);
  dt_tensor *z = dt_add(o, o);
  printf("%lld %lld\n", (long long)dt_numel(y), (long long)dt_numel(z));
  dt_free(z);
  dt_free(y);
  dt_free(probe);
  dt_free(o);
  dt_free(h);
  return 0;
}
