// corpus/interproc/input_ordinal_clean.c — the accelerator ordinal comes from the
// environment (SIM_DEVICE) or the command line; the data batch is always on sim:0. Whether
// they agree depends on input the analyzer cannot know, so it must stay silent (no finding
// for unknown values). Run with the default ordinal, the program is correct.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

static int device_ordinal(int argc, char **argv) {
  const char *env = getenv("SIM_DEVICE");
  if (argc > 1) return atoi(argv[1]);
  if (env) return atoi(env);
  return 0;
}

int main(int argc, char **argv) {
  dt_device dev = dt_sim(device_ordinal(argc, argv));
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){4, 2});
  dt_tensor *x = dt_randn(dt_sim(0), 2, 2, (const int64_t[]){3, 4});
  dt_tensor *y = dt_matmul(x, w);
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
