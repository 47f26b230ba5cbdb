// corpus/cxx/vector_count_cache_clean.cpp — a per-layer cache held in a std::vector sized by its
// count constructor in a member initializer (`k_(layers)`): its slots start NULL, so the first
// append of each layer moves the new keys to the cache's home (the cpu) and every later one
// concatenates the cached keys with the new ones, made on the model's device (sim:1).
// Clean: the new keys are moved to the cache's home before they are concatenated.
#include <cstdio>
#include <vector>

#include <dt/dt.h>

class KeyCache {
 public:
  KeyCache(int layers, dt_device home) : home_(home), keys_(layers) {}
  ~KeyCache() {
    for (dt_tensor *k : keys_) dt_free(k);
  }

  void append(int layer, dt_tensor *k_new) {
    if (!keys_[layer]) {
      keys_[layer] = dt_to_device(k_new, home_);
      return;
    }
    dt_tensor *moved = dt_to_device(k_new, home_);
    dt_tensor *parts[2] = {keys_[layer], moved};
    dt_tensor *grown = dt_cat(2, parts, 0);
    dt_free(moved);
    dt_free(keys_[layer]);
    keys_[layer] = grown;
  }

  int64_t length(int layer) const { return keys_[layer] ? dt_dim(keys_[layer], 0) : 0; }

 private:
  dt_device home_;
  std::vector<dt_tensor *> keys_;
};

class Decoder {
 public:
  Decoder(dt_device d, int layers) : dev_(d), layers_(layers), cache_(layers, dt_cpu()) {}

  void step(uint64_t seed) {
    const int64_t shape[2] = {1, 8};
    for (int l = 0; l < layers_; l++) {
      dt_tensor *k = dt_randn(dev_, seed + (uint64_t)l, 2, shape);
      cache_.append(l, k);
      dt_free(k);
    }
  }
  int64_t cached(int layer) const { return cache_.length(layer); }

 private:
  dt_device dev_;
  int layers_;
  KeyCache cache_;
};

int main() {
  Decoder dec(dt_sim(1), 2);
  for (uint64_t t = 0; t < 4; t++) dec.step(10 * t);
  std::printf("cached positions: %lld\n", (long long)dec.cached(0));
  return 0;
}
