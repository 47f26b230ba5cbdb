// provenance: blind round d12
// run-args: 5
/* Speculative decoding: a small draft model on the host proposes tokens, the target model
 * on sim:0 verifies them. Both decoders append keys/values to a process-wide KV cache. */
#include <dt/dt.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

struct KV {
  dt_tensor *k = nullptr;  // [t, D]
  dt_tensor *v = nullptr;
};

std::unordered_map<std::string, KV> g_kv_cache;

void kv_reset() {
  for (auto &kv : g_kv_cache) {
    dt_free(kv.second.k);
    dt_free(kv.second.v);
  }
  g_kv_cache.clear();
}

constexpr int64_t V = 12;
constexpr int64_t D = 8;

}  // namespace

class Decoder {
 public:
  Decoder(std::string name, dt_device dev, uint64_t seed, int layers)
      : name_(std::move(name)), dev_(dev) {
    const int64_t es[2] = {V, D}, ws[2] = {D, D};
    dt_tensor *e = dt_randn(dev, seed, 2, es);
    embed_ = dt_mul_scalar(e, 0.5f);
    dt_free(e);
    embed_t_ = dt_transpose(embed_);
    for (int l = 0; l < layers; l++) {
      Layer L;
      L.wq = dt_randn(dev, seed + 10 * l + 1, 2, ws);
      L.wk = dt_randn(dev, seed + 10 * l + 2, 2, ws);
      L.wv = dt_randn(dev, seed + 10 * l + 3, 2, ws);
      layers_.push_back(L);
    }
  }
  ~Decoder() {
    dt_free(embed_);
    dt_free(embed_t_);
    for (auto &L : layers_) {
      dt_free(L.wq);
      dt_free(L.wk);
      dt_free(L.wv);
    }
  }

  // one decode step; returns logits [1, V] on the host
  std::vector<float> step(int64_t token) {
    std::vector<float> oh(V, 0.0f);
    oh[token % V] = 1.0f;
    const int64_t os[2] = {1, V};
    dt_tensor *x1 = dt_from_floats(dev_, oh.data(), 2, os);
    dt_tensor *x = dt_matmul(x1, embed_);
    dt_free(x1);
    for (size_t l = 0; l < layers_.size(); l++) {
      dt_tensor *nx = attend(l, x);
      dt_free(x);
      x = nx;
    }
    dt_tensor *logits = dt_matmul(x, embed_t_);
    dt_tensor *host = dt_to_device(logits, dt_cpu());
    std::vector<float> out(V, 0.0f);
    if (host) dt_read_floats(host, out.data(), V);
    dt_free(x);
    dt_free(logits);
    dt_free(host);
    return out;
  }
  const std::string &name() const { return name_; }

 private:
  struct Layer {
    dt_tensor *wq, *wk, *wv;
  };

  dt_tensor *attend(size_t l, const dt_tensor *x) {
    const Layer &L = layers_[l];
    dt_tensor *q = dt_matmul(x, L.wq);
    dt_tensor *k = dt_matmul(x, L.wk);
    dt_tensor *v = dt_matmul(x, L.wv);
    KV &slot = g_kv_cache["attn." + std::to_string(l)];
    if (!slot.k) {
      slot.k = k;
      slot.v = v;
    } else {
      dt_tensor *ks[2] = {slot.k, k};
      dt_tensor *vs[2] = {slot.v, v};
      dt_tensor *nk = dt_cat(2, ks, 0); // expect-error: backend-mismatch
      dt_tensor *nv = dt_cat(2, vs, 0); // expect-error: backend-mismatch
      dt_free(slot.k);
      dt_free(slot.v);
      dt_free(k);
      dt_free(v);
      slot.k = nk;
      slot.v = nv;
    }
    dt_tensor *kt = dt_transpose(slot.k);
    dt_tensor *sc = dt_matmul(q, kt);
    dt_tensor *scs = dt_mul_scalar(sc, 1.0f / std::sqrt((float)D));
    dt_tensor *e = dt_exp(scs);
    dt_tensor *z = dt_sum(e);
    dt_tensor *p = dt_div(e, z);
    dt_tensor *ctx = dt_matmul(p, slot.v);
    dt_tensor *out = dt_add(x, ctx);
    for (dt_tensor *t : {q, kt, sc, scs, e, z, p, ctx}) dt_free(t);
    return out;
  }

  std::string name_;
  dt_device dev_;
  dt_tensor *embed_ = nullptr, *embed_t_ = nullptr;
  std::vector<Layer> layers_;
};

static int64_t argmax(const std::vector<float> &v) {
  int64_t b = 0;
  for (size_t i = 1; i < v.size(); i++)
    if (v[i] > v[(size_t)b]) b = (int64_t)i;
  return b;
}

int main(int argc, char **argv) {
  int n_tokens = argc > 1 ? std::atoi(argv[1]) : 6;
  if (n_tokens < 1 || n_tokens > 32) n_tokens = 6;
  Decoder draft("draft", dt_cpu(), 1000, 1);
  Decoder target("target", dt_sim(0), 2000, 2);

  std::vector<int64_t> seq = {3};
  int accepted = 0;
  for (int i = 0; i < n_tokens; i++) {
    int64_t last = seq.back();
    int64_t proposal = argmax(draft.step(last));
    int64_t verified = argmax(target.step(last));
    if (proposal == verified) accepted++;
    seq.push_back(verified);
  }
  std::printf("generated:");
  for (int64_t t : seq) std::printf(" %lld", (long long)t);
  std::printf("\naccepted %d/%d draft proposals\n", accepted, n_tokens);
  kv_reset();
  return 0;
}
