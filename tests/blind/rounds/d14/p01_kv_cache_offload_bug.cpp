// Autoregressive decoding with a 2-layer transformer and a KV cache offloaded to host memory:
// the model runs on the accelerator (sim:N, cuda when present), the cache lives on the cpu and
// is brought to the compute device for each attention step.
// run-args: sim1 6
#include <dt/dt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int64_t D = 8, VOCAB = 10, FF = 12;

struct Free { void operator()(dt_tensor *t) const { dt_free(t); } };
using Tensor = std::unique_ptr<dt_tensor, Free>;
Tensor own(dt_tensor *t) { return Tensor(t); }

dt_device compute_device(const std::string &name) {
  if (name == "cuda" && dt_backend_available(DT_BACKEND_CUDA)) return dt_cuda(0);
  if (name == "sim1") return dt_sim(1);
  return dt_sim(0);
}

class KVCache {
 public:
  KVCache(int layers, dt_device home) : home_(home), k_(layers), v_(layers) {}

  void append(int layer, dt_tensor *k_new, dt_tensor *v_new) {
    if (!k_[layer]) {
      k_[layer] = own(dt_to_device(k_new, home_));
      v_[layer] = own(dt_to_device(v_new, home_));
      return;
    }
    dt_tensor *kp[2] = {k_[layer].get(), k_new};
    dt_tensor *vp[2] = {v_[layer].get(), v_new};
    Tensor k = own(dt_cat(2, kp, 0)); // expect-error: backend-mismatch
    Tensor v = own(dt_cat(2, vp, 0)); // expect-error: backend-mismatch
    k_[layer] = std::move(k);
    v_[layer] = std::move(v);
  }
  Tensor keys(int layer, dt_device d) const { return own(dt_to_device(k_[layer].get(), d)); }
  Tensor values(int layer, dt_device d) const { return own(dt_to_device(v_[layer].get(), d)); }
  int64_t length(int layer) const { return k_[layer] ? dt_dim(k_[layer].get(), 0) : 0; }

 private:
  dt_device home_;
  std::vector<Tensor> k_, v_;
};

struct Block {
  Tensor wq, wk, wv, wo, w1, w2;
  Block(dt_device d, uint64_t seed) {
    int64_t sq[2] = {D, D}, s1[2] = {D, FF}, s2[2] = {FF, D};
    auto init = [&](const int64_t *s, uint64_t k) { return own(dt_mul_scalar(dt_randn(d, seed + k, 2, s), 0.3f)); };
    wq = init(sq, 0); wk = init(sq, 1); wv = init(sq, 2); wo = init(sq, 3);
    w1 = init(s1, 4); w2 = init(s2, 5);
  }
};

class Decoder {
 public:
  Decoder(dt_device d, int layers) : dev_(d), cache_(layers, dt_cpu()) {
    int64_t es[2] = {VOCAB, D}, os[2] = {D, VOCAB};
    embed_ = own(dt_mul_scalar(dt_randn(d, 1, 2, es), 0.5f));
    unembed_ = own(dt_mul_scalar(dt_randn(d, 2, 2, os), 0.5f));
    for (int i = 0; i < layers; i++) blocks_.emplace_back(d, 100 + 10 * (uint64_t)i);
  }

  // one token in, logits out; the cache grows by one position per layer
  Tensor step(int token) {
    std::vector<float> onehot(VOCAB, 0.0f);
    onehot[token] = 1.0f;
    int64_t os[2] = {1, VOCAB};
    Tensor x = own(dt_matmul(own(dt_from_floats(dev_, onehot.data(), 2, os)).get(), embed_.get()));
    for (size_t l = 0; l < blocks_.size(); l++) x = block_forward((int)l, x.get());
    return own(dt_matmul(x.get(), unembed_.get()));
  }

  int64_t cached(int layer) const { return cache_.length(layer); }

 private:
  Tensor softmax_row(dt_tensor *s) {
    Tensor e = own(dt_exp(s));
    Tensor z = own(dt_sum(e.get()));
    return own(dt_div(e.get(), z.get()));
  }

  Tensor block_forward(int l, dt_tensor *x) {
    Block &b = blocks_[l];
    Tensor q = own(dt_matmul(x, b.wq.get()));
    Tensor k = own(dt_matmul(x, b.wk.get()));
    Tensor v = own(dt_matmul(x, b.wv.get()));
    cache_.append(l, k.get(), v.get());
    Tensor keys = cache_.keys(l, dev_), vals = cache_.values(l, dev_);
    Tensor kt = own(dt_transpose(keys.get()));
    Tensor scores = own(dt_mul_scalar(own(dt_matmul(q.get(), kt.get())).get(), 1.0f / std::sqrt((float)D)));
    Tensor attn = own(dt_matmul(softmax_row(scores.get()).get(), vals.get()));
    Tensor h = own(dt_add(x, own(dt_matmul(attn.get(), b.wo.get())).get()));
    Tensor ff = own(dt_matmul(own(dt_relu(own(dt_matmul(h.get(), b.w1.get())).get())).get(), b.w2.get()));
    return own(dt_add(h.get(), ff.get()));
  }

  dt_device dev_;
  KVCache cache_;
  Tensor embed_, unembed_;
  std::vector<Block> blocks_;
};

int argmax_host(dt_tensor *logits) {
  float host[VOCAB];
  dt_read_floats(logits, host, VOCAB);
  int best = 0;
  for (int i = 1; i < VOCAB; i++)
    if (host[i] > host[best]) best = i;
  return best;
}

}  // namespace

int main(int argc, char **argv) {
  dt_device dev = compute_device(argc > 1 ? argv[1] : "sim0");
  int new_tokens = argc > 2 ? std::atoi(argv[2]) : 4;
  std::vector<int> prompt = {1, 4, 2};
  Decoder model(dev, 2);
  std::function<int(dt_tensor *)> pick = argmax_host;
  std::vector<int> out;
  Tensor logits;
  for (int t : prompt) logits = model.step(t);  // prefill, one position at a time
  for (int i = 0; i < new_tokens; i++) {
    int next = pick(logits.get());
    out.push_back(next);
    logits = model.step(next);
  }
  std::printf("generated:");
  for (int t : out) std::printf(" %d", t);
  std::printf("  (cache length %lld)\n", (long long)model.cached(0));
  return 0;
}
