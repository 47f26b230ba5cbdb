// p12_posenc_cache_warn.cpp — a tiny sequence regressor (token embedding + positional
// encoding + projection) trained on an autodiff device chosen by the TRAIN_DEVICE environment
// variable through a std::map<std::string, dt_device> registry ("cpu", "sim0", "sim1";
// sim0 when unset). A PositionalCache (a function-local static std::unique_ptr) builds the
// sinusoid-like table once and hands out the same tensor to every caller.
// Mistake: the cache is built on a fixed default device, autodiff<sim:0>, not on the model's
// device. With TRAIN_DEVICE=sim1 the add of embeddings and positions is a device-mismatch;
// with TRAIN_DEVICE=cpu it is an autodiff-inner-backend mismatch. Unset (or sim0): clean.
// run-env: TRAIN_DEVICE=sim1
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int64_t kSeq = 6, kDim = 4;

const std::map<std::string, dt_device> &registry() {
  static const std::map<std::string, dt_device> r = {
      {"cpu", dt_cpu()}, {"sim0", dt_sim(0)}, {"sim1", dt_sim(1)}};
  return r;
}

dt_device train_device() {
  const char *env = std::getenv("TRAIN_DEVICE");
  const std::string key = env ? env : "sim0";
  auto it = registry().find(key);
  if (it == registry().end())
    throw std::runtime_error("unknown TRAIN_DEVICE " + key);
  return dt_autodiff(it->second);
}

class PositionalCache {
 public:
  static const PositionalCache &get() {
    static std::unique_ptr<PositionalCache> inst(new PositionalCache(dt_autodiff(dt_sim(0))));
    return *inst;
  }
  ~PositionalCache() { dt_free(table_); }
  const dt_tensor *table() const { return table_; }

 private:
  explicit PositionalCache(dt_device d) {
    std::vector<float> v(kSeq * kDim);
    for (int64_t p = 0; p < kSeq; p++)
      for (int64_t i = 0; i < kDim; i++)
        v[p * kDim + i] = (i % 2 == 0) ? std::sin(p / std::pow(10.0f, i / 2.0f))
                                       : std::cos(p / std::pow(10.0f, (i - 1) / 2.0f));
    const int64_t shape[2] = {kSeq, kDim};
    dt_tensor *plain = dt_from_floats(dt_inner_device(d), v.data(), 2, shape);
    table_ = dt_from_inner(d, plain);
    dt_free(plain);
  }
  dt_tensor *table_ = nullptr;
};

class SeqRegressor {
 public:
  explicit SeqRegressor(dt_device ad) : dev_(ad) {
    const int64_t es[2] = {kSeq, kDim}, ps[2] = {kDim, 1};
    emb_ = trainable(dt_randn(dt_inner_device(ad), 8, 2, es), 0.1f);
    proj_ = trainable(dt_randn(dt_inner_device(ad), 9, 2, ps), 0.5f);
  }
  ~SeqRegressor() {
    dt_free(emb_);
    dt_free(proj_);
  }
  SeqRegressor(const SeqRegressor &) = delete;
  SeqRegressor &operator=(const SeqRegressor &) = delete;

  dt_tensor *forward(const dt_tensor *tokens) const {
    const PositionalCache &pe = PositionalCache::get();
    dt_tensor *scaled = dt_mul(tokens, emb_);
    dt_tensor *with_pos = dt_add(scaled, pe.table()); // expect-warning: device-mismatch, autodiff-inner-backend
    dt_tensor *act = dt_tanh(with_pos);
    dt_tensor *out = dt_matmul(act, proj_);
    for (dt_tensor *t : {scaled, with_pos, act})
      dt_free(t);
    return out;
  }

  void sgd(float lr) {
    for (dt_tensor **slot : {&emb_, &proj_}) {
      dt_tensor *g = dt_grad(*slot);
      if (!g)
        continue;
      dt_tensor *inner = dt_inner(*slot);
      dt_tensor *d = dt_mul_scalar(g, lr);
      dt_tensor *next = dt_sub(inner, d);
      dt_free(*slot);
      *slot = dt_require_grad(dt_from_inner(dev_, next));
      for (dt_tensor *t : {g, inner, d, next})
        dt_free(t);
    }
  }
  dt_device device() const { return dev_; }

 private:
  dt_tensor *trainable(dt_tensor *plain, float scale) {
    dt_tensor *s = dt_mul_scalar(plain, scale);
    dt_tensor *t = dt_require_grad(dt_from_inner(dev_, s));
    dt_free(plain);
    dt_free(s);
    return t;
  }
  dt_device dev_;
  dt_tensor *emb_ = nullptr;
  dt_tensor *proj_ = nullptr;
};

dt_tensor *make_input(dt_device ad, int step, bool target) {
  std::vector<float> v(target ? kSeq : kSeq * kDim);
  for (size_t i = 0; i < v.size(); i++)
    v[i] = target ? static_cast<float>((static_cast<int>(i) + step) % 3) * 0.5f
                  : 1.0f + 0.1f * static_cast<float>((static_cast<int>(i) * 3 + step) % 4);
  const int64_t xs[2] = {kSeq, kDim}, ys[2] = {kSeq, 1};
  dt_tensor *plain = dt_from_floats(dt_inner_device(ad), v.data(), 2, target ? ys : xs);
  dt_tensor *t = dt_from_inner(ad, plain);
  dt_free(plain);
  return t;
}

}  // namespace

int main() {
  dt_device dev;
  try {
    dev = train_device();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  SeqRegressor model(dev);
  for (int step = 0; step < 3; step++) {
    dt_tensor *x = make_input(model.device(), step, false);
    dt_tensor *y = make_input(model.device(), step, true);
    dt_tensor *pred = model.forward(x);
    dt_tensor *loss = dt_mse_loss(pred, y);
    if (dt_backward(loss) != 0) {
      std::fprintf(stderr, "backward failed: %s\n", dt_last_error());
      return 1;
    }
    float l = 0.0f;
    dt_read_floats(loss, &l, 1);
    model.sgd(0.2f);
    std::printf("step %d loss %.5f\n", step, l);
    for (dt_tensor *t : {x, y, pred, loss})
      dt_free(t);
  }
  return 0;
}
