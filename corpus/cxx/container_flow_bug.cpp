// corpus/cxx/container_flow_bug.cpp — tensors travel through standard containers and come back
// out of them: a std::vector filled by push_back and read by operator[] at an index the
// analyzer does not know, a std::map written by operator[] and iterated with structured
// bindings, a std::deque read by back(), a std::vector<std::unique_ptr<Layer>> made with
// std::make_unique and walked by a range-for that calls each layer, and a std::vector of
// structs holding tensors read by at(). Every element of each container is on one device, so
// what comes out is on that device whichever element it is. Bugs: backend-mismatch,
// device-mismatch.
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Layer {
 public:
  explicit Layer(dt_device d, uint64_t seed) : w_(dt_randn(d, seed, 2, kShape)) {}
  ~Layer() { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) const {
    return dt_matmul(x, w_); // expect-error: device-mismatch
  }

 private:
  dt_tensor *w_;
};

struct Param {
  std::string name;
  dt_tensor *value;
};

static size_t pick(size_t n) { return n > 1 ? n - 1 : 0; }

int main(int argc, char **argv) {
  (void)argv;
  dt_tensor *host = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);

  std::vector<dt_tensor *> weights;
  for (int i = 0; i < 3; i++) weights.push_back(dt_randn(dt_sim(0), (uint64_t)i, 2, kShape));
  size_t k = pick((size_t)argc + weights.size());
  dt_tensor *a = dt_matmul(host, weights[k % weights.size()]); // expect-error: backend-mismatch

  std::map<std::string, dt_tensor *> by_name;
  by_name["bias"] = dt_zeros(dt_sim(1), DT_FLOAT, 2, kShape);
  by_name["scale"] = dt_ones(dt_sim(1), DT_FLOAT, 2, kShape);
  for (auto &[name, t] : by_name) {
    dt_tensor *s = dt_add(host, t); // expect-error: backend-mismatch
    std::printf("%s %lld\n", name.c_str(), (long long)dt_numel(s));
    dt_free(s);
  }

  std::deque<dt_tensor *> recent;
  recent.push_front(dt_full(dt_sim(0), 0.5f, 2, kShape));
  dt_tensor *m = dt_mul(recent.back(), host); // expect-error: backend-mismatch

  std::vector<std::unique_ptr<Layer>> layers;
  layers.push_back(std::make_unique<Layer>(dt_sim(1), 7u));
  layers.emplace_back(std::make_unique<Layer>(dt_sim(1), 8u));
  dt_tensor *x = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  for (const auto &layer : layers) {
    dt_tensor *y = layer->forward(x);
    dt_free(y);
  }

  std::vector<Param> params;
  params.push_back(Param{"w", dt_randn(dt_sim(0), 3u, 2, kShape)});
  dt_tensor *d = dt_sub(params.at(0).value, host); // expect-error: backend-mismatch

  std::printf("%d %d %d %d\n", a == nullptr, m == nullptr, d == nullptr, x != nullptr);
  for (dt_tensor *w : weights) dt_free(w);
  for (auto &entry : by_name) dt_free(entry.second);
  dt_free(recent.front());
  dt_free(params[0].value);
  dt_free(x);
  dt_free(host);
  return 0;
}
