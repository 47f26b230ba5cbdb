// provenance: blind round cxx1
// A complete small training program in the style of a C++ framework:
//  * nn::Layer base class with virtual forward() and parameter slots (dt_tensor **) so an
//    optimizer can replace parameters in place; Linear, Tanh and a Residual block owning its
//    inner layer through std::unique_ptr<Layer>;
//  * template <typename Opt> Trainer with an Sgd optimizer working on dt_inner(param) and the
//    plain gradient, re-wrapping with dt_from_inner;
//  * a learning-rate schedule as a lambda, a metrics callback as std::function;
//  * training on autodiff<sim:1>, export of a std::map<std::string, dt_tensor*> checkpoint to
//    the host, and an evaluation model rebuilt from that checkpoint on a device defaulting to
//    dt_cpu();
//  * exceptions for a missing checkpoint entry, caught around an optional entry.
// Every operation agrees on its device. Clean.
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nn {

using Checkpoint = std::map<std::string, dt_tensor *>;

class Layer {
 public:
  virtual ~Layer() = default;
  virtual dt_tensor *forward(const dt_tensor *x) const = 0;
  virtual void slots(const std::string &prefix, std::vector<std::pair<std::string, dt_tensor **>> &out) = 0;
};

class Linear : public Layer {
 public:
  Linear(dt_device dev, int64_t in, int64_t out, uint64_t seed) {
    const int64_t wshape[] = {in, out};
    const int64_t bshape[] = {1, out};
    dt_tensor *w0 = dt_randn(dev, seed, 2, wshape);
    w_ = dt_mul_scalar(w0, 0.3f);
    dt_free(w0);
    b_ = dt_zeros(dev, DT_FLOAT, 2, bshape);
    if (dev.autodiff) {
      w_ = dt_require_grad(w_);
      b_ = dt_require_grad(b_);
    }
  }
  // Rebuilt from checkpoint entries: takes ownership of moved copies on `dev`.
  Linear(const Checkpoint &ck, const std::string &prefix, dt_device dev = dt_cpu()) {
    w_ = dt_to_device(ck.at(prefix + ".w"), dev);
    b_ = dt_to_device(ck.at(prefix + ".b"), dev);
  }
  ~Linear() override {
    dt_free(w_);
    dt_free(b_);
  }
  dt_tensor *forward(const dt_tensor *x) const override {
    dt_tensor *h = dt_matmul(x, w_);
    dt_tensor *y = dt_add(h, b_);
    dt_free(h);
    return y;
  }
  void slots(const std::string &prefix, std::vector<std::pair<std::string, dt_tensor **>> &out) override {
    out.emplace_back(prefix + ".w", &w_);
    out.emplace_back(prefix + ".b", &b_);
  }

 private:
  dt_tensor *w_ = nullptr;
  dt_tensor *b_ = nullptr;
};

class Tanh : public Layer {
 public:
  dt_tensor *forward(const dt_tensor *x) const override { return dt_tanh(x); }
  void slots(const std::string &, std::vector<std::pair<std::string, dt_tensor **>> &) override {}
};

class Residual : public Layer {
 public:
  explicit Residual(std::unique_ptr<Layer> inner) : inner_(std::move(inner)) {}
  dt_tensor *forward(const dt_tensor *x) const override {
    dt_tensor *f = inner_->forward(x);
    dt_tensor *a = dt_tanh(f);
    dt_tensor *y = dt_add(x, a);
    dt_free(a);
    dt_free(f);
    return y;
  }
  void slots(const std::string &prefix, std::vector<std::pair<std::string, dt_tensor **>> &out) override {
    inner_->slots(prefix + ".inner", out);
  }

 private:
  std::unique_ptr<Layer> inner_;
};

class Net {
 public:
  Net() = default;
  void push(std::unique_ptr<Layer> l) { layers_.push_back(std::move(l)); }
  dt_tensor *forward(const dt_tensor *x) const {
    dt_tensor *cur = dt_add_scalar(x, 0.0f);
    for (const auto &l : layers_) {
      dt_tensor *next = l->forward(cur);
      dt_free(cur);
      cur = next;
    }
    return cur;
  }
  std::vector<std::pair<std::string, dt_tensor **>> slots() {
    std::vector<std::pair<std::string, dt_tensor **>> out;
    for (size_t i = 0; i < layers_.size(); ++i) layers_[i]->slots("layer" + std::to_string(i), out);
    return out;
  }

 private:
  std::vector<std::unique_ptr<Layer>> layers_;
};

std::unique_ptr<Net> build(dt_device dev) {
  auto net = std::make_unique<Net>();
  net->push(std::make_unique<Linear>(dev, 4, 8, 1));
  net->push(std::make_unique<Residual>(std::make_unique<Linear>(dev, 8, 8, 2)));
  net->push(std::make_unique<Tanh>());
  net->push(std::make_unique<Linear>(dev, 8, 1, 3));
  return net;
}

std::unique_ptr<Net> rebuild(const Checkpoint &ck, dt_device dev = dt_cpu()) {
  auto net = std::make_unique<Net>();
  net->push(std::make_unique<Linear>(ck, "layer0", dev));
  net->push(std::make_unique<Residual>(std::make_unique<Linear>(ck, "layer1.inner", dev)));
  net->push(std::make_unique<Tanh>());
  net->push(std::make_unique<Linear>(ck, "layer3", dev));
  return net;
}

}  // namespace nn

