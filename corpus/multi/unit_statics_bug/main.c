// corpus/multi/unit_statics_bug/main.c — the encoder's tensors are on sim:1 (its own `current`),
// the decoder's on cpu: adding them mixes backends on every path. Merging the two units'
// statics into one object would put both on cpu and miss it.
#include <stdio.h>

#include "placement.h"

int main(void) {
  const int64_t shape[2] = {2, 2};
  current = dt_sim(1); /* main.c's own copy */
  encoder_setup();
  decoder_setup();
  dt_tensor *h = encoder_make(shape);
  dt_tensor *o = decoder_make(shape);
  dt_tensor *y = dt_add(h, o); // expect-error: backend-mismatch
  printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(o);
  dt_free(h);
  return 0;
}
