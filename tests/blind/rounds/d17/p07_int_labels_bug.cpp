// p07_int_labels_bug.cpp — a multi-label tagger trained on autodiff<sim:0>. The model is a
// Sequential of std::unique_ptr<Layer> (Linear, Activation); a Dataset class yields batches
// whose features are float and whose targets come from the annotation files as int64 class
// flags. A Trainer owns the model, runs SGD and tracks the loss.
// Mistake: the targets are built with dt_from_ints on the model's device and fed straight
// into dt_mse_loss next to the float predictions: kind-mismatch on every step (the devices
// agree, so the kind check is the one that fails).
#include <dt/dt.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int64_t kIn = 6, kHidden = 5, kTags = 3, kBatch = 4;

struct Layer {
  virtual ~Layer() = default;
  virtual dt_tensor *forward(const dt_tensor *x) = 0;
  virtual void params(std::vector<dt_tensor **> &out) { (void)out; }
  virtual std::string name() const = 0;
};

class Linear : public Layer {
 public:
  Linear(dt_device ad, int64_t in, int64_t out, uint64_t seed) {
    const int64_t ws[2] = {in, out};
    const int64_t bs[1] = {out};
    dt_device plain = dt_inner_device(ad);
    dt_tensor *w = dt_randn(plain, seed, 2, ws);
    dt_tensor *ws_scaled = dt_mul_scalar(w, 0.3f);
    w_ = dt_require_grad(dt_from_inner(ad, ws_scaled));
    b_ = dt_require_grad(dt_zeros(ad, DT_FLOAT, 1, bs));
    dt_free(w);
    dt_free(ws_scaled);
  }
  ~Linear() override {
    dt_free(w_);
    dt_free(b_);
  }
  dt_tensor *forward(const dt_tensor *x) override {
    dt_tensor *xw = dt_matmul(x, w_);
    dt_tensor *y = dt_add(xw, b_);
    dt_free(xw);
    return y;
  }
  void params(std::vector<dt_tensor **> &out) override {
    out.push_back(&w_);
    out.push_back(&b_);
  }
  std::string name() const override { return "linear"; }

 private:
  dt_tensor *w_ = nullptr;
  dt_tensor *b_ = nullptr;
};

class Activation : public Layer {
 public:
  explicit Activation(bool sigmoid) : sigmoid_(sigmoid) {}
  dt_tensor *forward(const dt_tensor *x) override { return sigmoid_ ? dt_sigmoid(x) : dt_relu(x); }
  std::string name() const override { return sigmoid_ ? "sigmoid" : "relu"; }

 private:
  bool sigmoid_;
};

class Sequential {
 public:
  void add(std::unique_ptr<Layer> l) { layers_.push_back(std::move(l)); }
  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *h = dt_mul_scalar(x, 1.0f);
    for (const auto &l : layers_) {
      dt_tensor *next = l->forward(h);
      dt_free(h);
      h = next;
    }
    return h;
  }
  std::vector<dt_tensor **> parameters() const {
    std::vector<dt_tensor **> out;
    for (const auto &l : layers_)
      l->params(out);
    return out;
  }
  size_t size() const { return layers_.size(); }

 private:
  std::vector<std::unique_ptr<Layer>> layers_;
};

struct Batch {
  dt_tensor *features = nullptr;
  dt_tensor *targets = nullptr;
  Batch() = default;
  Batch(const Batch &) = delete;
  Batch &operator=(const Batch &) = delete;
  Batch(Batch &&o) noexcept : features(o.features), targets(o.targets) {
    o.features = o.targets = nullptr;
  }
  ~Batch() {
    dt_free(features);
    dt_free(targets);
  }
};

class Dataset {
 public:
  explicit Dataset(dt_device ad) : dev_(ad) {}
  Batch get(int index) const {
    std::vector<float> xs(kBatch * kIn);
    std::vector<int64_t> flags(kBatch * kTags);
    for (int64_t i = 0; i < kBatch; i++) {
      for (int64_t j = 0; j < kIn; j++)
        xs[i * kIn + j] = static_cast<float>((index + i * 3 + j) % 7) * 0.2f - 0.6f;
      for (int64_t t = 0; t < kTags; t++)
        flags[i * kTags + t] = (i + t + index) % 2;
    }
    const int64_t xshape[2] = {kBatch, kIn};
    const int64_t yshape[2] = {kBatch, kTags};
    Batch b;
    dt_tensor *xp = dt_from_floats(dt_inner_device(dev_), xs.data(), 2, xshape);
    b.features = dt_from_inner(dev_, xp);
    b.targets = dt_from_ints(dev_, flags.data(), 2, yshape);
    dt_free(xp);
    return b;
  }
  int size() const { return 5; }

 private:
  dt_device dev_;
};

class Trainer {
 public:
  Trainer(Sequential &model, float lr) : model_(model), lr_(lr) {}
  float step(const Batch &b) {
    dt_tensor *pred = model_.forward(b.features);
    dt_tensor *loss = dt_mse_loss(pred, b.targets); // expect-error: kind-mismatch
    float value = -1.0f;
    if (loss && dt_backward(loss) == 0) {
      dt_read_floats(loss, &value, 1);
      for (dt_tensor **slot : model_.parameters())
        update(slot);
    }
    dt_free(pred);
    dt_free(loss);
    return value;
  }

 private:
  void update(dt_tensor **slot) {
    dt_tensor *g = dt_grad(*slot);
    if (!g)
      return;
    dt_device ad = dt_device_of(*slot);
    dt_tensor *inner = dt_inner(*slot);
    dt_tensor *delta = dt_mul_scalar(g, lr_);
    dt_tensor *next = dt_sub(inner, delta);
    dt_free(*slot);
    *slot = dt_require_grad(dt_from_inner(ad, next));
    for (dt_tensor *t : {g, inner, delta, next})
      dt_free(t);
  }
  Sequential &model_;
  float lr_;
};

}  // namespace

int main() {
  const dt_device dev = dt_autodiff(dt_sim(0));
  Sequential model;
  model.add(std::make_unique<Linear>(dev, kIn, kHidden, 11));
  model.add(std::make_unique<Activation>(false));
  model.add(std::make_unique<Linear>(dev, kHidden, kTags, 12));
  model.add(std::make_unique<Activation>(true));

  Dataset data(dev);
  Trainer trainer(model, 0.5f);
  for (int epoch = 0; epoch < 2; epoch++) {
    float total = 0.0f;
    for (int i = 0; i < data.size(); i++) {
      Batch b = data.get(i);
      total += trainer.step(b);
    }
    std::printf("epoch %d: mean loss %.5f over %zu layers\n", epoch, total / data.size(),
                model.size());
  }
  return 0;
}
