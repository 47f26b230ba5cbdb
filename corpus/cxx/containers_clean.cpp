// corpus/cxx/containers_clean.cpp — tensors kept in standard containers the way training code
// keeps them: a std::vector of handles filled with push_back and read back with operator[] and
// a range-for, a std::map from names to parameters, std::unique_ptr with a custom deleter
// (ggml-cpp.h's idiom), a std::string key and a std::array of shapes. The weights are on
// sim:0 and so is every batch. What comes out of a container is any of what went in (all on
// sim:0 here), and the handles kept outside them keep their tags. Clean.
#include <array>
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

int main() {
  const std::array<int64_t, 2> shape = {2, 2};
  dt_device dev = dt_sim(0);
  std::vector<dt_tensor *> layers;
  std::map<std::string, dt_tensor *> params;
  for (int i = 0; i < 3; i++) {
    dt_tensor *w = dt_randn(dev, (uint64_t)i, 2, shape.data());
    layers.push_back(w);
    params["w" + std::to_string(i)] = w;
  }
  tensor_ptr x(dt_ones(dev, DT_FLOAT, 2, shape.data()));
  dt_tensor *h = dt_matmul(x.get(), layers[0]);
  for (dt_tensor *w : layers) {
    dt_tensor *next = dt_matmul(h, w);
    dt_free(h);
    h = next;
  }
  dt_tensor *b = dt_add(h, params.at("w1"));
  std::printf("%lld %zu\n", (long long)dt_numel(b), layers.size());
  dt_free(b);
  dt_free(h);
  for (dt_tensor *w : layers) dt_free(w);
  return 0;
}
