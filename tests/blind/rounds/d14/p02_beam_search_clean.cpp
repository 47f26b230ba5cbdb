// Beam search decoding for an encoder/decoder RNN: the encoder runs on sim:0, the decoder on
// the device named on the command line; live beams are batched with dt_cat, their hidden states
// selected back by one-hot products; finished hypotheses are rescored on the host.
// run-args: sim1 3 7
#include <dt/dt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int64_t H = 6, V = 7, SRC = 5;
constexpr int EOS = 0;

struct Handle {
  dt_tensor *t = nullptr;
  Handle() = default;
  explicit Handle(dt_tensor *p) : t(p) {}
  Handle(Handle &&o) noexcept : t(o.t) { o.t = nullptr; }
  Handle &operator=(Handle &&o) noexcept { if (this != &o) { dt_free(t); t = o.t; o.t = nullptr; } return *this; }
  Handle(const Handle &) = delete;
  ~Handle() { dt_free(t); }
  dt_tensor *get() const { return t; }
};

dt_device parse(const std::string &s) {
  if (s == "cpu") return dt_cpu();
  if (s == "sim1") return dt_sim(1);
  if (s == "cuda") return dt_backend_available(DT_BACKEND_CUDA) ? dt_cuda(0) : dt_sim(1);
  return dt_sim(0);
}

struct Encoder {
  Handle wx, wh;
  explicit Encoder(dt_device d) {
    int64_t sx[2] = {1, H}, sh[2] = {H, H};
    wx = Handle(dt_randn(d, 3, 2, sx));
    wh = Handle(dt_mul_scalar(dt_randn(d, 4, 2, sh), 0.4f));
  }
  Handle encode(const std::vector<float> &src) const {
    dt_device d = dt_device_of(wx.get());
    int64_t hs[2] = {1, H}, xs[2] = {1, 1};
    Handle h(dt_zeros(d, DT_FLOAT, 2, hs));
    for (float v : src) {
      Handle x(dt_from_floats(d, &v, 2, xs));
      Handle pre(dt_add(dt_matmul(x.get(), wx.get()), dt_matmul(h.get(), wh.get())));
      h = Handle(dt_tanh(pre.get()));
    }
    return h;
  }
};

struct Decoder {
  Handle emb, wh, wo;
  explicit Decoder(dt_device d) {
    int64_t se[2] = {V, H}, sh[2] = {H, H}, so[2] = {H, V};
    emb = Handle(dt_mul_scalar(dt_randn(d, 7, 2, se), 0.5f));
    wh = Handle(dt_mul_scalar(dt_randn(d, 8, 2, sh), 0.4f));
    wo = Handle(dt_randn(d, 9, 2, so));
  }
  dt_device device() const { return dt_device_of(emb.get()); }
};

struct Beam {
  std::vector<int> tokens;
  float score = 0.0f;
  Handle h;
};

Handle one_hot_rows(dt_device d, const std::vector<int> &idx, int64_t width) {
  std::vector<float> m(idx.size() * (size_t)width, 0.0f);
  for (size_t r = 0; r < idx.size(); r++) m[r * (size_t)width + (size_t)idx[r]] = 1.0f;
  int64_t s[2] = {(int64_t)idx.size(), width};
  return Handle(dt_from_floats(d, m.data(), 2, s));
}

// log-softmax over each row, read to the host
std::vector<float> log_probs(dt_tensor *logits, int64_t rows) {
  Handle e(dt_exp(logits));
  Handle z(dt_sum_dim(e.get(), 1));
  std::vector<float> lg((size_t)(rows * V)), zs((size_t)rows);
  dt_read_floats(logits, lg.data(), rows * V);
  dt_read_floats(z.get(), zs.data(), rows);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < V; c++) lg[(size_t)(r * V + c)] -= std::log(zs[(size_t)r]);
  return lg;
}

std::vector<Beam> expand(const Decoder &dec, std::vector<Beam> &live, int width,
                         std::multimap<float, std::vector<int>, std::greater<float>> &done,
                         const std::function<float(float, size_t)> &penalty) {
  dt_device d = dec.device();
  std::vector<dt_tensor *> hs;
  std::vector<int> last;
  for (auto &b : live) { hs.push_back(b.h.get()); last.push_back(b.tokens.back()); }
  Handle H0(dt_cat((int)hs.size(), hs.data(), 0));
  Handle xe(dt_matmul(one_hot_rows(d, last, V).get(), dec.emb.get()));
  Handle h1(dt_tanh(dt_add(dt_matmul(H0.get(), dec.wh.get()), xe.get())));
  Handle logits(dt_matmul(h1.get(), dec.wo.get()));
  std::vector<float> lp = log_probs(logits.get(), (int64_t)live.size());
  struct Cand { size_t beam; int tok; float score; };
  std::vector<Cand> cands;
  for (size_t b = 0; b < live.size(); b++)
    for (int t = 0; t < V; t++) cands.push_back({b, t, live[b].score + lp[b * V + (size_t)t]});
  std::sort(cands.begin(), cands.end(), [](const Cand &a, const Cand &b) { return a.score > b.score; });
  std::vector<Beam> next;
  for (const Cand &c : cands) {
    if ((int)next.size() >= width) break;
    std::vector<int> toks = live[c.beam].tokens;
    toks.push_back(c.tok);
    if (c.tok == EOS) { done.emplace(penalty(c.score, toks.size()), toks); continue; }
    Beam nb;
    nb.tokens = toks;
    nb.score = c.score;
    nb.h = Handle(dt_matmul(one_hot_rows(d, {(int)c.beam}, (int64_t)live.size()).get(), h1.get()));
    next.push_back(std::move(nb));
  }
  return next;
}

float host_rescore(const Decoder &dec, const std::vector<int> &toks) {
  Handle emb(dt_to_device(dec.emb.get(), dt_cpu()));
  Handle x(dt_matmul(one_hot_rows(dt_cpu(), toks, V).get(), emb.get()));
  Handle s(dt_mean(x.get()));
  float v = 0.0f;
  dt_read_floats(s.get(), &v, 1);
  return v;
}

}  // namespace

int main(int argc, char **argv) {
  dt_device dd = parse(argc > 1 ? argv[1] : "sim0");
  int width = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2;
  int max_len = argc > 3 ? std::atoi(argv[3]) : 5;
  Encoder enc(dt_sim(0));
  Decoder dec(dd);
  std::vector<float> src;
  for (int i = 0; i < SRC; i++) src.push_back(0.2f * (float)(i % 3) - 0.1f);
  Handle ctx = enc.encode(src);
  float alpha = 0.7f;
  auto penalty = [alpha](float s, size_t len) { return s / std::pow((5.0f + (float)len) / 6.0f, alpha); };
  std::multimap<float, std::vector<int>, std::greater<float>> done;
  std::vector<Beam> live(1);
  live[0].tokens = {1};
  live[0].h = Handle(dt_to_device(ctx.get(), dd));
  for (int step = 0; step < max_len && !live.empty(); step++) live = expand(dec, live, width, done, penalty);
  for (auto &b : live) done.emplace(penalty(b.score, b.tokens.size()), b.tokens);
  int shown = 0;
  for (auto &kv : done) {
    if (shown++ == 3) break;
    std::printf("score %.3f host %.3f len %zu\n", kv.first, host_rescore(dec, kv.second), kv.second.size());
  }
  return 0;
}
