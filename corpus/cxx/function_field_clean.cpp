// corpus/cxx/function_field_clean.cpp — ensemble members whose predictor is a std::function
// field, set by aggregate initialization from a lambda and later replaced by assigning another
// lambda. The first predictor would move its input to the simulator, but it is replaced before
// any member is scored; the replacement stays on the CPU like the targets. Clean.
#include <cstdio>
#include <functional>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Member {
  const char *name;
  std::function<dt_tensor *(const dt_tensor *)> predict;
  float weight;
};

static void score(const Member &m, const dt_tensor *x, const dt_tensor *y) {
  dt_tensor *pred = m.predict(x);
  dt_tensor *loss = dt_mse_loss(pred, y);
  std::printf("%s %lld\n", m.name, (long long)dt_numel(loss));
  dt_free(loss);
  dt_free(pred);
}

int main() {
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *y = dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape);
  Member m{"moved", [](const dt_tensor *in) { return dt_to_device(in, dt_sim(0)); }, 1.0f};
  m.predict = [](const dt_tensor *in) { return dt_relu(in); };
  score(m, x, y);
  dt_free(y);
  dt_free(x);
  return 0;
}
