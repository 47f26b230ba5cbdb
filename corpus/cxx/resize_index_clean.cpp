// corpus/cxx/resize_index_clean.cpp — layer weights kept in a std::vector<dt_tensor *> sized with
// resize(n) (value-initialized: NULL handles, some never set) and filled with operator[] in a
// loop, every layer on the CPU like the input; the forward loop skips the NULL slots. Clean.
#include <cstdio>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[1] = {4};

int main() {
  const int n_layer = 3;
  std::vector<dt_tensor *> weights;
  weights.resize(n_layer + 1);
  for (int i = 0; i < n_layer; i++) weights[i] = dt_ones(dt_cpu(), DT_FLOAT, 1, kShape);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, kShape);
  for (dt_tensor *w : weights) {
    if (!w) continue;
    dt_tensor *y = dt_mul(x, w);
    dt_free(x);
    x = y;
  }
  std::printf("%lld\n", (long long)dt_numel(x));
  for (dt_tensor *w : weights) dt_free(w);
  dt_free(x);
  return 0;
}
