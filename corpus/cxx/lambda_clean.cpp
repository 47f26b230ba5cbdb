// corpus/cxx/lambda_clean.cpp — the same step, but the lambda captures the device by value
// (`[=]` copies sim:0 where the lambda is written), so reassigning dev afterwards changes
// nothing; a second lambda that would mix devices is written but never called, and one with an
// early return is called before the real work. Clean.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

int main() {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 3, 2, kShape);
  dt_tensor *host = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  auto numel = [](const dt_tensor *t) -> long long {
    if (!t) return 0;
    return (long long)dt_numel(t);
  };
  std::printf("%lld\n", numel(w));
  auto step = [=](int i) {
    dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, kShape);
    dt_tensor *y = dt_matmul(x, w);
    std::printf("step %d: %lld\n", i, numel(y));
    dt_free(y);
    dt_free(x);
  };
  auto never = [&]() { return dt_add(host, w); };
  (void)never;
  step(0);
  dev = dt_sim(1);
  step(1);
  dt_free(host);
  dt_free(w);
  return 0;
}
