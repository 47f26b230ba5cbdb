// corpus/cxx/lambda_bug.cpp — a training step written with lambdas: `step` captures the
// device by reference, the loop switches the device to sim:1 before the second call, while the
// weights stay on sim:0. A lambda with an early `return` runs first (its return does not end
// main). Bug: device-mismatch inside the lambda, on its second call.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

int main() {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 3, 2, kShape);
  auto numel = [](const dt_tensor *t) -> long long {
    if (!t) return 0;
    return (long long)dt_numel(t);
  };
  std::printf("%lld\n", numel(w));
  auto step = [&](int i) {
    dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, kShape);
    dt_tensor *y = dt_matmul(x, w); // expect-error: device-mismatch
    std::printf("step %d: %lld\n", i, numel(y));
    dt_free(y);
    dt_free(x);
  };
  step(0);
  dev = dt_sim(1);
  step(1);
  dt_free(w);
  return 0;
}
