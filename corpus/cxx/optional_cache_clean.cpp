// corpus/cxx/optional_cache_clean.cpp — a key cache held in std::optional<dt_tensor *>: made
// empty, filled by emplace with keys on the simulator like the new ones, read back with
// operator* and value() once has_value() says so. Clean.
#include <cstdio>
#include <optional>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

struct Cache {
  std::optional<dt_tensor *> keys;
};

int main() {
  Cache c;
  if (!c.keys.has_value()) c.keys.emplace(dt_zeros(dt_sim(0), DT_FLOAT, 2, kShape));
  std::optional<dt_tensor *> bias = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *k = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  if (c.keys && bias.has_value()) {
    dt_tensor *sum = dt_add(*c.keys, k);
    dt_tensor *out = dt_add(sum, bias.value());
    std::printf("%lld\n", (long long)dt_numel(out));
    dt_free(out);
    dt_free(sum);
  }
  dt_free(k);
  return 0;
}
