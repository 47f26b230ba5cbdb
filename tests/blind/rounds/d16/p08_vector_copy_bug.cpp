// provenance: blind round d16
// p08: an MLP whose layers are small value structs holding shared_ptr handles (copyable, so
// they can be snapshotted cheaply), kept in a std::vector. The model is built on autodiff<cpu>
// and moved to autodiff<sim:0> for training; export() copies it to the host for an
// inference snapshot. Callbacks (std::function) log the loss and drive the LR schedule.
#include <dt/dt.h>

#include <cstdio>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using Handle = std::shared_ptr<dt_tensor>;

static Handle wrap(dt_tensor *t) { return Handle(t, dt_free); }

struct Dims {
  Dims(std::initializer_list<int64_t> l) : n((int)l.size()) {
    int i = 0;
    for (int64_t x : l) v[i++] = x;
  }
  const int64_t *data() const { return v; }
  int64_t v[DT_MAX_RANK] = {0};
  int n;
};

struct Layer {
  std::string name;
  Handle w;
  Handle b;
  bool activation = true;
};

// A fresh trainable leaf on d with the values of h.
static Handle move_param(const Handle &h, dt_device d) {
  Handle moved = wrap(dt_to_device(h.get(), d));
  return wrap(dt_require_grad(dt_detach(moved.get())));
}

class Mlp {
 public:
  Mlp(dt_device d, const std::vector<int64_t> &widths) : device_(d) {
    for (size_t i = 0; i + 1 < widths.size(); i++) {
      Layer l;
      l.name = "layer" + std::to_string(i);
      Handle w0 = wrap(dt_randn(d, 31 + i, 2, Dims{widths[i], widths[i + 1]}.data()));
      l.w = wrap(dt_require_grad(dt_mul_scalar(w0.get(), 0.5f)));
      l.b = wrap(dt_require_grad(dt_zeros(d, DT_FLOAT, 1, Dims{widths[i + 1]}.data())));
      l.activation = i + 2 < widths.size();
      layers_.push_back(l);
    }
  }

  dt_device device() const { return device_; }
  const std::vector<Layer> &layers() const { return layers_; }
  std::vector<Layer> &layers() { return layers_; }

  void to(dt_device d) {
    for (auto layer : layers_) {
      layer.w = move_param(layer.w, d);
      layer.b = move_param(layer.b, d);
    }
    device_ = d;
  }

  // An inference copy on the host: plain tensors, no graph.
  std::vector<Layer> export_host() const {
    std::vector<Layer> out = layers_;
    for (auto &l : out) {
      Handle wi = wrap(dt_inner(l.w.get()));
      Handle bi = wrap(dt_inner(l.b.get()));
      l.w = wrap(dt_to_device(wi.get(), dt_cpu()));
      l.b = wrap(dt_to_device(bi.get(), dt_cpu()));
    }
    return out;
  }

  Handle forward(const Handle &x) const {
    Handle h = x;
    for (const auto &l : layers_) {
      Handle z = wrap(dt_matmul(h.get(), l.w.get())); // expect-error: autodiff-inner-backend
      Handle zb = wrap(dt_add(z.get(), l.b.get()));
      h = l.activation ? wrap(dt_relu(zb.get())) : zb;
    }
    return h;
  }

 private:
  dt_device device_;
  std::vector<Layer> layers_;
};

static Handle host_forward(const std::vector<Layer> &layers, const Handle &x) {
  Handle h = x;
  for (const auto &l : layers) {
    Handle z = wrap(dt_matmul(h.get(), l.w.get()));
    Handle zb = wrap(dt_add(z.get(), l.b.get()));
    h = l.activation ? wrap(dt_relu(zb.get())) : zb;
  }
  return h;
}

struct Hooks {
  std::function<void(int, float)> on_loss;
  std::function<float(int)> lr_at;
};

class Trainer {
 public:
  Trainer(Mlp &m, Hooks hooks) : model_(m), hooks_(std::move(hooks)) {}

  float step(int it, const Handle &x, const Handle &y) {
    Handle pred = model_.forward(x);
    Handle loss = wrap(dt_mse_loss(pred.get(), y.get()));
    dt_backward(loss.get());
    const float lr = hooks_.lr_at ? hooks_.lr_at(it) : 0.01f;
    for (auto &l : model_.layers()) {
      l.w = sgd(l.w, lr);
      l.b = sgd(l.b, lr);
    }
    float v = 0.0f;
    dt_read_floats(loss.get(), &v, 1);
    if (hooks_.on_loss) hooks_.on_loss(it, v);
    return v;
  }

 private:
  Handle sgd(const Handle &p, float lr) {
    Handle g = wrap(dt_grad(p.get()));
    if (!g) return p;
    Handle inner = wrap(dt_inner(p.get()));
    Handle d = wrap(dt_mul_scalar(g.get(), lr));
    Handle next = wrap(dt_sub(inner.get(), d.get()));
    return wrap(dt_require_grad(dt_from_inner(dt_device_of(p.get()), next.get())));
  }

  Mlp &model_;
  Hooks hooks_;
};

static std::pair<Handle, Handle> make_batch(int it, dt_device ad) {
  std::vector<float> x(8 * 4), y(8 * 1);
  for (int r = 0; r < 8; r++) {
    float s = 0.0f;
    for (int c = 0; c < 4; c++) {
      float v = (float)((it * 3 + r * 5 + c * 7) % 10) / 10.0f - 0.45f;
      x[(size_t)(r * 4 + c)] = v;
      s += v * (float)(c + 1);
    }
    y[(size_t)r] = s * 0.25f;
  }
  dt_device plain = dt_inner_device(ad);
  Handle xi = wrap(dt_from_floats(plain, x.data(), 2, Dims{8, 4}.data()));
  Handle yi = wrap(dt_from_floats(plain, y.data(), 2, Dims{8, 1}.data()));
  return {wrap(dt_from_inner(ad, xi.get())), wrap(dt_from_inner(ad, yi.get()))};
}

int main() {
  Mlp model(dt_autodiff(dt_cpu()), {4, 8, 8, 1});
  model.to(dt_autodiff(dt_sim(0)));

  std::vector<float> history;
  Hooks hooks;
  hooks.on_loss = [&history](int, float v) { history.push_back(v); };
  const float base_lr = 0.05f;
  hooks.lr_at = [base_lr](int it) { return it < 4 ? base_lr : base_lr * 0.5f; };

  Trainer trainer(model, hooks);
  for (int it = 0; it < 8; it++) {
    auto batch = make_batch(it, model.device());
    trainer.step(it, batch.first, batch.second);
  }

  std::vector<Layer> snapshot = model.export_host();
  std::vector<float> probe(4, 0.25f);
  Handle px = wrap(dt_from_floats(dt_cpu(), probe.data(), 2, Dims{1, 4}.data()));
  Handle out = host_forward(snapshot, px);
  float o = 0.0f;
  dt_read_floats(out.get(), &o, 1);
  std::printf("%zu steps, first %.4f last %.4f, probe %.4f\n", history.size(),
              history.empty() ? 0.0f : history.front(), history.empty() ? 0.0f : history.back(), o);
  return 0;
}
