// multi_statics_bug: main sets the default device through the encoder (encoder_setup), then
// combines an encoder tensor with a decoder tensor.  The decoder's copy of the header's
// statics was never set, so decoder_bias() is on the cpu while the encoder works on sim:1.
// The failing add is in main.c.
#include "devctx.h"

static const int64_t SHAPE[1] = {4};

void encoder_setup(void) {
  devctx_set(dt_sim(1));
}

dt_tensor *encoder_features(void) {
  return dt_full(devctx_get(), 1.5f, 1, SHAPE);
}
