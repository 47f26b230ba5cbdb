// provenance: blind round cxx1
// Lambdas everywhere: called immediately to build a tensor, stored in auto and called later,
// passed to a helper template, capturing by value and by reference. One lambda, `debug_mix`,
// would mix a cpu and a sim:0 tensor but it is never called: the program is clean.
#include <dt/dt.h>

#include <cstdio>
#include <functional>
#include <vector>

namespace {

template <typename F>
dt_tensor *apply_twice(F f, dt_tensor *x) {
  dt_tensor *once = f(x);
  dt_tensor *twice = f(once);
  dt_free(once);
  return twice;
}

dt_tensor *apply_all(const std::vector<std::function<dt_tensor *(dt_tensor *)>> &fs, dt_tensor *x) {
  dt_tensor *cur = dt_add_scalar(x, 0.0f);
  for (const auto &f : fs) {
    dt_tensor *next = f(cur);
    dt_free(cur);
    cur = next;
  }
  return cur;
}

float read_scalar(dt_tensor *t) {
  float v = 0.0f;
  dt_read_floats(t, &v, 1);
  return v;
}

}  // namespace

int main() {
  const dt_device dev = dt_sim(0);
  const dt_device host = dt_cpu();
  const int64_t shape[] = {2, 3};

  // Immediately invoked: the weight is built on the accelerator.
  dt_tensor *w = [&]() {
    const float vals[] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
    return dt_from_floats(dev, vals, 2, shape);
  }();

  // Stored in auto, captures the device by value.
  auto make_input = [dev, &shape](float fill) { return dt_full(dev, fill, 2, shape); };
  dt_tensor *x = make_input(1.5f);

  // Captures w by reference: always the current weight.
  auto shift = [&w](dt_tensor *t) { return dt_add(t, w); };
  dt_tensor *y = apply_twice(shift, x);

  // A host-side pipeline built from std::function objects, fed a host tensor.
  std::vector<std::function<dt_tensor *(dt_tensor *)>> host_steps;
  dt_tensor *host_bias = dt_full(host, 0.25f, 2, shape);
  host_steps.push_back([host_bias](dt_tensor *t) { return dt_add(t, host_bias); });
  host_steps.push_back([](dt_tensor *t) { return dt_relu(t); });
  host_steps.push_back([](dt_tensor *t) { return dt_mul_scalar(t, 2.0f); });
  dt_tensor *hx = dt_ones(host, DT_FLOAT, 2, shape);
  dt_tensor *hy = apply_all(host_steps, hx);

  // Never called: it would mix the host bias with the accelerator weight.
  auto debug_mix = [&]() { return dt_add(host_bias, w); };
  (void)sizeof(debug_mix);

  // The host result is moved to the accelerator before the two meet.
  dt_tensor *hy_dev = [&] { return dt_to_device(hy, dev); }();
  dt_tensor *both = dt_add(y, hy_dev);
  dt_tensor *s = dt_sum(both);
  std::printf("sum = %.3f\n", read_scalar(s));

  auto cleanup = [](std::initializer_list<dt_tensor *> ts) {
    for (dt_tensor *t : ts) dt_free(t);
  };
  cleanup({w, x, y, host_bias, hx, hy, hy_dev, both, s});
  return 0;
}
