// corpus/basics/cat_mixed_kinds_bug.c — building a feature matrix from numeric and categorical
// columns: the categorical column is an int tensor and is concatenated with float features.
// Bug: dt_cat of float and int elements (kind-mismatch).
#include <stdio.h>

#include <dt/dt.h>

int main(void) {
  dt_device dev = dt_sim(1);
  static const float numeric[8] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};
  static const int64_t category[4] = {1, 0, 2, 1};
  dt_tensor *num = dt_from_floats(dev, numeric, 2, (const int64_t[]){4, 2});
  dt_tensor *cat = dt_from_ints(dev, category, 2, (const int64_t[]){4, 1});

  dt_tensor *cols[2] = {num, cat};
  dt_tensor *features = dt_cat(2, cols, 1); // expect-error: kind-mismatch
  printf("features: %lld columns\n", (long long)dt_dim(features, 1));

  dt_free(features);
  dt_free(cat);
  dt_free(num);
  return 0;
}
