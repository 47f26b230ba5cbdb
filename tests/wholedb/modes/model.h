/* tests/wholedb/modes/model.h — the project's shared declarations: a device from an inline
 * helper in this header, a global device another unit sets, functions of other units. */
#ifndef MODES_MODEL_H
#define MODES_MODEL_H
#include <dt/dt.h>

static inline dt_device model_device(void) { return dt_sim(1); }

extern dt_device g_dev;
void config_init(void);
dt_tensor *load_weights(void);
dt_tensor *scale(dt_tensor *x, dt_tensor *y);
#endif
