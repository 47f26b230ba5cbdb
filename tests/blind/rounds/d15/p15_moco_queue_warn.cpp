// blind round d15 — MoCo-style contrastive learning with a momentum key encoder and a queue.
// run-args: --hard-labels
//
// The query encoder trains on autodiff<sim:0>; the momentum key encoder is plain on sim:1 and
// follows the query encoder by EMA (weights moved across). Keys are moved to sim:0 before they
// are enqueued — unless --queue-on-key-device keeps the queue next to the key encoder, and
// then wrapping the sim:1 queue for the sim:0 query fails. The target is either a
// soft float distribution, or, with --hard-labels, the dataset's int64 class one-hot, which
// the float loss does not accept.
#include <dt/dt.h>

#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;
constexpr int kBatch = 3;
constexpr int kIn = 4;
constexpr int kEmb = 3;
constexpr int kQueueBatches = 2;
constexpr int kClasses = 1 + kQueueBatches * kBatch;  // positive + negatives

struct Flags {
  bool hard_labels = false;
  bool queue_on_key_device = false;
  int steps = 4;
};

Flags parse(int argc, char **argv) {
  Flags f;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--hard-labels") == 0) f.hard_labels = true;
    else if (std::strcmp(argv[i], "--queue-on-key-device") == 0) f.queue_on_key_device = true;
  }
  return f;
}

struct Encoder {
  dt_device dev;
  dt_tensor *w = nullptr;  // [kIn, kEmb]
  ~Encoder() { dt_free(w); }
  dt_tensor *encode(const dt_tensor *x) const {
    dt_tensor *a = dt_matmul(x, w);
    dt_tensor *e = dt_tanh(a);
    dt_free(a);
    return e;
  }
};

class KeyQueue {
 public:
  explicit KeyQueue(dt_device where) : where_(where) {}
  ~KeyQueue() {
    for (dt_tensor *k : keys_) dt_free(k);
  }
  dt_device device() const { return where_; }
  void push(const dt_tensor *keys) {
    keys_.push_back(dt_to_device(keys, where_));
    if (keys_.size() > kQueueBatches) {
      dt_free(keys_.front());
      keys_.pop_front();
    }
  }
  bool full() const { return keys_.size() == kQueueBatches; }
  // [kQueueBatches * kBatch, kEmb]
  dt_tensor *stacked() const {
    std::vector<dt_tensor *> v(keys_.begin(), keys_.end());
    return dt_cat(static_cast<int>(v.size()), v.data(), 0);
  }

 private:
  dt_device where_;
  std::deque<dt_tensor *> keys_;
};

class Moco {
 public:
  Moco(const Flags &f)
      : flags_(f), queue_(f.queue_on_key_device ? dt_sim(1) : dt_sim(0)) {
    query_.dev = dt_autodiff(dt_sim(0));
    key_.dev = dt_sim(1);
    dt_tensor *r = dt_randn(dt_inner_device(query_.dev), 5, 2, Shape{kIn, kEmb}.data());
    query_.w = dt_require_grad(dt_from_inner(query_.dev, r));
    key_.w = dt_to_device(r, key_.dev);
    dt_free(r);
  }

  void momentum_update(float m) {
    dt_tensor *qi = dt_inner(query_.w);
    dt_tensor *qk = dt_to_device(qi, key_.dev);
    dt_tensor *a = dt_mul_scalar(key_.w, m);
    dt_tensor *b = dt_mul_scalar(qk, 1.0f - m);
    dt_tensor *n = dt_add(a, b);
    dt_free(key_.w);
    key_.w = n;
    for (dt_tensor *t : {qi, qk, a, b}) dt_free(t);
  }

  // Fills the queue before training starts (no gradient involved).
  void warm_queue() {
    for (int i = 0; i < kQueueBatches; i++) {
      dt_tensor *x = view(key_.dev, 100 + i, 1);
      dt_tensor *k = key_.encode(x);
      queue_.push(k);
      dt_free(x);
      dt_free(k);
    }
  }

