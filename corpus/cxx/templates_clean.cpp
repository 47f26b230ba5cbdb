// corpus/cxx/templates_clean.cpp — the same templates; every element comes from the holder,
// and a template that would mix devices (mix<T>) is never instantiated: its pattern, with the
// dependent values unknown, yields nothing. Clean.
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
  for (int i = 1; i < N; i++) acc = dt_add(acc, ts[i]);
  return acc;
}

template <typename T>
dt_tensor *mix(const T &a, const T &b) {
  return dt_add(a.make(1), b.make(2));
}

int main() {
  Holder<float> h(dt_sim(0));
  Holder<int> hi(dt_sim(0));
  dt_tensor *ts[3] = {h.make(1.0f), h.make(2.0f), hi.make(3)};
  dt_tensor *s = sum_all(ts);
  std::printf("%lld\n", (long long)dt_numel(s));
  return 0;
}
