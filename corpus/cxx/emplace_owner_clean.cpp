// corpus/cxx/emplace_owner_clean.cpp — a stack of layers owned as
// std::vector<std::unique_ptr<Layer>>, filled by emplace_back(new Layer(...)) on sim:0, and a
// head made by std::make_unique on sim:0 too, while Layer's device defaults to the host (a
// default that no layer uses). Clean.
#include <cstdio>
#include <memory>
#include <vector>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Layer {
 public:
  explicit Layer(uint64_t seed, dt_device d = dt_cpu()) : w_(dt_randn(d, seed, 2, kShape)) {}
  ~Layer() { dt_free(w_); }
  Layer(const Layer &) = delete;
  Layer &operator=(const Layer &) = delete;
  dt_tensor *forward(const dt_tensor *x) const { return dt_matmul(x, w_); }

 private:
  dt_tensor *w_;
};

int main() {
  std::vector<std::unique_ptr<Layer>> stack;
  for (int i = 0; i < 2; ++i) stack.emplace_back(new Layer(static_cast<uint64_t>(i), dt_sim(0)));
  std::unique_ptr<Layer> head = std::make_unique<Layer>(7, dt_sim(0));
  dt_tensor *h = dt_ones(dt_sim(0), DT_FLOAT, 2, kShape);
  for (const auto &layer : stack) {
    dt_tensor *next = layer->forward(h);
    dt_free(h);
    h = next;
  }
  dt_tensor *y = head->forward(h);
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(h);
  return 0;
}
