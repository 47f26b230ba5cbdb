// corpus/cxx/container_flow_clean.cpp — standard containers of tensors used the way real
// training code uses them, correctly: a per-device cache looked up with find() (which element
// a key finds is not known: no guess), a std::vector cleared and refilled on another device
// (clear() forgets what it held), layers made with std::make_unique and walked with a
// range-for on their own device, a std::map iterated with structured bindings whose values
// all live where the input does, an element overwritten in place with the same device, and a
// std::vector of std::function holding a lambda that would mix devices but is never called.
// Clean.
#include <cstdio>
#include <functional>
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
  dt_tensor *forward(const dt_tensor *x) const { return dt_matmul(x, w_); }

 private:
  dt_tensor *w_;
};

class DeviceCache {
 public:
  const dt_tensor *get(dt_device d) {
    char name[32];
    dt_device_name(d, name, sizeof name);
    auto it = rows_.find(name);
    if (it == rows_.end()) it = rows_.emplace(name, dt_ones(d, DT_FLOAT, 2, kShape)).first;
    return it->second;
  }
  ~DeviceCache() {
    for (auto &[name, t] : rows_) dt_free(t);
  }

 private:
  std::map<std::string, dt_tensor *> rows_;
};

int main(int argc, char **argv) {
  (void)argv;
  DeviceCache cache;
  dt_tensor *host = dt_ones(dt_cpu(), DT_FLOAT, 2, kShape);
  dt_tensor *sim = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  dt_tensor *h1 = dt_add(host, cache.get(dt_cpu()));
  dt_tensor *s1 = dt_add(sim, cache.get(dt_sim(0)));

  std::vector<dt_tensor *> batch;
  batch.push_back(dt_full(dt_sim(0), 1.0f, 2, kShape));
  dt_tensor *s2 = dt_mul(sim, batch[0]);
  for (dt_tensor *t : batch) dt_free(t);
  batch.clear();
  batch.push_back(dt_full(dt_cpu(), 2.0f, 2, kShape));
  dt_tensor *h2 = dt_mul(host, batch.front());

  std::vector<std::unique_ptr<Layer>> layers;
  for (int i = 0; i < argc + 1; i++) layers.push_back(std::make_unique<Layer>(dt_sim(0), 1u));
  dt_tensor *cur = dt_add_scalar(sim, 0.0f);
  for (const auto &layer : layers) {
    dt_tensor *next = layer->forward(cur);
    dt_free(cur);
    cur = next;
  }

  std::map<std::string, dt_tensor *> stats;
  stats["mean"] = dt_mean(host);
  stats["sum"] = dt_sum(host);
  for (const auto &[name, v] : stats) {
    dt_tensor *w = dt_mul(v, v);
    std::printf("%s %lld\n", name.c_str(), (long long)dt_numel(w));
    dt_free(w);
  }

  std::vector<dt_tensor *> moving;
  moving.push_back(dt_zeros(dt_sim(1), DT_FLOAT, 2, kShape));
  dt_tensor *old = moving[0];
  moving[0] = dt_add_scalar(old, 1.0f);
  dt_free(old);
  dt_tensor *s3 = dt_add(moving[0], moving.back());

  std::vector<std::function<dt_tensor *(const dt_tensor *)>> probes;
  probes.push_back([host](const dt_tensor *x) { return dt_matmul(x, host); });

  std::printf("%d %d %d %d %d %d %zu\n", h1 != nullptr, s1 != nullptr, s2 != nullptr,
              h2 != nullptr, cur != nullptr, s3 != nullptr, probes.size());
  for (auto &entry : stats) dt_free(entry.second);
  for (dt_tensor *t : batch) dt_free(t);
  dt_free(moving[0]);
  dt_free(s3);
  dt_free(cur);
  dt_free(h2);
  dt_free(s2);
  dt_free(s1);
  dt_free(h1);
  dt_free(sim);
  dt_free(host);
  return 0;
}
