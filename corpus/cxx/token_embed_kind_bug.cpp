// provenance: blind round cxx2
// token_embed_kind_bug.cpp — a token classifier with an operator-overloading Tensor class.
// Token ids come out of the tokenizer as int tensors; the refactor from "positions as floats"
// to "positions as ids" left one place adding the id tensor to float embeddings, and the
// padding mask (ints from the batcher) is passed to where() as the condition.
#include <dt/dt.h>

#include <array>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(dt_tensor* t) : t_(t) {}
  Tensor(Tensor&& o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  Tensor& operator=(Tensor&& o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor() { dt_free(t_); }

  static Tensor floats(dt_device d, const std::vector<float>& v, std::vector<int64_t> shape) {
    return Tensor(dt_from_floats(d, v.data(), static_cast<int>(shape.size()), shape.data()));
  }
  static Tensor ints(dt_device d, const std::vector<int64_t>& v, std::vector<int64_t> shape) {
    return Tensor(dt_from_ints(d, v.data(), static_cast<int>(shape.size()), shape.data()));
  }
  dt_tensor* raw() const { return t_; }
  bool ok() const { return t_ != nullptr; }
  std::vector<float> to_host() const {
    std::vector<float> out(t_ ? static_cast<size_t>(dt_numel(t_)) : 0);
    if (t_ && dt_read_floats(t_, out.data(), static_cast<int64_t>(out.size())) != 0) out.clear();
    return out;
  }

 private:
  dt_tensor* t_ = nullptr;
};

inline Tensor operator+(const Tensor& a, const Tensor& b) {
  return Tensor(dt_add(a.raw(), b.raw())); // expect-error: kind-mismatch
}
inline Tensor operator*(const Tensor& a, const Tensor& b) { return Tensor(dt_mul(a.raw(), b.raw())); }
inline Tensor operator*(const Tensor& a, float s) { return Tensor(dt_mul_scalar(a.raw(), s)); }
inline Tensor matmul(const Tensor& a, const Tensor& b) { return Tensor(dt_matmul(a.raw(), b.raw())); }

constexpr int kVocab = 6;
constexpr int kDim = 4;
constexpr int kSeq = 5;

struct Tokenizer {
  std::map<std::string, int64_t> vocab{{"<pad>", 0}, {"the", 1}, {"cat", 2}, {"sat", 3}, {"on", 4}, {"mat", 5}};
  std::vector<int64_t> encode(const std::vector<std::string>& words) const {
    std::vector<int64_t> ids;
    for (const auto& w : words) {
      auto it = vocab.find(w);
      ids.push_back(it == vocab.end() ? 0 : it->second);
    }
    while (ids.size() < static_cast<size_t>(kSeq)) ids.push_back(0);
    return ids;
  }
};

class Classifier {
 public:
  explicit Classifier(dt_device d) : dev_(d) {
    std::vector<float> tab(kVocab * kDim), head(kDim);
    for (size_t i = 0; i < tab.size(); ++i) tab[i] = static_cast<float>((i * 5) % 7) / 7.0f - 0.4f;
    for (size_t i = 0; i < head.size(); ++i) head[i] = 0.25f * static_cast<float>(i + 1);
    table_ = Tensor::floats(d, tab, {kVocab, kDim});
    head_ = Tensor::floats(d, head, {kDim, 1});
    std::vector<float> pos(kSeq * kDim);
    for (size_t i = 0; i < pos.size(); ++i) pos[i] = 0.01f * static_cast<float>(i / kDim);
    pos_table_ = Tensor::floats(d, pos, {kSeq, kDim});
  }

  // one-hot lookup: rows of the table selected by ids, done as a matmul
  Tensor embed(const std::vector<int64_t>& ids) const {
    std::vector<float> onehot(kSeq * kVocab, 0.0f);
    for (size_t t = 0; t < ids.size() && t < static_cast<size_t>(kSeq); ++t)
      onehot[t * kVocab + static_cast<size_t>(ids[t])] = 1.0f;
    Tensor oh = Tensor::floats(dev_, onehot, {kSeq, kVocab});
    return matmul(oh, table_);
  }

  Tensor positions_as_ids() const {
    std::vector<int64_t> p(kSeq * kDim);
    for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<int64_t>(i / kDim);
    return Tensor::ints(dev_, p, {kSeq, kDim});
  }

  Tensor score(const Tensor& h) const { return matmul(h, head_); }
  const Tensor& pos_table() const { return pos_table_; }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  Tensor table_, head_, pos_table_;
};

static Tensor masked_scores(const Classifier& c, const Tensor& scores, const std::vector<int64_t>& ids) {
  std::vector<int64_t> keep(kSeq);
  for (size_t i = 0; i < keep.size(); ++i) keep[i] = ids[i] != 0 ? 1 : 0;
  Tensor mask = Tensor::ints(c.device(), keep, {kSeq, 1});
  Tensor neg = Tensor::floats(c.device(), std::vector<float>(kSeq, -1e4f), {kSeq, 1});
  return Tensor(dt_where(mask.raw(), scores.raw(), neg.raw())); // expect-error: kind-mismatch
}

// token statistics stay in the int domain: counts of non-padding tokens per sentence
static int64_t count_tokens(const Classifier& c, const std::vector<int64_t>& ids) {
  std::vector<int64_t> nonpad(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) nonpad[i] = ids[i] != 0 ? 1 : 0;
  Tensor t = Tensor::ints(c.device(), nonpad, {static_cast<int64_t>(nonpad.size())});
  Tensor twice(dt_add(t.raw(), t.raw()));
  Tensor s(dt_sum(twice.raw()));
  int64_t v = 0;
  dt_read_ints(s.raw(), &v, 1);
  return v / 2;
}

// a bool mask built by comparison is what where() wants
static Tensor clamp_scores(const Classifier& c, const Tensor& scores) {
  Tensor floor = Tensor::floats(c.device(), std::vector<float>(kSeq, -0.5f), {kSeq, 1});
  Tensor above(dt_greater(scores.raw(), floor.raw()));
  return Tensor(dt_where(above.raw(), scores.raw(), floor.raw()));
}

int main() {
  Tokenizer tok;
  Classifier clf(dt_sim(1));
  const std::vector<std::vector<std::string>> batch{{"the", "cat", "sat"}, {"on", "the", "mat", "mat"}};
  int n = 0;
  for (const auto& sentence : batch) {
    auto ids = tok.encode(sentence);
    Tensor e = clf.embed(ids);
    Tensor with_pos = e + clf.pos_table();            // float + float: fine
    Tensor doubled = with_pos + with_pos;             // fine
    Tensor pid = clf.positions_as_ids();
    Tensor shifted = e + pid;                          // int positions: fails inside operator+
    Tensor s = clf.score(doubled * 0.5f);
    Tensor m = masked_scores(clf, s, ids);
    Tensor clamped = clamp_scores(clf, s);
    std::printf("  %lld real tokens, clamped[0] %.4f\n", static_cast<long long>(count_tokens(clf, ids)),
                clamped.to_host().empty() ? 0.0f : clamped.to_host()[0]);
    auto host = (m.ok() ? m : s).to_host();
    std::printf("sentence %d: first score %.4f (shifted %s)\n", n++, host.empty() ? 0.0f : host[0],
                shifted.ok() ? "ok" : "failed");
  }
  return 0;
}
