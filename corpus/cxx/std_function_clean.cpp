// corpus/cxx/std_function_clean.cpp — a batch source kept in a std::function made from a
// lambda that captures the model by reference and makes each batch on the model's device;
// the model survives the calls (a std::function call runs the lambda, not an unknown call).
// Clean.
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
    return dt_full(m.dev, (float)i, 2, kShape);
  };
  for (int step = 0; step < 2; ++step) {
    dt_tensor *x = next_batch(step);
    dt_tensor *y = dt_matmul(x, m.w);
    std::printf("%lld\n", (long long)dt_numel(y));
    dt_free(y);
    dt_free(x);
  }
  dt_free(m.w);
  return 0;
}
