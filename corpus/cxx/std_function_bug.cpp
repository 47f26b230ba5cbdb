// corpus/cxx/std_function_bug.cpp — a batch source kept in a std::function made from a lambda
// that captures the model by reference: calling it runs the lambda (the model stays known),
// and the batch it makes is on the host while the model's weight is on sim:0.
// Bug: backend-mismatch.
#include <cstdio>
#include <functional>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Model {
  dt_device dev;
  dt_tensor *w;
};

int main() {
  Model m{dt_sim(0), nullptr};
  m.w = dt_randn(m.dev, 1, 2, kShape);
  std::function<dt_tensor *(int)> next_batch = [&m](int i) {
    (void)m;
    return dt_full(dt_cpu(), (float)i, 2, kShape);
  };
  dt_tensor *x = next_batch(1);
  dt_tensor *y = dt_matmul(x, m.w); // expect-error: backend-mismatch
  std::printf("%lld\n", (long long)dt_numel(y));
  return 0;
}
