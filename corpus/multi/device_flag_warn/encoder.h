// corpus/multi/device_flag_warn/encoder.h — a text encoder whose vocabulary table is built once
// on the host's accelerator (sim:0).
#ifndef DEVICE_FLAG_WARN_ENCODER_H
#define DEVICE_FLAG_WARN_ENCODER_H

#include <dt/dt.h>

typedef struct encoder {
  dt_tensor *table; /* [vocab, dim] on sim:0 */
} encoder;

void encoder_init(encoder *e);
/* Encodes one-hot rows (on any device the caller chose). */
dt_tensor *encoder_encode(const encoder *e, const dt_tensor *onehot);
void encoder_free(encoder *e);

#endif
