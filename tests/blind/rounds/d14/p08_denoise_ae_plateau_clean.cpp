// Denoising autoencoder: corruption noise drawn on the training device, Lion optimizer with
// momentum beside each weight, ReduceLROnPlateau, best-epoch checkpoints kept on the host in a
// std::map, a device switch after --switch-at epochs, and the best checkpoint restored onto
// --eval-device for a final reconstruction check.
// run-args: --train cpu --then sim1 --switch-at 2 --epochs 6 --eval-device sim0
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int64_t X = 8, Z = 3, B = 6;

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor *t) : t_(t, dt_free) {}
  dt_tensor *get() const { return t_.get(); }
  explicit operator bool() const { return static_cast<bool>(t_); }
 private:
  std::shared_ptr<dt_tensor> t_;
};

dt_device by_name(const std::string &s) {
  if (s == "sim0") return dt_sim(0);
  if (s == "sim1") return dt_sim(1);
  if (s == "cuda") return dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_sim(0);
  return dt_cpu();
}

struct Weight {
  std::string name;
  Tensor value, momentum, tracked;
};

class Autoencoder {
 public:
  explicit Autoencoder(dt_device d) : dev_(d) {
    int64_t e[2] = {X, Z}, dsh[2] = {Z, X};
    add("enc", Tensor(dt_mul_scalar(dt_randn(d, 5, 2, e), 0.4f)));
    add("dec", Tensor(dt_mul_scalar(dt_randn(d, 6, 2, dsh), 0.4f)));
  }
  dt_device device() const { return dev_; }

  Tensor reconstruct(const Tensor &x, bool train) {
    dt_device ad = dt_autodiff(dev_);
    auto use = [&](Weight &w) {
      if (!train) return w.value;
      w.tracked = Tensor(dt_require_grad(dt_from_inner(ad, w.value.get())));
      return w.tracked;
    };
    Tensor h(dt_tanh(Tensor(dt_matmul(x.get(), use(w_[0]).get())).get()));
    return Tensor(dt_sigmoid(Tensor(dt_matmul(h.get(), use(w_[1]).get())).get()));
  }

  void lion(float lr, float b1 = 0.9f, float b2 = 0.99f) {
    for (Weight &w : w_) {
      Tensor g(dt_grad(w.tracked.get()));
      w.tracked = Tensor();
      if (!g) continue;
      Tensor mix(dt_add(Tensor(dt_mul_scalar(w.momentum.get(), b1)).get(), Tensor(dt_mul_scalar(g.get(), 1 - b1)).get()));
      Tensor sign(dt_tanh(Tensor(dt_mul_scalar(mix.get(), 500.0f)).get()));
      w.value = Tensor(dt_sub(w.value.get(), Tensor(dt_mul_scalar(sign.get(), lr)).get()));
      w.momentum = Tensor(dt_add(Tensor(dt_mul_scalar(w.momentum.get(), b2)).get(), Tensor(dt_mul_scalar(g.get(), 1 - b2)).get()));
    }
  }

  void to(dt_device d) {
    for (Weight &w : w_) {
      w.value = Tensor(dt_to_device(w.value.get(), d));
      w.momentum = Tensor(dt_to_device(w.momentum.get(), d));
    }
    dev_ = d;
  }

  std::map<std::string, std::vector<float>> state_dict() const {
    std::map<std::string, std::vector<float>> out;
    for (const Weight &w : w_) {
      std::vector<float> buf((size_t)dt_numel(w.value.get()));
      dt_read_floats(w.value.get(), buf.data(), (int64_t)buf.size());
      out[w.name] = std::move(buf);
    }
    return out;
  }

  void load(const std::map<std::string, std::vector<float>> &sd) {
    for (Weight &w : w_) {
      int64_t s[2] = {dt_dim(w.value.get(), 0), dt_dim(w.value.get(), 1)};
      w.value = Tensor(dt_from_floats(dev_, sd.at(w.name).data(), 2, s));
      w.momentum = Tensor(dt_zeros(dev_, DT_FLOAT, 2, s));
    }
  }

 private:
  void add(const std::string &n, Tensor v) {
    int64_t s[2] = {dt_dim(v.get(), 0), dt_dim(v.get(), 1)};
    w_.push_back({n, v, Tensor(dt_zeros(dev_, DT_FLOAT, 2, s)), Tensor()});
  }
  dt_device dev_;
  std::vector<Weight> w_;
};

struct Plateau {
  float best = std::numeric_limits<float>::max(), factor = 0.5f;
  int patience = 1, bad = 0;
  std::function<void(float)> on_reduce;
  float observe(float metric, float lr) {
    if (metric < best - 1e-4f) { best = metric; bad = 0; return lr; }
    if (++bad > patience) { bad = 0; lr *= factor; if (on_reduce) on_reduce(lr); }
    return lr;
  }
};

std::vector<float> clean_batch(int seed) {
  std::vector<float> x(B * X);
  for (int r = 0; r < B; r++)
    for (int k = 0; k < X; k++) x[(size_t)(r * X + k)] = ((k + r + seed) % 4 < 2) ? 0.9f : 0.1f;
  return x;
}

}  // namespace

int main(int argc, char **argv) {
  std::string train = "cpu", then = "cpu", eval = "cpu";
  int switch_at = -1, epochs = 4;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    if (k == "--train") train = argv[i + 1];
    else if (k == "--then") then = argv[i + 1];
    else if (k == "--switch-at") switch_at = std::atoi(argv[i + 1]);
    else if (k == "--epochs") epochs = std::atoi(argv[i + 1]);
    else if (k == "--eval-device") eval = argv[i + 1];
  }
  Autoencoder ae(by_name(train));
  Plateau sched;
  int reductions = 0;
  sched.on_reduce = [&reductions](float lr) { reductions++; std::printf("  lr -> %.4f\n", lr); };
  std::map<std::string, std::vector<float>> best;
  float best_loss = std::numeric_limits<float>::max(), lr = 0.02f;
  int64_t xs[2] = {B, X};
  for (int e = 0; e < epochs; e++) {
    if (e == switch_at) ae.to(by_name(then));
    dt_device ad = dt_autodiff(ae.device());
    float total = 0.0f;
    for (int b = 0; b < 3; b++) {
      std::vector<float> host = clean_batch(e * 3 + b);
      Tensor clean(dt_from_floats(ad, host.data(), 2, xs));
      Tensor noise(dt_from_inner(ad, dt_mul_scalar(dt_randn(ae.device(), 1000 + (uint64_t)(e * 3 + b), 2, xs), 0.2f)));
      Tensor noisy(dt_add(clean.get(), noise.get()));
      Tensor loss(dt_mse_loss(ae.reconstruct(noisy, true).get(), clean.get()));
      float lv = 0.0f;
      dt_read_floats(loss.get(), &lv, 1);
      total += lv / 3.0f;
      dt_backward(loss.get());
      ae.lion(lr);
    }
    lr = sched.observe(total, lr);
    if (total < best_loss) { best_loss = total; best = ae.state_dict(); }
    std::printf("epoch %d loss %.4f\n", e, total);
  }
  Autoencoder evaluator(by_name(eval));
  if (!best.empty()) evaluator.load(best);
  std::vector<float> host = clean_batch(7);
  Tensor x(dt_from_floats(evaluator.device(), host.data(), 2, xs));
  Tensor err(dt_mse_loss(evaluator.reconstruct(x, false).get(), x.get()));
  float ev = 0.0f;
  dt_read_floats(err.get(), &ev, 1);
  std::printf("eval reconstruction %.4f (best train %.4f, %d lr reductions)\n", ev, best_loss, reductions);
  return 0;
}
