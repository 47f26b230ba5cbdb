// corpus/cxx/range_for_warn.cpp — an evaluation loop over the devices of a pipeline with a
// range-for (`for (const dt_device &d : stages)`): each stage's activations are made on its
// device, but the weights stay on the first stage's. The loop's element is one of the array's,
// which one depends on the iteration. Bug: a warning (device-mismatch on the second stage).
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

int main() {
  const dt_device stages[2] = {dt_sim(0), dt_sim(1)};
  dt_tensor *w = dt_randn(stages[0], 5, 2, kShape);
  for (const dt_device &d : stages) {
    dt_tensor *x = dt_ones(d, DT_FLOAT, 2, kShape);
    dt_tensor *y = dt_matmul(x, w); // expect-warning: device-mismatch
    std::printf("%lld\n", (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  }
  dt_free(w);
  return 0;
}
