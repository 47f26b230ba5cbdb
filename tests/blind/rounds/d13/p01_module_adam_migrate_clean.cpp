// Module-style MLP in C++: RAII tensor handles, Linear layers in a std::vector, named
// parameters, Adam with per-name state in an unordered_map, and a range-for data loader.
// Training starts on --from and, at epoch --migrate-at, the model *and* the optimizer move to
// --to; the optimizer moves its own state, keyed by the same names as the model's parameters.
//
//   usage: p01 [--from D] [--to D] [--epochs N] [--migrate-at K]     D: cpu|sim0|sim1|cuda
// run-args: --from sim0 --to cpu --epochs 6 --migrate-at 3
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nn {

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using T = std::unique_ptr<dt_tensor, Free>;

inline T own(dt_tensor *t) {
  if (!t) throw std::runtime_error(dt_last_error());
  return T(t);
}

inline dt_device parse_device(const std::string &s) {
  if (s == "cpu") return dt_cpu();
  if (s == "sim0") return dt_sim(0);
  if (s == "sim1") return dt_sim(1);
  if (s == "cuda") return dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_sim(0);
  throw std::invalid_argument("unknown device " + s);
}

inline std::string name_of(dt_device d) {
  char buf[32];
  dt_device_name(d, buf, sizeof buf);
  return buf;
}

class Linear {
 public:
  Linear(dt_device ad, int64_t in, int64_t out, uint64_t seed) : in_(in), out_(out) {
    dt_device plain = dt_inner_device(ad);
    const int64_t ws[2] = {in, out};
    const int64_t bs[1] = {out};
    T r = own(dt_randn(plain, seed, 2, ws));
    T s = own(dt_mul_scalar(r.get(), 1.0f / std::sqrt(float(in))));
    w_ = own(dt_require_grad(dt_from_inner(ad, s.get())));
    T z = own(dt_zeros(plain, DT_FLOAT, 1, bs));
    b_ = own(dt_require_grad(dt_from_inner(ad, z.get())));
  }

  T forward(const dt_tensor *x) const {
    T z = own(dt_matmul(x, w_.get()));
    return own(dt_add(z.get(), b_.get()));
  }

  T &weight() { return w_; }
  T &bias() { return b_; }

 private:
  int64_t in_, out_;
  T w_, b_;
};

class Mlp {
 public:
  Mlp(dt_device plain, const std::vector<int64_t> &widths) : ad_(dt_autodiff(plain)) {
    for (size_t i = 0; i + 1 < widths.size(); ++i)
      layers_.emplace_back(ad_, widths[i], widths[i + 1], 31 + i);
  }

  T forward(const dt_tensor *x) const {
    T h = own(dt_detach(x));
    for (size_t i = 0; i < layers_.size(); ++i) {
      T z = layers_[i].forward(h.get());
      h = (i + 1 < layers_.size()) ? own(dt_relu(z.get())) : std::move(z);
    }
    return h;
  }

  std::vector<std::pair<std::string, T *>> named_parameters() {
    std::vector<std::pair<std::string, T *>> out;
    for (size_t i = 0; i < layers_.size(); ++i) {
      out.emplace_back("layer" + std::to_string(i) + ".weight", &layers_[i].weight());
      out.emplace_back("layer" + std::to_string(i) + ".bias", &layers_[i].bias());
    }
    return out;
  }

  // Re-homes every parameter as a fresh leaf on autodiff<plain>.
  void to(dt_device plain) {
    dt_device ad = dt_autodiff(plain);
    for (auto &np : named_parameters()) {
      T &p = *np.second;
      T inner = own(dt_inner(p.get()));
      T moved = own(dt_to_device(inner.get(), plain));
      p = own(dt_require_grad(dt_from_inner(ad, moved.get())));
    }
    ad_ = ad;
  }

  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  std::vector<Linear> layers_;
};

class Adam {
 public:
  explicit Adam(float lr, float b1 = 0.9f, float b2 = 0.999f) : lr_(lr), b1_(b1), b2_(b2) {}

  void step(Mlp &model) {
    ++t_;
    const float c1 = 1.0f - std::pow(b1_, float(t_));
    const float c2 = 1.0f - std::pow(b2_, float(t_));
    for (auto &[name, slot] : model.named_parameters()) {
      dt_tensor *gp = dt_grad(slot->get());
      if (!gp) continue;
      T g(gp);
      Moments &st = state_[name];
      if (!st.m) {
        dt_device plain = dt_device_of(g.get());
        std::vector<int64_t> shape;
        for (int a = 0; a < dt_rank(g.get()); ++a) shape.push_back(dt_dim(g.get(), a));
        st.m = own(dt_zeros(plain, DT_FLOAT, int(shape.size()), shape.data()));
        st.v = own(dt_zeros(plain, DT_FLOAT, int(shape.size()), shape.data()));
      }
      T m1 = own(dt_mul_scalar(st.m.get(), b1_));
      T m2 = own(dt_mul_scalar(g.get(), 1.0f - b1_));
      st.m = own(dt_add(m1.get(), m2.get()));
      T gg = own(dt_mul(g.get(), g.get()));
      T v1 = own(dt_mul_scalar(st.v.get(), b2_));
      T v2 = own(dt_mul_scalar(gg.get(), 1.0f - b2_));
      st.v = own(dt_add(v1.get(), v2.get()));

      T vh = own(dt_mul_scalar(st.v.get(), 1.0f / c2));
      T ve = own(dt_add_scalar(vh.get(), 1e-16f));
      T lg = own(dt_log(ve.get()));
      T hl = own(dt_mul_scalar(lg.get(), 0.5f));
      T den = own(dt_exp(hl.get()));
      T de = own(dt_add_scalar(den.get(), 1e-8f));
      T mh = own(dt_mul_scalar(st.m.get(), lr_ / c1));
      T upd = own(dt_div(mh.get(), de.get()));
      T inner = own(dt_inner(slot->get()));
      T nw = own(dt_sub(inner.get(), upd.get()));
      *slot = own(dt_require_grad(dt_from_inner(model.device(), nw.get())));
    }
  }

  void to(dt_device plain) {
    for (auto &kv : state_) {
      if (kv.second.m) kv.second.m = own(dt_to_device(kv.second.m.get(), plain));
      if (kv.second.v) kv.second.v = own(dt_to_device(kv.second.v.get(), plain));
    }
  }

 private:
  struct Moments {
    T m, v;
  };
  std::unordered_map<std::string, Moments> state_;
  float lr_, b1_, b2_;
  int t_ = 0;
};

}  // namespace nn

