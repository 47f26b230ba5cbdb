// provenance: blind round d12
// run-args: --epochs 2 --batch 4
/* Classifier training with a DataLoader class that stages batches on a device of its own
 * (host by default). The model lives on autodiff<sim:0>. Evaluation counts how many scores
 * exceed the integer class labels' threshold. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

struct Batch {
  dt_tensor *x = nullptr;       // [n, F] float
  dt_tensor *y = nullptr;       // [n, 1] float targets
  dt_tensor *label = nullptr;   // [n, 1] int class ids
  Batch() = default;
  Batch(const Batch &) = delete;
  Batch(Batch &&o) noexcept : x(o.x), y(o.y), label(o.label) { o.x = o.y = o.label = nullptr; }
  ~Batch() {
    dt_free(x);
    dt_free(y);
    dt_free(label);
  }
};

class DataLoader {
 public:
  static constexpr int F = 5;
  DataLoader(int n, int batch, unsigned seed, dt_device dev = dt_cpu()) : batch_(batch), dev_(dev) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    for (int i = 0; i < n; i++) {
      std::vector<float> row(F);
      float s = 0;
      for (int j = 0; j < F; j++) {
        row[j] = nd(rng);
        s += row[j] * (j < 3 ? 1.0f : -1.0f);
      }
      rows_.push_back(row);
      labels_.push_back(s > 0 ? 1 : 0);
    }
  }
  size_t batches() const { return rows_.size() / (size_t)batch_; }
  Batch get(size_t b) const {
    std::vector<float> x, y;
    std::vector<int64_t> lab;
    for (int i = 0; i < batch_; i++) {
      size_t r = b * (size_t)batch_ + (size_t)i;
      x.insert(x.end(), rows_[r].begin(), rows_[r].end());
      y.push_back((float)labels_[r]);
      lab.push_back(labels_[r]);
    }
    const int64_t xs[2] = {batch_, F}, ys[2] = {batch_, 1};
    Batch out;
    out.x = dt_from_floats(dev_, x.data(), 2, xs);
    out.y = dt_from_floats(dev_, y.data(), 2, ys);
    out.label = dt_from_ints(dev_, lab.data(), 2, ys);
    return out;
  }

 private:
  int batch_;
  dt_device dev_;
  std::vector<std::vector<float>> rows_;
  std::vector<int64_t> labels_;
};

class Classifier {
 public:
  explicit Classifier(dt_device base) : base_(base), ad_(dt_autodiff(base)) {
    const int64_t ws[2] = {DataLoader::F, 1}, bs[1] = {1};
    w_ = dt_require_grad(dt_randn(ad_, 17, 2, ws));
    b_ = dt_require_grad(dt_zeros(ad_, DT_FLOAT, 1, bs));
  }
  ~Classifier() {
    dt_free(w_);
    dt_free(b_);
  }
  dt_device device() const { return ad_; }
  dt_device inner() const { return base_; }

  float train_batch(const Batch &bt, float lr) {
    dt_tensor *x = dt_from_inner(ad_, bt.x); // expect-error: autodiff-inner-backend
    dt_tensor *y = dt_from_inner(ad_, bt.y); // expect-error: autodiff-inner-backend
    dt_tensor *h = dt_matmul(x, w_);
    dt_tensor *o = dt_add(h, b_);
    dt_tensor *p = dt_sigmoid(o);
    dt_tensor *loss = dt_mse_loss(p, y);
    float lv = 0;
    if (loss && dt_read_floats(loss, &lv, 1) == 0) dt_backward(loss);
    for (dt_tensor **param : {&w_, &b_}) {
      dt_tensor *g = dt_grad(*param);
      if (!g) continue;
      dt_tensor *cur = dt_inner(*param);
      dt_tensor *st = dt_mul_scalar(g, lr);
      dt_tensor *nx = dt_sub(cur, st);
      dt_free(*param);
      *param = dt_require_grad(dt_from_inner(ad_, nx));
      dt_free(g);
      dt_free(cur);
      dt_free(st);
      dt_free(nx);
    }
    for (dt_tensor *t : {x, y, h, o, p, loss}) dt_free(t);
    return lv;
  }

  // plain inference on the inner device
  int count_correct(const Batch &bt) const {
    dt_tensor *w = dt_inner(w_);
    dt_tensor *b = dt_inner(b_);
    dt_tensor *h = dt_matmul(bt.x, w);
    dt_tensor *o = dt_add(h, b);
    dt_tensor *p = dt_sigmoid(o);
    dt_tensor *pred_pos = dt_greater(p, bt.label); // expect-error: kind-mismatch
    float probs[64];
    int64_t labs[64];
    int n = (int)dt_dim(bt.x, 0), correct = 0;
    if (dt_read_floats(p, probs, n) == 0 && dt_read_ints(bt.label, labs, n) == 0)
      for (int i = 0; i < n; i++) correct += (probs[i] > 0.5f) == (labs[i] == 1);
    for (dt_tensor *t : {w, b, h, o, p, pred_pos}) dt_free(t);
    return correct;
  }

 private:
  dt_device base_, ad_;
  dt_tensor *w_, *b_;
};

int main(int argc, char **argv) {
  int epochs = 3, batch = 8;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batch")) batch = std::atoi(argv[i + 1]);
  }
  if (batch < 1 || batch > 64) batch = 8;
  auto model = std::make_unique<Classifier>(dt_sim(0));
  DataLoader train(64, batch, 1u);
  DataLoader test(32, batch, 2u, model->inner());
  for (int e = 0; e < epochs; e++) {
    float total = 0;
    for (size_t b = 0; b < train.batches(); b++) {
      Batch bt = train.get(b);
      total += model->train_batch(bt, 0.5f);
    }
    std::printf("epoch %d loss %.4f\n", e, total / (float)train.batches());
  }
  int correct = 0, seen = 0;
  for (size_t b = 0; b < test.batches(); b++) {
    Batch bt = test.get(b);
    correct += model->count_correct(bt);
    seen += batch;
  }
  std::printf("test accuracy %.3f\n", seen ? (float)correct / (float)seen : 0.0f);
  return 0;
}
