// corpus/flow/if_else_both_wrong_bug.c — the validation batch comes from one of two sources;
// both branches build it on sim:1 while the model lives on sim:0. Every path mismatches, so
// the analyzer reports an error even though it cannot tell which branch runs.
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

int main(int argc, char **argv) {
  dt_device model_dev = dt_sim(0);
  dt_device data_dev = dt_sim(1);
  dt_tensor *w = dt_randn(model_dev, 1, 2, (const int64_t[]){5, 2});
  dt_tensor *val;
  if (argc > 1) {
    int n = atoi(argv[1]);
    if (n < 1) n = 1;
    val = dt_randn(data_dev, (uint64_t)n, 2, (const int64_t[]){3, 5});
  } else {
    val = dt_zeros(data_dev, DT_FLOAT, 2, (const int64_t[]){3, 5});
  }
  dt_tensor *pred = dt_matmul(val, w); // expect-error: device-mismatch
  printf("pred %lld\n", (long long)dt_numel(pred));
  dt_free(pred);
  dt_free(val);
  dt_free(w);
  return 0;
}