struct Batch {
  std::vector<float> x, y;
};

class Loader {
 public:
  Loader(int n_batches, int rows, int in, int out, int seed)
      : n_(n_batches), rows_(rows), in_(in), out_(out), seed_(seed) {}

  struct iterator {
    const Loader *l;
    int i;
    bool operator!=(const iterator &o) const { return i != o.i; }
    void operator++() { ++i; }
    Batch operator*() const { return l->make(i); }
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, n_}; }

  int rows() const { return rows_; }

 private:
  Batch make(int i) const {
    Batch b;
    for (int r = 0; r < rows_; ++r) {
      float s = 0.0f;
      for (int c = 0; c < in_; ++c) {
        float v = std::sin(0.1f * float((seed_ + i) * rows_ + r) * float(c + 1));
        b.x.push_back(v);
        s += v;
      }
      for (int c = 0; c < out_; ++c) b.y.push_back(std::tanh(s * float(c + 1) * 0.2f));
    }
    return b;
  }
  int n_, rows_, in_, out_, seed_;
};

int main(int argc, char **argv) {
  std::string from = "sim0", to = "sim1";
  int epochs = 5, migrate_at = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--from") from = v;
    else if (k == "--to") to = v;
    else if (k == "--epochs") epochs = std::atoi(v.c_str());
    else if (k == "--migrate-at") migrate_at = std::atoi(v.c_str());
  }

  try {
    const int64_t IN = 6, OUT = 3;
    nn::Mlp model(nn::parse_device(from), {IN, 16, 16, OUT});
    nn::Adam opt(0.01f);
    const dt_device target = nn::parse_device(to);
    Loader loader(5, 8, int(IN), int(OUT), 7);

    for (int epoch = 0; epoch < epochs; ++epoch) {
      if (epoch == migrate_at) {
        model.to(target);
        opt.to(target);
        std::printf("moved to %s\n", nn::name_of(model.device()).c_str());
      }
      float total = 0.0f;
      int n = 0;
      for (Batch b : loader) {
        const int64_t xs[2] = {loader.rows(), IN}, ys[2] = {loader.rows(), OUT};
        nn::T x = nn::own(dt_from_floats(model.device(), b.x.data(), 2, xs));
        nn::T y = nn::own(dt_from_floats(model.device(), b.y.data(), 2, ys));
        nn::T pred = model.forward(x.get());
        nn::T loss = nn::own(dt_mse_loss(pred.get(), y.get()));
        nn::T li = nn::own(dt_inner(loss.get()));
        float lv = 0.0f;
        dt_read_floats(li.get(), &lv, 1);
        total += lv;
        ++n;
        if (dt_backward(loss.get()) != 0) throw std::runtime_error(dt_last_error());
        opt.step(model);
      }
      std::printf("epoch %d loss %.5f on %s\n", epoch, total / float(n),
                  nn::name_of(model.device()).c_str());
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "training failed: %s\n", e.what());
    return 1;
  }
  return 0;
}
