// provenance: blind round d11
#include "model.h"

static dt_tensor *scaled_randn(dt_device d, uint64_t seed, int64_t r, int64_t c, float s) {
  const int64_t shape[2] = {r, c};
  dt_tensor *raw = dt_randn(d, seed, 2, shape);
  dt_tensor *out = dt_mul_scalar(raw, s);
  dt_free(raw);
  return out;
}

TinyLM::TinyLM(std::string name, dt_device dev, int64_t vocab, int64_t width, uint64_t seed)
    : name_(std::move(name)), dev_(dev), vocab_(vocab), width_(width) {
  embed_ = scaled_randn(dev_, seed, vocab_, width_, 0.5f);
  w_in_ = scaled_randn(dev_, seed + 1, width_, width_ * 2, 0.3f);
  w_out_ = scaled_randn(dev_, seed + 2, width_ * 2, width_, 0.3f);
  unembed_ = scaled_randn(dev_, seed + 3, width_, vocab_, 0.5f);
}

TinyLM::~TinyLM() {
  dt_free(embed_);
  dt_free(w_in_);
  dt_free(w_out_);
  dt_free(unembed_);
}

dt_tensor *TinyLM::one_hot(int token) const {
  std::vector<float> v((size_t)vocab_, 0.0f);
  v[(size_t)(token % vocab_)] = 1.0f;
  const int64_t s[2] = {1, vocab_};
  return dt_from_floats(dev_, v.data(), 2, s);
}

dt_tensor *TinyLM::next_logits(const std::vector<int> &context) const {
  // mean of the context embeddings, then one residual block
  dt_tensor *acc = nullptr;
  for (int tok : context) {
    dt_tensor *oh = one_hot(tok);
    dt_tensor *e = dt_matmul(oh, embed_);
    dt_free(oh);
    if (!acc) {
      acc = e;
      continue;
    }
    dt_tensor *s = dt_add(acc, e);
    dt_free(acc);
    dt_free(e);
    acc = s;
  }
  dt_tensor *h = dt_mul_scalar(acc, 1.0f / (float)context.size());
  dt_tensor *u = dt_matmul(h, w_in_);
  dt_tensor *a = dt_relu(u);
  dt_tensor *d = dt_matmul(a, w_out_);
  dt_tensor *r = dt_add(h, d);
  dt_tensor *logits = dt_matmul(r, unembed_);
  dt_free(acc); dt_free(h); dt_free(u); dt_free(a); dt_free(d); dt_free(r);
  return logits;
}
