// provenance: blind round d11
// Inference server for a small bag-of-words classifier. Layers are placed on the accelerator
// (sim:0) until a per-device parameter budget runs out; a layer that does not fit is offloaded
// to the host (the placement code throws BudgetExceeded and the caller falls back).
// usage: bow_serve [n_requests]
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace serve {

constexpr int64_t kVocab = 64;
constexpr int64_t kEmbed = 16;
constexpr int64_t kHidden = 12;
constexpr int64_t kClasses = 4;
constexpr int64_t kAccelBudget = 600;   // parameters that fit on sim:0

struct BudgetExceeded : std::runtime_error {
  BudgetExceeded(const std::string &what, int64_t need, int64_t left)
      : std::runtime_error(what + ": needs " + std::to_string(need) + ", " +
                           std::to_string(left) + " left"),
        need(need) {}
  int64_t need;
};

class Placement {
 public:
  Placement(dt_device accel, dt_device host, int64_t budget)
      : accel_(accel), host_(host), left_(budget) {}
  dt_device reserve(const std::string &what, int64_t n) {
    if (n > left_) throw BudgetExceeded(what, n, left_);
    left_ -= n;
    return accel_;
  }
  dt_device host() const { return host_; }
  dt_device accel() const { return accel_; }
  int64_t left() const { return left_; }

 private:
  dt_device accel_, host_;
  int64_t left_;
};

class Layer {
 public:
  explicit Layer(dt_device d) : dev_(d) {}
  virtual ~Layer() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
  virtual std::string describe() const = 0;
  dt_device device() const { return dev_; }

 protected:
  dt_device dev_;
};

class Embedding : public Layer {
 public:
  Embedding(dt_device d, int64_t vocab, int64_t dim) : Layer(d) {
    int64_t s[2] = {vocab, dim};
    table_ = dt_randn(d, 3, 2, s);
  }
  ~Embedding() override { dt_free(table_); }
  // x: [batch, vocab] bag-of-words counts -> [batch, dim]
  dt_tensor *forward(const dt_tensor *x) const override { return dt_matmul(x, table_); }
  std::string describe() const override { return "Embedding"; }

 private:
  dt_tensor *table_;
};

class Dense : public Layer {
 public:
  Dense(dt_device d, int64_t in, int64_t out, bool act) : Layer(d), act_(act) {
    int64_t ws[2] = {in, out};
    dt_tensor *r = dt_randn(d, (uint64_t)(in * 31 + out), 2, ws);
    w_ = dt_mul_scalar(r, 0.25f);
    dt_free(r);
    const int64_t bs[2] = {1, out};
    b_ = dt_full(d, 0.01f, 2, bs);
  }
  ~Dense() override { dt_free(w_); dt_free(b_); }
  dt_tensor *forward(const dt_tensor *x) const override {
    dt_tensor *h = dt_matmul(x, w_); // expect-error: backend-mismatch
    dt_tensor *y = dt_add(h, b_);
    dt_free(h);
    if (!act_) return y;
    dt_tensor *a = dt_relu(y);
    dt_free(y);
    return a;
  }
  std::string describe() const override { return act_ ? "Dense+ReLU" : "Dense"; }

 private:
  dt_tensor *w_, *b_;
  bool act_;
};

template <typename L, typename... Args>
std::unique_ptr<Layer> place(Placement &pl, const std::string &name, int64_t n_params,
                             Args... args) {
  dt_device d;
  try {
    d = pl.reserve(name, n_params);
  } catch (const BudgetExceeded &e) {
    std::fprintf(stderr, "offloading %s to host (%s)\n", name.c_str(), e.what());
    d = pl.host();
  }
  return std::unique_ptr<Layer>(new L(d, args...));
}

class Classifier {
 public:
  explicit Classifier(Placement &pl) {
    layers_.push_back(place<Embedding>(pl, "embed", kVocab * kEmbed, kVocab, kEmbed));
    layers_.push_back(place<Dense>(pl, "fc1", kEmbed * kHidden + kHidden, kEmbed, kHidden, true));
    layers_.push_back(place<Dense>(pl, "fc2", kHidden * kClasses + kClasses, kHidden, kClasses, false));
  }
  // inputs arrive on the host; move them to where the model starts
  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *cur = dt_to_device(x, layers_.front()->device());
    for (const auto &l : layers_) {
      dt_tensor *next = l->forward(cur);
      dt_free(cur);
      cur = next;
    }
    return cur;
  }
  void summary() const {
    for (const auto &l : layers_) {
      char name[32];
      dt_device_name(l->device(), name, sizeof name);
      std::printf("  %-12s on %s\n", l->describe().c_str(), name);
    }
  }

 private:
  std::vector<std::unique_ptr<Layer>> layers_;
};

}  // namespace serve

struct Request {
  int id;
  std::vector<int> tokens;
};

static std::vector<float> bag_of_words(const Request &r) {
  std::vector<float> v(serve::kVocab, 0.0f);
  for (int t : r.tokens) v[(size_t)(t % serve::kVocab)] += 1.0f;
  return v;
}

int main(int argc, char **argv) {
  int n_requests = argc > 1 ? std::atoi(argv[1]) : 5;
  if (n_requests < 1 || n_requests > 100) n_requests = 5;
  serve::Placement pl(dt_sim(0), dt_cpu(), serve::kAccelBudget);
  serve::Classifier clf(pl);
  std::printf("placement (budget left %lld):\n", (long long)pl.left());
  clf.summary();

  std::vector<Request> reqs;
  for (int i = 0; i < n_requests; i++) {
    Request r{i, {}};
    for (int k = 0; k < 6 + i % 3; k++) r.tokens.push_back((i * 17 + k * 5) % 97);
    reqs.push_back(r);
  }
  for (const Request &r : reqs) {
    std::vector<float> bow = bag_of_words(r);
    const int64_t s[2] = {1, serve::kVocab};
    dt_tensor *x = dt_from_floats(pl.host(), bow.data(), 2, s);
    dt_tensor *logits = clf.forward(x);
    dt_tensor *host_logits = dt_to_device(logits, pl.host());
    float out[serve::kClasses];
    dt_read_floats(host_logits, out, serve::kClasses);
    int best = 0;
    for (int c = 1; c < serve::kClasses; c++) if (out[c] > out[best]) best = c;
    std::printf("request %d -> class %d\n", r.id, best);
    dt_free(x); dt_free(logits); dt_free(host_logits);
  }
  return 0;
}
