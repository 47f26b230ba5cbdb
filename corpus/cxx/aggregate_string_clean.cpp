// corpus/cxx/aggregate_string_clean.cpp — an aggregate whose first member is a std::string,
// brace-initialized and copied: the tensors keep their own fields (the string takes the first
// initializer whole), and the batch is made where the weight is. Clean.
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
  dt_tensor *x = dt_ones(dt_device_of(copy.w), DT_FLOAT, 2, kShape);
  dt_tensor *y = dt_matmul(x, copy.w);
  dt_tensor *z = dt_add(y, copy.b);
  std::printf("%s %lld\n", copy.name.c_str(), (long long)dt_numel(z));
  dt_free(z);
  dt_free(y);
  dt_free(x);
  dt_free(layer.w);
  dt_free(layer.b);
  return 0;
}
