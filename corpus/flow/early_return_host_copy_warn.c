// corpus/flow/early_return_host_copy_warn.c — a helper that "prepares" a batch returns its
// host copy unchanged when the batch is small (a shortcut added for a benchmark) and uploads
// it otherwise. The caller uses the result with device weights: only the small-batch path
// mismatches, and the size comes from the command line — a warning. The oracle passes a
// small size, so the run fails at the flagged line.
// run-args: 2
#include <stdio.h>
#include <stdlib.h>

#include <dt/dt.h>

static dt_tensor *prepare(dt_tensor *host_batch, int rows, dt_device dev) {
  if (rows < 4) return host_batch; /* too small to be worth the upload */
  dt_tensor *d = dt_to_device(host_batch, dev);
  dt_free(host_batch);
  return d;
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 8;
  if (rows < 1 || rows > 64) rows = 8;
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 1, 2, (const int64_t[]){3, 3});
  dt_tensor *x = prepare(dt_randn(dt_cpu(), 2, 2, (const int64_t[]){rows, 3}), rows, dev);
  dt_tensor *y = dt_matmul(x, w); // expect-warning: backend-mismatch
  printf("y %lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  dt_free(w);
  return 0;
}
