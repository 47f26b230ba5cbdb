// corpus/cxx/range_for_clean.cpp — the same pipeline; each stage moves the weights to its own
// device before using them, so every iteration agrees whichever stage it is. Clean.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

int main() {
  const dt_device stages[2] = {dt_sim(0), dt_sim(1)};
  dt_tensor *w = dt_randn(stages[0], 5, 2, kShape);
  for (const dt_device &d : stages) {
    dt_tensor *x = dt_ones(d, DT_FLOAT, 2, kShape);
    dt_tensor *wd = dt_to_device(w, d);
    dt_tensor *y = dt_matmul(x, wd);
    std::printf("%lld\n", (long long)dt_numel(y));
    dt_free(y);
    dt_free(wd);
    dt_free(x);
  }
  dt_free(w);
  return 0;
}
