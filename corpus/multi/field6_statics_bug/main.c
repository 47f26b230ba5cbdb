// main.c — wires the encoder and decoder together.
#include "devctx.h"
#include <stdio.h>

int main(void) {
  encoder_setup();
  dt_tensor *f = encoder_features();   /* sim:1: the encoder unit's default */
  dt_tensor *b = decoder_bias();       /* cpu: the decoder unit's default was never set */
  /* main's own copy was never set either: cpu, like the decoder's */
  dt_tensor *scale = dt_full(devctx_get(), 2.0f, 1, (const int64_t[]){4});
  dt_tensor *sb = dt_mul(b, scale);
  dt_tensor *out = dt_add(f, sb); // expect-error: backend-mismatch
  printf("decoder calls %d, main calls %d\n", decoder_calls(), devctx_calls());
  dt_free(out);
  dt_free(sb);
  dt_free(scale);
  dt_free(b);
  dt_free(f);
  return 0;
}
