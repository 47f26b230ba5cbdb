// provenance: blind round d11
// run-args: --features age,clicks --device sim1
// Ranking-model scorer over a small feature store. Each requested feature column is built
// once (memoised in an unordered_map), projected to the embedding width by its own weight, and
// the projections are summed and scored. --features picks the columns, --device the backend.
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace rank {

constexpr int64_t kUsers = 8;
constexpr int64_t kDim = 6;
constexpr int64_t kCountries = 5;

class FeatureStore {
 public:
  explicit FeatureStore(dt_device d) : dev_(d) {}
  ~FeatureStore() {
    for (auto &kv : cache_) dt_free(kv.second);
  }
  FeatureStore(const FeatureStore &) = delete;
  FeatureStore &operator=(const FeatureStore &) = delete;

  // returns a borrowed column; built on first use
  const dt_tensor *column(const std::string &name) {
    auto it = cache_.find(name);
    if (it != cache_.end()) return it->second;
    dt_tensor *t = build(name);
    cache_.emplace(name, t);
    return t;
  }
  size_t cached() const { return cache_.size(); }
  dt_device device() const { return dev_; }

 private:
  dt_tensor *build(const std::string &name) const {
    const int64_t col[2] = {kUsers, 1};
    if (name == "age") {
      float v[kUsers];
      for (int i = 0; i < kUsers; i++) v[i] = (float)(18 + i * 6) / 60.0f;
      return dt_from_floats(dev_, v, 2, col);
    }
    if (name == "clicks") {
      int64_t v[kUsers];
      for (int i = 0; i < kUsers; i++) v[i] = (i * 37) % 11;
      return dt_from_ints(dev_, v, 2, col);
    }
    if (name == "country") {
      std::vector<float> onehot(kUsers * kCountries, 0.0f);
      for (int i = 0; i < kUsers; i++) onehot[(size_t)(i * kCountries + (i * 3) % kCountries)] = 1.0f;
      const int64_t s[2] = {kUsers, kCountries};
      return dt_from_floats(dev_, onehot.data(), 2, s);
    }
    if (name == "tenure") {
      float v[kUsers];
      for (int i = 0; i < kUsers; i++) v[i] = (float)((i * 5) % 7) / 7.0f;
      return dt_from_floats(dev_, v, 2, col);
    }
    throw std::invalid_argument("unknown feature '" + name + "'");
  }

  dt_device dev_;
  std::unordered_map<std::string, dt_tensor *> cache_;
};

class Projection {
 public:
  Projection(dt_device d, int64_t in, uint64_t seed) {
    const int64_t s[2] = {in, kDim};
    dt_tensor *r = dt_randn(d, seed, 2, s);
    w_ = dt_mul_scalar(r, 0.5f);
    dt_free(r);
  }
  ~Projection() { dt_free(w_); }
  dt_tensor *operator()(const dt_tensor *column) const {
    return dt_matmul(column, w_); // expect-warning: kind-mismatch
  }

 private:
  dt_tensor *w_;
};

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

int64_t width_of(const std::string &name) { return name == "country" ? kCountries : 1; }

}  // namespace rank

int main(int argc, char **argv) {
  std::string features = "age,tenure";
  dt_device dev = dt_cpu();
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--features")) features = argv[i + 1];
    else if (!std::strcmp(argv[i], "--device"))
      dev = !std::strcmp(argv[i + 1], "sim0") ? dt_sim(0)
            : !std::strcmp(argv[i + 1], "sim1") ? dt_sim(1) : dt_cpu();
  }

  rank::FeatureStore store(dev);
  std::unordered_map<std::string, std::unique_ptr<rank::Projection>> projections;
  std::vector<std::string> names = rank::split(features, ',');
  if (names.empty()) names.push_back("age");

  dt_tensor *acc = nullptr;
  try {
    uint64_t seed = 1;
    for (const std::string &n : names) {
      const dt_tensor *col = store.column(n);
      auto &proj = projections[n];
      if (!proj) proj = std::make_unique<rank::Projection>(dev, rank::width_of(n), seed++);
      dt_tensor *e = (*proj)(col);
      if (!acc) {
        acc = e;
      } else {
        dt_tensor *s = dt_add(acc, e);
        dt_free(acc);
        dt_free(e);
        acc = s;
      }
    }
  } catch (const std::invalid_argument &ex) {
    std::fprintf(stderr, "%s\n", ex.what());
    dt_free(acc);
    return 2;
  }

  dt_tensor *h = dt_tanh(acc);
  dt_tensor *scores = dt_sum_dim(h, 1);
  dt_tensor *host = dt_to_device(scores, dt_cpu());
  float out[rank::kUsers];
  dt_read_floats(host, out, rank::kUsers);
  std::printf("%zu feature columns cached; scores:", store.cached());
  for (float v : out) std::printf(" %.3f", v);
  std::printf("\n");
  dt_free(acc); dt_free(h); dt_free(scores); dt_free(host);
  return 0;
}
