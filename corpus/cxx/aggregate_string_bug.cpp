// corpus/cxx/aggregate_string_bug.cpp — an aggregate whose first member is a std::string,
// brace-initialized: the string takes the first initializer whole (through its constructor),
// so the tensors after it land in their own fields. The weight is on sim:0, the batch on the
// host. Bug: backend-mismatch.
#include <cstdio>
#include <string>

#include <dt/dt.h>

struct Named {
  std::string name;
  dt_tensor *w;
  dt_tensor *b;
};

static const int64_t kShape[2] = {2, 2};

int main() {
  Named layer{"fc1", dt_randn(dt_sim(0), 1, 2, kShape), dt_zeros(dt_sim(0), DT_FLOAT, 2, kShape)};
  Named copy = layer;
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *y = dt_matmul(x, copy.w); // expect-error: backend-mismatch
  std::printf("%s %lld\n", copy.name.c_str(), (long long)dt_numel(y));
  return 0;
}
