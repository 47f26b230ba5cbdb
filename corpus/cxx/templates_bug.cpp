// corpus/cxx/templates_bug.cpp — a generic holder (class template) and a function template
// summing an array of handles of any length; both are analyzed as instantiated (Holder<float>,
// sum_all<3>). One tensor of the array was made on the host. Bug: backend-mismatch inside the
// template's instantiation (a warning: it fails on the last of the loop's iterations).
#include <cstdio>

#include <dt/dt.h>

static const int64_t kShape[1] = {4};

template <typename T>
class Holder {
 public:
  explicit Holder(dt_device d) : dev_(d) {}
  dt_tensor *make(T value) const { return dt_full(dev_, static_cast<float>(value), 1, kShape); }

 private:
  dt_device dev_;
};

template <int N>
static dt_tensor *sum_all(dt_tensor *(&ts)[N]) {
  dt_tensor *acc = ts[0];
  for (int i = 1; i < N; i++) acc = dt_add(acc, ts[i]); // expect-warning: backend-mismatch
  return acc;
}

int main() {
  Holder<float> h(dt_sim(0));
  dt_tensor *ts[3] = {h.make(1.0f), h.make(2.0f), dt_ones(dt_cpu(), DT_FLOAT, 1, kShape)};
  dt_tensor *s = sum_all(ts);
  std::printf("%lld\n", (long long)dt_numel(s));
  return 0;
}
