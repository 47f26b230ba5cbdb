// blind round d15 — data-parallel worker: a prefetching DataLoader and a model replica.
// run-args: --rank 1 --steps 2
//
// Each worker's loader prefetches its shard onto sim:<rank> and normalises it there with a
// lambda (the mean/scale tensors are made on the loader's own device). The model replica,
// though, is always built on autodiff<sim:0>: with --rank 1 the first batch wrapped into the
// model, and the host-less validation pass, meet a sim:1 tensor on a sim:0 model.
#include <dt/dt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

struct TensorDeleter {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using TensorPtr = std::unique_ptr<dt_tensor, TensorDeleter>;
using Shape = std::vector<int64_t>;

constexpr int kFeatures = 4;
constexpr int kBatch = 3;
constexpr int kHidden = 5;

struct Options {
  int rank = 0;
  int steps = 3;
  int prefetch = 2;
  float lr = 0.1f;
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--rank" && i + 1 < argc) o.rank = std::strcmp(argv[++i], "1") == 0 ? 1 : 0;
    else if (a == "--steps" && i + 1 < argc) o.steps = std::atoi(argv[++i]);
    else if (a == "--prefetch" && i + 1 < argc) o.prefetch = std::atoi(argv[++i]);
  }
  if (o.prefetch < 1) o.prefetch = 1;
  return o;
}

struct Batch {
  TensorPtr x;  // [kBatch, kFeatures]
  TensorPtr y;  // [kBatch, 1]
};

class ShardDataset {
 public:
  ShardDataset(int rank, int world) : rank_(rank), world_(world) {}
  // Host rows for batch `index` of this shard.
  void fill(int index, std::vector<float> &x, std::vector<float> &y) const {
    x.resize(kBatch * kFeatures);
    y.resize(kBatch);
    for (int i = 0; i < kBatch; i++) {
      int row = (index * kBatch + i) * world_ + rank_;
      float t = 0.0f;
      for (int j = 0; j < kFeatures; j++) {
        float v = static_cast<float>((row * 13 + j * 7) % 17);
        x[static_cast<size_t>(i * kFeatures + j)] = v;
        t += (j % 2 ? 0.02f : -0.03f) * v;
      }
      y[static_cast<size_t>(i)] = t;
    }
  }

 private:
  int rank_, world_;
};

template <typename Transform>
class DataLoader {
 public:
  DataLoader(const ShardDataset &ds, dt_device target, int prefetch, Transform tf)
      : ds_(ds), target_(target), prefetch_(prefetch), tf_(std::move(tf)) {}

  Batch next() {
    while (static_cast<int>(queue_.size()) < prefetch_) queue_.push_back(load(cursor_++));
    Batch b = std::move(queue_.front());
    queue_.pop_front();
    return b;
  }

  dt_device device() const { return target_; }

 private:
  Batch load(int index) {
    std::vector<float> x, y;
    ds_.fill(index, x, y);
    TensorPtr raw(dt_from_floats(target_, x.data(), 2, Shape{kBatch, kFeatures}.data()));
    Batch b;
    b.x.reset(tf_(raw.get()));
    b.y.reset(dt_from_floats(target_, y.data(), 2, Shape{kBatch, 1}.data()));
    return b;
  }

  const ShardDataset &ds_;
  dt_device target_;
  int prefetch_;
  Transform tf_;
  std::deque<Batch> queue_;
  int cursor_ = 0;
};

// Standardisation done on the loader's device, with constants allocated there.
auto make_normalizer(dt_device dev) {
  std::vector<float> mean(kFeatures, 8.0f), inv_std(kFeatures, 0.2f);
  auto m = std::make_shared<TensorPtr>(dt_from_floats(dev, mean.data(), 1, Shape{kFeatures}.data()));
  auto s = std::make_shared<TensorPtr>(dt_from_floats(dev, inv_std.data(), 1, Shape{kFeatures}.data()));
  return [m, s](const dt_tensor *x) -> dt_tensor * {
    TensorPtr centered(dt_sub(x, m->get()));
    return dt_mul(centered.get(), s->get());
  };
}

class Replica {
 public:
  explicit Replica(dt_device ad) : dev_(ad) {
    dt_device inner = dt_inner_device(ad);
    w1_ = leaf(inner, 71, Shape{kFeatures, kHidden});
    w2_ = leaf(inner, 72, Shape{kHidden, 1});
  }

  float train_step(const Batch &b, float lr) {
    TensorPtr x(dt_from_inner(dev_, b.x.get())); // expect-warning: device-mismatch
    TensorPtr y(dt_from_inner(dev_, b.y.get())); // expect-warning: device-mismatch
    if (!x || !y) return 0.0f;
    TensorPtr pred = forward(x.get(), w1_.get(), w2_.get());
    TensorPtr loss(dt_mse_loss(pred.get(), y.get()));
    float lv = 0.0f;
    dt_read_floats(loss.get(), &lv, 1);
    dt_backward(loss.get());
    update(w1_, lr);
    update(w2_, lr);
    return lv;
  }

  // Validation without autodiff: plain inner weights against plain loader batches.
  float validate(const Batch &b) const {
    TensorPtr w1(dt_inner(w1_.get())), w2(dt_inner(w2_.get()));
    TensorPtr h0(dt_matmul(b.x.get(), w1.get())); // expect-warning: device-mismatch
    if (!h0) return 0.0f;
    TensorPtr h(dt_tanh(h0.get()));
    TensorPtr pred(dt_matmul(h.get(), w2.get()));
    TensorPtr loss(dt_mse_loss(pred.get(), b.y.get()));
    float lv = 0.0f;
    dt_read_floats(loss.get(), &lv, 1);
    return lv;
  }

 private:
  TensorPtr leaf(dt_device inner, uint64_t seed, const Shape &s) {
    TensorPtr r(dt_randn(inner, seed, static_cast<int>(s.size()), s.data()));
    TensorPtr sc(dt_mul_scalar(r.get(), 0.3f));
    return TensorPtr(dt_require_grad(dt_from_inner(dev_, sc.get())));
  }

  static TensorPtr forward(const dt_tensor *x, const dt_tensor *w1, const dt_tensor *w2) {
    TensorPtr h0(dt_matmul(x, w1));
    TensorPtr h(dt_tanh(h0.get()));
    return TensorPtr(dt_matmul(h.get(), w2));
  }

  void update(TensorPtr &w, float lr) {
    TensorPtr g(dt_grad(w.get()));
    if (!g) return;
    TensorPtr inner(dt_inner(w.get()));
    TensorPtr d(dt_mul_scalar(g.get(), lr));
    TensorPtr wn(dt_sub(inner.get(), d.get()));
    w.reset(dt_require_grad(dt_from_inner(dev_, wn.get())));
  }

  dt_device dev_;
  TensorPtr w1_, w2_;
};

}  // namespace

int main(int argc, char **argv) {
  Options opt = parse(argc, argv);
  dt_device local = dt_sim(opt.rank);
  ShardDataset shard(opt.rank, 2);
  DataLoader<std::function<dt_tensor *(const dt_tensor *)>> loader(shard, local, opt.prefetch,
                                                                  make_normalizer(local));
  Replica model(dt_autodiff(dt_sim(0)));
  for (int step = 0; step < opt.steps; step++) {
    Batch b = loader.next();
    std::printf("rank %d step %d: loss %.4f\n", opt.rank, step, model.train_step(b, opt.lr));
  }
  Batch val = loader.next();
  std::printf("rank %d validation: %.4f\n", opt.rank, model.validate(val));
  return 0;
}
