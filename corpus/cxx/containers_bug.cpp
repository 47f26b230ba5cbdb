// corpus/cxx/containers_bug.cpp — the weights are registered in a std::vector and a std::map
// (which keep copies of the handles) and then used directly; a std::unique_ptr with a custom
// deleter owns the batch, made on the host. Putting a handle into a container does not change
// it, so the mismatch is still seen. Bug: backend-mismatch.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <dt/dt.h>

struct TensorDeleter {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using tensor_ptr = std::unique_ptr<dt_tensor, TensorDeleter>;

static const int64_t kShape[2] = {2, 2};

int main() {
  std::vector<dt_tensor *> registry;
  std::map<std::string, dt_tensor *> by_name;
  dt_tensor *w = dt_randn(dt_sim(0), 1, 2, kShape);
  registry.push_back(w);
  by_name.emplace("w", w);
  dt_tensor *batch = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  tensor_ptr x(batch);
  dt_tensor *y = dt_matmul(batch, w); // expect-error: backend-mismatch
  std::printf("%lld %zu\n", (long long)dt_numel(y), registry.size() + by_name.size());
  return 0;
}
