// provenance: regression (default-constructed containers are empty)
// A batch list starts empty; when no loader filled it (its size is 0), a fallback batch is
// made. The list is made empty and nothing fills it before the test, so the
// fallback is taken on every path. Clean: the fallback batch is made on the weight's device.
#include <dt/dt.h>

#include <cstdio>
#include <vector>

struct Model {
  dt_tensor *w;
};

static dt_tensor *forward(const Model &m, const dt_tensor *x) {
  return dt_matmul(x, m.w);
}

int main() {
  const int64_t sw[2] = {3, 2}, sx[2] = {4, 3};
  Model m{dt_ones(dt_sim(0), DT_FLOAT, 2, sw)};
  std::vector<dt_tensor *> batches;
  const int64_t n = (int64_t)batches.size();
  dt_tensor *b = n > 0 ? batches[0] : dt_ones(dt_device_of(m.w), DT_FLOAT, 2, sx);
  dt_tensor *y = forward(m, b);
  std::printf("%s\n", y ? "ok" : "failed");
  dt_free(y);
  dt_free(b);
  dt_free(m.w);
  return 0;
}
