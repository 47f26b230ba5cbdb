// corpus/multi/device_flag_warn/encoder.c — the encoder. Its matmul receives one-hot rows made
// in main.c on a device picked by a command-line flag: sim:0 (fine) or sim:1 (device-mismatch).
// The outcome depends on the flag, so it is a warning here, found across the file boundary.
#include "encoder.h"

void encoder_init(encoder *e) { e->table = dt_randn(dt_sim(0), 1, 2, (const int64_t[]){6, 3}); }

dt_tensor *encoder_encode(const encoder *e, const dt_tensor *onehot) {
  return dt_matmul(onehot, e->table); // expect-warning: device-mismatch
}

void encoder_free(encoder *e) { dt_free(e->table); }
