// corpus/cxx/optional_cache_bug.cpp — a key cache held in std::optional<dt_tensor *>: filled by
// emplace on the first step, read back with operator* / value() once has_value() says so. The
// cache was filled on the CPU while the new keys are computed on the simulator.
// Bug: backend-mismatch where the cached keys meet the new ones.
#include <cstdio>
#include <optional>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Cache {
  std::optional<dt_tensor *> keys;
};

int main() {
  Cache c;
  if (!c.keys.has_value()) c.keys.emplace(dt_zeros(dt_cpu(), DT_FLOAT, 2, kShape));
  dt_tensor *k = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  if (c.keys) {
    dt_tensor *sum = dt_add(*c.keys, k); // expect-error: backend-mismatch
    std::printf("%lld\n", (long long)dt_numel(sum));
    dt_free(sum);
  }
  dt_free(k);
  return 0;
}
