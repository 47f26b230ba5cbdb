// corpus/basics/mean_of_counts_bug.c — a data-quality report averages per-batch error counts
// kept in an int tensor. Bug: dt_mean of an int tensor (kind-mismatch; dt_sum is fine).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_cpu();
  static const int64_t errors_per_batch[5] = {0, 2, 1, 0, 3};
  dt_tensor *errs = dt_from_ints(dev, errors_per_batch, 1, (const int64_t[]){5});

  dt_tensor *total = dt_sum(errs);
  int64_t t = 0;
  dt_read_ints(total, &t, 1);
  printf("total errors: %lld\n", (long long)t);

  dt_tensor *avg = dt_mean(errs); // expect-error: kind-mismatch
  float a = 0;
  dt_read_floats(avg, &a, 1);
  printf("average: %f\n", (double)a);

  dt_free(avg);
  dt_free(total);
  dt_free(errs);
  return 0;
}
