// corpus/basics/precedence_backend_before_kind_bug.c — SPEC §4 precedence: a float tensor on
// cpu and an int tensor on sim:1. Kinds differ too, but the backend rule is decided first.
// Bug: weighting per-example losses by integer repeat counts kept on the accelerator
// (backend-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  static const float per_example[4] = {0.2f, 0.4f, 0.1f, 0.9f};
  static const int64_t repeats[4] = {1, 2, 1, 3};
  dt_tensor *losses = dt_from_floats(dt_cpu(), per_example, 1, (const int64_t[]){4});
  dt_tensor *counts = dt_from_ints(dt_sim(1), repeats, 1, (const int64_t[]){4});

  dt_tensor *weighted = dt_mul(losses, counts); // expect-error: backend-mismatch
  dt_tensor *total = dt_sum(weighted);
  float t = 0;
  dt_read_floats(total, &t, 1);
  printf("weighted loss %f\n", (double)t);

  dt_free(total);
  dt_free(weighted);
  dt_free(counts);
  dt_free(losses);
  return 0;
}
