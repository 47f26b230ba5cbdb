// provenance: blind round d11
#pragma once
#include <dt/dt.h>

#include <cstdint>
#include <utility>
#include <string>
#include <vector>

// A tiny next-token scorer: embedding lookup (one-hot matmul), a residual MLP block, unembed.
class TinyLM {
 public:
  TinyLM(std::string name, dt_device dev, int64_t vocab, int64_t width, uint64_t seed);
  ~TinyLM();
  TinyLM(const TinyLM &) = delete;
  TinyLM &operator=(const TinyLM &) = delete;

  // scores the last token of `context`; returns logits [1, vocab] on the model's device
  dt_tensor *next_logits(const std::vector<int> &context) const;
  dt_device device() const { return dev_; }
  const std::string &name() const { return name_; }
  int64_t vocab() const { return vocab_; }

 private:
  dt_tensor *one_hot(int token) const;

  std::string name_;
  dt_device dev_;
  int64_t vocab_, width_;
  dt_tensor *embed_, *w_in_, *w_out_, *unembed_;
};
