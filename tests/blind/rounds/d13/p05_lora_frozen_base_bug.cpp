// LoRA fine-tuning: a "pretrained" two-layer network is loaded from host blobs into a
// std::unordered_map of frozen base weights on the training device; each layer gets trainable
// low-rank adapters A (in x r) and B (r x out) on the autodiff device; biases are trained too
// (as PEFT's bias="all").  After training the
// adapters are merged into the base weights (W + alpha/r * A B) for export.
//
//   usage: p05 [DEVICE] [EPOCHS] [RANK]      DEVICE: cpu|sim0|sim1|cuda
// run-args: sim1 3 2
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct Free {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using T = std::unique_ptr<dt_tensor, Free>;

struct Blob {
  std::vector<float> data;
  std::vector<int64_t> shape;
};

using Pretrained = std::unordered_map<std::string, Blob>;

Pretrained fake_pretrained(int64_t in, int64_t hid, int64_t out) {
  Pretrained p;
  auto fill = [](Blob &b, std::vector<int64_t> shape, float f) {
    b.shape = shape;
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    b.data.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) b.data[size_t(i)] = 0.3f * std::sin(f * float(i + 1));
  };
  fill(p["l0.weight"], {in, hid}, 0.7f);
  fill(p["l0.bias"], {hid}, 1.1f);
  fill(p["l1.weight"], {hid, out}, 0.5f);
  fill(p["l1.bias"], {out}, 1.9f);
  return p;
}

class LoraLinear {
 public:
  LoraLinear(dt_device ad, const dt_tensor *w, const dt_tensor *b, int rank, float alpha,
             uint64_t seed)
      : ad_(ad), w_(w), scale_(alpha / float(rank)) {
    const int64_t in = dt_dim(w, 0), out = dt_dim(w, 1);
    dt_device plain = dt_inner_device(ad);
    const int64_t as[2] = {in, int64_t(rank)}, bs[2] = {int64_t(rank), out};
    T r(dt_randn(plain, seed, 2, as));
    T rs(dt_mul_scalar(r.get(), 0.1f));
    T z(dt_zeros(plain, DT_FLOAT, 2, bs));
    T bc(dt_mul_scalar(b, 1.0f));
    b_ = T(dt_require_grad(dt_from_inner(ad, bc.get())));
    a_ = T(dt_require_grad(dt_from_inner(ad, rs.get())));
    bm_ = T(dt_require_grad(dt_from_inner(ad, z.get())));
  }

  T forward(const dt_tensor *x) const {
    T base(dt_matmul(x, w_)); // expect-error: autodiff-expected
    T xa(dt_matmul(x, a_.get()));
    T xab(dt_matmul(xa.get(), bm_.get()));
    T delta(dt_mul_scalar(xab.get(), scale_));
    T sum(dt_add(base.get(), delta.get()));
    return T(dt_add(sum.get(), b_.get()));
  }

  void sgd(float lr) {
    for (T *p : {&a_, &bm_, &b_}) {
      T g(dt_grad(p->get()));
      if (!g) continue;
      T in(dt_inner(p->get()));
      T st(dt_mul_scalar(g.get(), lr));
      T nw(dt_sub(in.get(), st.get()));
      *p = T(dt_require_grad(dt_from_inner(ad_, nw.get())));
    }
  }

  T merged() const {
    T a(dt_inner(a_.get())), b(dt_inner(bm_.get()));
    T ab(dt_matmul(a.get(), b.get()));
    T s(dt_mul_scalar(ab.get(), scale_));
    return T(dt_add(w_, s.get()));
  }

 private:
  dt_device ad_;
  const dt_tensor *w_;  // frozen, owned by the model's base table
  float scale_;
  T a_, bm_, b_;
};

class LoraModel {
 public:
  LoraModel(const Pretrained &pre, dt_device plain, int rank) : ad_(dt_autodiff(plain)) {
    for (const auto &kv : pre) {
      const Blob &b = kv.second;
      base_[kv.first] = T(dt_from_floats(plain, b.data.data(), int(b.shape.size()), b.shape.data()));
    }
    for (int l = 0; l < 2; ++l) {
      std::string p = "l" + std::to_string(l);
      layers_.emplace_back(ad_, base_.at(p + ".weight").get(), base_.at(p + ".bias").get(), rank,
                           2.0f * float(rank), 50u + uint64_t(l));
    }
  }

  T forward(const dt_tensor *x) const {
    T h = layers_[0].forward(x);
    T a(dt_relu(h.get()));
    return layers_[1].forward(a.get());
  }

  void sgd(float lr) {
    for (LoraLinear &l : layers_) l.sgd(lr);
  }

  std::vector<T> export_merged() const {
    std::vector<T> out;
    for (const LoraLinear &l : layers_) out.push_back(l.merged());
    return out;
  }

  dt_device device() const { return ad_; }

 private:
  dt_device ad_;
  std::unordered_map<std::string, T> base_;
  std::vector<LoraLinear> layers_;
};

dt_device parse(const std::string &s) {
  if (s == "cpu") return dt_cpu();
  if (s == "sim1") return dt_sim(1);
  if (s == "cuda" && dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  return dt_sim(0);
}

}  // namespace

int main(int argc, char **argv) {
  dt_device dev = parse(argc > 1 ? argv[1] : "sim0");
  int epochs = argc > 2 ? std::atoi(argv[2]) : 4;
  int rank = argc > 3 ? std::atoi(argv[3]) : 4;
  if (rank < 1) rank = 1;

  const int64_t IN = 6, HID = 8, OUT = 3, B = 7;
  Pretrained pre = fake_pretrained(IN, HID, OUT);
  LoraModel model(pre, dev, rank);

  std::vector<float> x(size_t(B * IN)), y(size_t(B * OUT));
  for (int e = 0; e < epochs; ++e) {
    float tot = 0.0f;
    for (int s = 0; s < 6; ++s) {
      for (int64_t i = 0; i < B * IN; ++i) x[size_t(i)] = std::cos(0.11f * float(i + (e * 6 + s) * B * IN));
      for (int64_t r = 0; r < B; ++r)
        for (int64_t c = 0; c < OUT; ++c) y[size_t(r * OUT + c)] = 0.4f * x[size_t(r * IN + c)];
      const int64_t xs[2] = {B, IN}, ys[2] = {B, OUT};
      T xt(dt_from_floats(model.device(), x.data(), 2, xs));
      T yt(dt_from_floats(model.device(), y.data(), 2, ys));
      T pred = model.forward(xt.get());
      T loss(dt_mse_loss(pred.get(), yt.get()));
      T li(dt_inner(loss.get()));
      float lv = 0.0f;
      if (li) dt_read_floats(li.get(), &lv, 1);
      tot += lv;
      if (loss && dt_backward(loss.get()) == 0) model.sgd(0.05f);
    }
    std::printf("epoch %d loss %.5f\n", e, tot / 6.0f);
  }

  std::vector<T> merged = model.export_merged();
  for (size_t i = 0; i < merged.size(); ++i) {
    std::vector<float> host(size_t(dt_numel(merged[i].get())));
    dt_read_floats(merged[i].get(), host.data(), int64_t(host.size()));
    double s = 0;
    for (float v : host) s += double(v) * v;
    std::printf("merged layer %zu: %zu values, |W| %.4f\n", i, host.size(), std::sqrt(s));
  }
  return 0;
}
