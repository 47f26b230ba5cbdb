// corpus/cxx/emplace_owned_clean.cpp — a KV cache whose entries own their tensors through a small
// RAII class: the keys are kept in a std::optional<Owned> made in place by emplace(handle), the
// per-layer values in a std::vector<Owned> filled by emplace_back(handle). The cache stays on
// the simulator, like the new keys; the values are concatenated with new values on the same
// device. Clean.
#include <cstdio>
#include <optional>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Owned {
  explicit Owned(dt_tensor *t) : p(t) {}
  Owned(Owned &&o) noexcept : p(o.p) { o.p = nullptr; }
  Owned(const Owned &) = delete;
  ~Owned() { dt_free(p); }
  dt_tensor *p;
};

struct Entry {
  std::optional<Owned> keys;
  std::vector<Owned> values;
};

int main() {
  Entry e;
  e.keys.emplace(dt_ones(dt_sim(0), DT_FLOAT, 2, kShape));
  e.values.emplace_back(dt_zeros(dt_sim(0), DT_FLOAT, 2, kShape));
  dt_tensor *k = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *parts[2] = {e.keys->p, k};
  dt_tensor *all = dt_cat(2, parts, 0);
  dt_tensor *vparts[2] = {e.values.back().p, k};
  dt_tensor *vall = dt_cat(2, vparts, 0);
  std::printf("%lld %lld\n", (long long)dt_numel(all), (long long)dt_numel(vall));
  dt_free(vall);
  dt_free(all);
  dt_free(k);
  return 0;
}
