// engine.hpp — a mixture-of-experts inference engine (multi_infer_clean). The router and the
// token embeddings live on the host; experts alternate between sim:0 and sim:1.
#pragma once
#include <dt/dt.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace moe {

struct Free {
  void operator()(dt_tensor* t) const { dt_free(t); }
};
using Tensor = std::unique_ptr<dt_tensor, Free>;

constexpr int kDim = 4;

class Tokenizer {
 public:
  Tokenizer();
  std::vector<int> encode(const std::string& text) const;
  int vocab_size() const { return static_cast<int>(table_.size()); }

 private:
  std::map<char, int> table_;
};

struct Expert {
  dt_device dev;
  Tensor w;
};

class Engine {
 public:
  Engine(int n_experts, int vocab);
  // [n_tokens, kDim] on the host
  Tensor embed(const std::vector<int>& ids) const;
  Tensor run(const dt_tensor* x) const;
  size_t experts() const { return experts_.size(); }

 private:
  Tensor expert_out(const Expert& e, const dt_tensor* x_host) const;
  Tensor table_;   // [vocab, kDim], host
  Tensor router_;  // [kDim, n_experts], host
  std::vector<Expert> experts_;
};

inline Tensor host_copy(const dt_tensor* t) { return Tensor(dt_to_device(t, dt_cpu())); }

}  // namespace moe
