// corpus/cxx/uncalled_lambda_bug.cpp — a training step written as lambdas next to a debugging
// helper that is kept around but never called (`(void)debug_backward`): a lambda's body runs only
// where its closure is called, so the helper reports nothing. The step that is called runs
// backward on a loss made on a plain device. Bug: autodiff-expected inside the called lambda.
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

int main() {
  dt_device dev = dt_sim(0); // plain: no autodiff
  dt_tensor *w = dt_randn(dev, 7, 2, kShape);
  auto debug_backward = [](dt_tensor *pred) {
    dt_tensor *inner = dt_inner(pred);
    dt_tensor *s = dt_sum(inner);
    dt_backward(s);
    dt_free(s);
    dt_free(inner);
  };
  (void)debug_backward;
  auto step = [&](int i) {
    dt_tensor *x = dt_ones(dev, DT_FLOAT, 2, kShape);
    dt_tensor *y = dt_matmul(x, w);
    dt_tensor *loss = dt_sum(y);
    dt_backward(loss); // expect-error: autodiff-expected
    std::printf("step %d: %lld\n", i, (long long)dt_numel(y));
    dt_free(loss);
    dt_free(y);
    dt_free(x);
  };
  step(0);
  dt_free(w);
  return 0;
}
