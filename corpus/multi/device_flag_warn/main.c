// corpus/multi/device_flag_warn/main.c — `--spread` puts the input rows on the second
// accelerator (meant for a data-parallel mode that was never finished). The oracle passes the
// flag, so the run fails at the warned line in encoder.c.
// run-args: --spread
#include <stdio.h>
#include <string.h>

#include "encoder.h"

int main(int argc, char **argv) {
  int spread = argc > 1 && strcmp(argv[1], "--spread") == 0;
  dt_device rows_dev = spread ? dt_sim(1) : dt_sim(0);
  encoder e;
  encoder_init(&e);
  dt_tensor *onehot = dt_zeros(rows_dev, DT_FLOAT, 2, (const int64_t[]){2, 6});
  dt_tensor *vecs = encoder_encode(&e, onehot);
  printf("%lld\n", (long long)dt_numel(vecs));
  dt_free(vecs);
  dt_free(onehot);
  encoder_free(&e);
  return 0;
}