  float step(int s, float lr) {
    dt_device ad = query_.dev;
    dt_tensor *xq_plain = view(dt_inner_device(ad), s, 0);
    dt_tensor *xq = dt_from_inner(ad, xq_plain);
    dt_tensor *xk = view(key_.dev, s, 1);
    dt_tensor *q = query_.encode(xq);
    dt_tensor *k_far = key_.encode(xk);
    dt_tensor *k_near = dt_to_device(k_far, dt_inner_device(ad));
    dt_tensor *k = dt_from_inner(ad, k_near);
    dt_tensor *qk = dt_mul(q, k);
    dt_tensor *l_pos = dt_sum_dim(qk, 1);
    dt_tensor *l_pos2 = dt_reshape(l_pos, 2, Shape{kBatch, 1}.data());
    dt_tensor *negs = queue_.stacked();
    dt_tensor *negsT = dt_transpose(negs);
    dt_tensor *negs_ad = dt_from_inner(ad, negsT); // expect-warning: device-mismatch
    dt_tensor *l_neg = negs_ad ? dt_matmul(q, negs_ad) : nullptr;
    float loss_v = 0.0f;
    if (l_neg) {
      dt_tensor *parts[2] = {l_pos2, l_neg};
      dt_tensor *logits = dt_cat(2, parts, 1);
      dt_tensor *probs = dt_sigmoid(logits);
      dt_tensor *target_plain = targets(dt_inner_device(ad));
      dt_tensor *target = dt_from_inner(ad, target_plain);
      dt_tensor *loss = dt_mse_loss(probs, target); // expect-warning: kind-mismatch
      if (loss) {
        dt_read_floats(loss, &loss_v, 1);
        dt_backward(loss);
        sgd(lr);
      }
      for (dt_tensor *t : {logits, probs, target_plain, target, loss}) dt_free(t);
    }
    queue_.push(k_near);
    momentum_update(0.9f);
    for (dt_tensor *t : {xq_plain, xq, xk, q, k_far, k_near, k, qk, l_pos, l_pos2, negs, negsT, negs_ad,
                      l_neg})
      dt_free(t);
    return loss_v;
  }

 private:
  // Two augmented views of the same host batch, on the requested device.
  static dt_tensor *view(dt_device d, int step, int which) {
    std::vector<float> v(kBatch * kIn);
    for (size_t i = 0; i < v.size(); i++)
      v[i] = static_cast<float>((i * 5 + static_cast<size_t>(step) * 3) % 11) / 11.0f + (which ? 0.05f : -0.05f);
    return dt_from_floats(d, v.data(), 2, Shape{kBatch, kIn}.data());
  }

  // Class 0 (the positive key) is the target of every row.
  dt_tensor *targets(dt_device d) const {
    if (flags_.hard_labels) {
      std::vector<int64_t> onehot(kBatch * kClasses, 0);
      for (int i = 0; i < kBatch; i++) onehot[static_cast<size_t>(i * kClasses)] = 1;
      return dt_from_ints(d, onehot.data(), 2, Shape{kBatch, kClasses}.data());
    }
    std::vector<float> soft(kBatch * kClasses, 0.1f / (kClasses - 1));
    for (int i = 0; i < kBatch; i++) soft[static_cast<size_t>(i * kClasses)] = 0.9f;
    return dt_from_floats(d, soft.data(), 2, Shape{kBatch, kClasses}.data());
  }

  void sgd(float lr) {
    dt_tensor *g = dt_grad(query_.w);
    if (!g) return;
    dt_tensor *w = dt_inner(query_.w);
    dt_tensor *d = dt_mul_scalar(g, lr);
    dt_tensor *wn = dt_sub(w, d);
    dt_free(query_.w);
    query_.w = dt_require_grad(dt_from_inner(query_.dev, wn));
    for (dt_tensor *t : {g, w, d, wn}) dt_free(t);
  }

  Flags flags_;
  Encoder query_, key_;
  KeyQueue queue_;
};

}  // namespace

int main(int argc, char **argv) {
  Flags flags = parse(argc, argv);
  Moco moco(flags);
  moco.warm_queue();
  for (int s = 0; s < flags.steps; s++) std::printf("step %d: loss %.4f\n", s, moco.step(s, 0.2f));
  return 0;
}
