// corpus/cxx/emplace_owned_bug.cpp — a KV cache whose entries own their tensors through a small
// RAII class: the keys are kept in a std::optional<Owned> made in place by emplace(handle), the
// per-layer values in a std::vector<Owned> filled by emplace_back(handle). The cache is moved to
// the CPU while the new keys are computed on the simulator.
// Bug: backend-mismatch where the cached keys are concatenated with the new ones.
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
  dt_tensor *k0 = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  e.keys.emplace(dt_to_device(k0, dt_cpu()));
  e.values.emplace_back(dt_zeros(dt_sim(0), DT_FLOAT, 2, kShape));
  dt_tensor *k = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *parts[2] = {e.keys->p, k};
  dt_tensor *all = dt_cat(2, parts, 0); // expect-error: backend-mismatch
  std::printf("%lld %zu\n", (long long)dt_numel(all), e.values.size());
  dt_free(all);
  dt_free(k);
  dt_free(k0);
  return 0;
}
