// corpus/interproc/helper_branch_arg_warn.c — the caller picks the device for a helper from a
// command-line flag; the helper combines its input with a bias kept on sim:0. With the flag,
// the input lands on sim:1 and the helper's add fails; without it, it works. The failure
// depends on a branch in the caller that the analyzer cannot decide: a warning at the helper's
// call. The oracle passes the flag, so the run fails there.
// run-args: --second
#include <stdio.h>
#include <string.h>

#include <dt/dt.h>

static dt_tensor *g_bias;

static dt_tensor *biased(const dt_tensor *x) {
  return dt_add(x, g_bias); // expect-warning: device-mismatch
}

int main(int argc, char **argv) {
  g_bias = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){3});
  dt_device dev = (argc > 1 && strcmp(argv[1], "--second") == 0) ? dt_sim(1) : dt_sim(0);
  dt_tensor *x = dt_randn(dev, 1, 2, (const int64_t[]){2, 3});
  dt_tensor *y = biased(x);
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(g_bias);
  return 0;
}