namespace optim {

struct Sgd {
  float lr;
  dt_tensor *update(const dt_tensor *inner, const dt_tensor *grad, float scale) const {
    dt_tensor *step = dt_mul_scalar(grad, lr * scale);
    dt_tensor *next = dt_sub(inner, step);
    dt_free(step);
    return next;
  }
};

}  // namespace optim

namespace train {

struct Batch {
  dt_tensor *x = nullptr;
  dt_tensor *y = nullptr;
};

Batch make_batch(dt_device dev, int index) {
  float xs[16], ys[4];
  for (int r = 0; r < 4; ++r) {
    float s = 0.0f;
    for (int c = 0; c < 4; ++c) {
      float v = static_cast<float>(((r + 1) * (c + index + 1)) % 7) / 7.0f;
      xs[r * 4 + c] = v;
      s += v;
    }
    ys[r] = std::sin(s);
  }
  const int64_t xshape[] = {4, 4};
  const int64_t yshape[] = {4, 1};
  return Batch{dt_from_floats(dev, xs, 2, xshape), dt_from_floats(dev, ys, 2, yshape)};
}

void release(Batch &b) {
  dt_free(b.x);
  dt_free(b.y);
  b = Batch{};
}

template <typename Opt>
class Trainer {
 public:
  Trainer(dt_device ad, nn::Net &net, Opt opt) : ad_(ad), net_(net), opt_(opt) {}

  float step(const Batch &b, float scale) {
    dt_tensor *pred = net_.forward(b.x);
    dt_tensor *loss = dt_mse_loss(pred, b.y);
    dt_backward(loss);
    float value = 0.0f;
    dt_read_floats(loss, &value, 1);
    for (auto &slot : net_.slots()) {
      dt_tensor **p = slot.second;
      dt_tensor *g = dt_grad(*p);
      if (!g) continue;
      dt_tensor *inner = dt_inner(*p);
      dt_tensor *next = opt_.update(inner, g, scale);
      dt_free(*p);
      *p = dt_require_grad(dt_from_inner(ad_, next));
      dt_free(next);
      dt_free(inner);
      dt_free(g);
    }
    dt_free(loss);
    dt_free(pred);
    return value;
  }

 private:
  dt_device ad_;
  nn::Net &net_;
  Opt opt_;
};

}  // namespace train

namespace {

nn::Checkpoint export_to_host(nn::Net &net) {
  nn::Checkpoint ck;
  for (auto &slot : net.slots()) {
    dt_tensor *inner = dt_inner(*slot.second);
    ck[slot.first] = dt_to_device(inner, dt_cpu());
    dt_free(inner);
  }
  return ck;
}

float evaluate(const nn::Net &net, dt_device dev) {
  float total = 0.0f;
  for (int i = 0; i < 3; ++i) {
    train::Batch b = train::make_batch(dev, 100 + i);
    dt_tensor *p = net.forward(b.x);
    dt_tensor *l = dt_mse_loss(p, b.y);
    float v = 0.0f;
    dt_read_floats(l, &v, 1);
    total += v;
    dt_free(l);
    dt_free(p);
    train::release(b);
  }
  return total / 3.0f;
}

}  // namespace

int main() {
  const dt_device inner = dt_sim(1);
  const dt_device ad = dt_autodiff(inner);
  std::unique_ptr<nn::Net> net = nn::build(ad);
  train::Trainer<optim::Sgd> trainer(ad, *net, optim::Sgd{0.2f});

  auto schedule = [](int epoch) { return 1.0f / (1.0f + 0.5f * static_cast<float>(epoch)); };
  std::vector<float> history;
  std::function<void(int, float)> on_epoch = [&history](int epoch, float loss) {
    history.push_back(loss);
    std::printf("epoch %d loss %.5f\n", epoch, loss);
  };

  for (int epoch = 0; epoch < 4; ++epoch) {
    float sum = 0.0f;
    for (int i = 0; i < 3; ++i) {
      train::Batch b = train::make_batch(ad, i);
      sum += trainer.step(b, schedule(epoch));
      train::release(b);
    }
    on_epoch(epoch, sum / 3.0f);
  }

  nn::Checkpoint ck = export_to_host(*net);
  std::unique_ptr<nn::Net> host_net = nn::rebuild(ck);
  std::unique_ptr<nn::Net> sim_net = nn::rebuild(ck, dt_sim(0));

  float host_loss = evaluate(*host_net, dt_cpu());
  float sim_loss = evaluate(*sim_net, dt_sim(0));
  std::printf("eval host %.5f sim %.5f\n", host_loss, sim_loss);

  try {
    dt_tensor *extra = dt_to_device(ck.at("layer9.w"), dt_cpu());
    dt_free(extra);
  } catch (const std::out_of_range &) {
    std::printf("no layer9 in checkpoint\n");
  }
  for (auto &kv : ck) dt_free(kv.second);
  return history.size() == 4 ? 0 : 1;
}
