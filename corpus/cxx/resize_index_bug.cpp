// corpus/cxx/resize_index_bug.cpp — layer weights kept in a std::vector<dt_tensor *> sized with
// resize(n) (value-initialized: NULL handles) and filled with operator[] in a loop; the last
// layer is placed on the simulator by a config flag while the input stays on the CPU.
// Bug: backend-mismatch for the simulator layer in the forward loop (a warning: the loop reads
// any of the layers).
#include <cstdio>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[1] = {4};

int main() {
  const int n_layer = 3;
  std::vector<dt_tensor *> weights;
  weights.resize(n_layer);
  for (int i = 0; i < n_layer; i++)
    weights[i] = dt_ones(i == n_layer - 1 ? dt_sim(0) : dt_cpu(), DT_FLOAT, 1, kShape);
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 1, kShape);
  for (dt_tensor *w : weights) {
    dt_tensor *y = dt_mul(x, w); // expect-warning: backend-mismatch
    if (!y) break;
    dt_free(x);
    x = y;
  }
  std::printf("%lld\n", (long long)dt_numel(x));
  return 0;
}
