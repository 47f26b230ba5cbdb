// corpus/cxx/uncalled_lambda_clean.cpp — an evaluation loop next to a debugging helper that is
// kept around but never called (`(void)debug_backward`). The helper would need an autodiff
// tensor, but a lambda's body runs only where its closure is called (SPEC §7): no finding.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

int main() {
  dt_device dev = dt_sim(0);
  dt_tensor *w = dt_randn(dev, 3, 2, kShape);
  auto debug_backward = [](dt_tensor *pred) {
    dt_tensor *inner = dt_inner(pred);
    dt_tensor *s = dt_sum(inner);
    dt_backward(s);
    dt_free(s);
    dt_free(inner);
  };
  (void)debug_backward;
  auto eval = [&](int i) {
    dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, kShape);
    dt_tensor *y = dt_matmul(x, w);
    std::printf("eval %d: %lld\n", i, (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  };
  eval(0);
  eval(1);
  dt_free(w);
  return 0;
}
