// devctx.h — a "global default device" helper, header-only.  Everything here is `static`:
// each .c file that includes this header gets its OWN g_default_dev / g_have_default and
// its own copy of the static local in devctx_calls().  Setting the default device in one
// translation unit does not change it in another.
#ifndef DEVCTX_H
#define DEVCTX_H
#include <dt/dt.h>

static dt_device g_default_dev;
static int g_have_default;

static inline int devctx_calls(void) {
  static int calls;
  return ++calls;
}

static inline void devctx_set(dt_device d) {
  g_default_dev = d;
  g_have_default = 1;
}

static inline dt_device devctx_get(void) {
  devctx_calls();
  return g_have_default ? g_default_dev : dt_cpu();
}

/* encoder.c */
void encoder_setup(void);
dt_tensor *encoder_features(void);
/* decoder.c */
dt_tensor *decoder_bias(void);
int decoder_calls(void);
#endif
