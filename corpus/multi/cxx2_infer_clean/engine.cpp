// engine.cpp — embedding, routing and expert evaluation with explicit transfers.
#include "engine.hpp"

#include <array>

namespace moe {

Engine::Engine(int n_experts, int vocab) {
  std::vector<float> tab(static_cast<size_t>(vocab + 1) * kDim);
  for (size_t i = 0; i < tab.size(); ++i) tab[i] = static_cast<float>((i * 13) % 17) / 17.0f - 0.5f;
  std::array<int64_t, 2> st{vocab + 1, kDim}, sr{kDim, n_experts};
  table_.reset(dt_from_floats(dt_cpu(), tab.data(), 2, st.data()));
  Tensor r(dt_randn(dt_cpu(), 5u, 2, sr.data()));
  router_.reset(dt_mul_scalar(r.get(), 0.5f));
  for (int e = 0; e < n_experts; ++e) {
    const dt_device d = dt_sim(e % 2);
    std::array<int64_t, 2> sw{kDim, kDim};
    Tensor raw(dt_randn(d, 200u + static_cast<uint64_t>(e), 2, sw.data()));
    experts_.push_back(Expert{d, Tensor(dt_mul_scalar(raw.get(), 0.3f))});
  }
}

Tensor Engine::embed(const std::vector<int>& ids) const {
  std::vector<float> all(static_cast<size_t>(dt_numel(table_.get())));
  dt_read_floats(table_.get(), all.data(), static_cast<int64_t>(all.size()));
  std::vector<Tensor> rows;
  for (int id : ids) {
    std::array<int64_t, 2> s{1, kDim};
    rows.emplace_back(dt_from_floats(dt_cpu(), all.data() + static_cast<size_t>(id) * kDim, 2, s.data()));
  }
  std::vector<dt_tensor*> raw;
  for (const Tensor& t : rows) raw.push_back(t.get());
  return Tensor(dt_cat(static_cast<int>(raw.size()), raw.data(), 0));
}

Tensor Engine::expert_out(const Expert& e, const dt_tensor* x_host) const {
  Tensor x(dt_to_device(x_host, e.dev));
  Tensor h(dt_matmul(x.get(), e.w.get()));
  Tensor a(dt_tanh(h.get()));
  return host_copy(a.get());
}

Tensor Engine::run(const dt_tensor* x) const {
  Tensor logits(dt_matmul(x, router_.get()));
  Tensor gates(dt_sigmoid(logits.get()));
  std::vector<float> g(static_cast<size_t>(dt_numel(gates.get())));
  dt_read_floats(gates.get(), g.data(), static_cast<int64_t>(g.size()));
  Tensor acc(dt_mul_scalar(x, 0.0f));
  const size_t n_tok = static_cast<size_t>(dt_dim(x, 0));
  for (size_t e = 0; e < experts_.size(); ++e) {
    float mean_gate = 0.0f;
    for (size_t t = 0; t < n_tok; ++t) mean_gate += g[t * experts_.size() + e];
    mean_gate /= static_cast<float>(n_tok);
    Tensor out = expert_out(experts_[e], x);
    Tensor weighted(dt_mul_scalar(out.get(), mean_gate));
    acc.reset(dt_add(acc.get(), weighted.get()));
  }
  return acc;
}

}  // namespace moe
