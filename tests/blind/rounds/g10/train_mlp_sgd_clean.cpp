// provenance: blind round g10
// Training a small classifier on the GPU, mnist-example style but without ggml-opt: the
// parameters live in a GPU buffer together with the optimizer's hyper-parameters, the
// forward graph is duplicated with gradients, the backward pass is built by
// ggml_build_backward_expand and an SGD step per parameter is appended, and the whole
// training graph is allocated once by a gallocr on the GPU and reused every step (inputs
// uploaded, ggml_graph_reset, compute). Evaluation runs on a CPU copy of the model, refreshed
// from the GPU with ggml_backend_tensor_copy; the best weights are kept as host checkpoints.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int64_t kIn = 4;
constexpr int64_t kHidden = 16;
constexpr int64_t kClasses = 3;
constexpr int64_t kBatch = 32;
constexpr int kEpochs = 6;
constexpr int kBatchesPerEpoch = 8;

struct Dataset {
  std::vector<float> x;       // [n][kIn]
  std::vector<float> labels;  // [n][kClasses], one-hot
  int64_t n = 0;
};

Dataset make_dataset(int64_t n, uint32_t seed) {
  Dataset d;
  d.n = n;
  d.x.resize(n * kIn);
  d.labels.assign(n * kClasses, 0.0f);
  uint32_t s = seed;
  auto rnd = [&s]() {
    s = s * 1664525u + 1013904223u;
    return static_cast<float>(s >> 8) / static_cast<float>(1u << 24) * 2.0f - 1.0f;
  };
  for (int64_t i = 0; i < n; ++i) {
    float* xi = d.x.data() + i * kIn;
    for (int64_t j = 0; j < kIn; ++j) xi[j] = rnd();
    const float score0 = xi[0] + 0.5f * xi[1], score1 = xi[2] - xi[3], score2 = -xi[0] + xi[3];
    const int cls = score0 > score1 ? (score0 > score2 ? 0 : 2) : (score1 > score2 ? 1 : 2);
    d.labels[i * kClasses + cls] = 1.0f;
  }
  return d;
}

// The model's parameters in one context and one buffer of a backend.
struct Mlp {
  ggml_context_ptr ctx;
  ggml_backend_buffer_ptr buf;
  std::map<std::string, ggml_tensor*> params;

  Mlp(ggml_backend_t backend, bool with_opt_params) {
    ggml_init_params p = {ggml_tensor_overhead() * 8, nullptr, true};
    ctx.reset(ggml_init(p));
    add("fc1.weight", ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kIn, kHidden));
    add("fc1.bias", ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kHidden));
    add("fc2.weight", ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kHidden, kClasses));
    add("fc2.bias", ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kClasses));
    if (with_opt_params) sgd_params = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, 2);
    buf.reset(ggml_backend_alloc_ctx_tensors(ctx.get(), backend));
    if (!buf) throw std::runtime_error("cannot allocate the model");
  }

  void add(const std::string& name, ggml_tensor* t) {
    ggml_set_name(t, name.c_str());
    params[name] = t;
  }

  void init_random(uint32_t seed) {
    for (auto& [name, t] : params) {
      std::vector<float> w(ggml_nelements(t));
      const float scale = name.find("bias") != std::string::npos ? 0.0f : 1.0f / std::sqrt(static_cast<float>(t->ne[0]));
      for (size_t i = 0; i < w.size(); ++i) {
        seed = seed * 22695477u + 1u;
        w[i] = scale * (static_cast<float>(seed >> 16 & 0x7fff) / 16384.0f - 1.0f);
      }
      ggml_backend_tensor_set(t, w.data(), 0, ggml_nbytes(t));
    }
  }

  ggml_tensor* forward(ggml_context* c, ggml_tensor* x) const {
    ggml_tensor* h = ggml_relu(c, ggml_add(c, ggml_mul_mat(c, params.at("fc1.weight"), x), params.at("fc1.bias")));
    return ggml_add(c, ggml_mul_mat(c, params.at("fc2.weight"), h), params.at("fc2.bias"));
  }

  ggml_tensor* sgd_params = nullptr;
};

using Checkpoint = std::map<std::string, std::vector<float>>;

class Trainer {
 public:
  Trainer(ggml_backend_t gpu, ggml_backend_t cpu) : gpu_(gpu), cpu_(cpu), model_(gpu, true), eval_model_(cpu, false) {
    model_.init_random(42);
    ggml_init_params p = {ggml_tensor_overhead() * 512 + 2 * ggml_graph_overhead_custom(1024, true), nullptr, true};
    ctx_.reset(ggml_init(p));
    ggml_context* c = ctx_.get();
    x_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kIn, kBatch);
    labels_ = ggml_new_tensor_2d(c, GGML_TYPE_F32, kClasses, kBatch);
    ggml_set_input(x_);
    ggml_set_input(labels_);
    for (auto& kv : model_.params) ggml_set_param(kv.second);
    loss_ = ggml_cross_entropy_loss(c, model_.forward(c, x_), labels_);
    ggml_set_loss(loss_);
    ggml_set_output(loss_);

    ggml_cgraph* gf = ggml_new_graph_custom(c, 1024, true);
    ggml_build_forward_expand(gf, loss_);
    gb_ = ggml_graph_dup(c, gf, true);
    ggml_build_backward_expand(c, gb_, nullptr);
    for (auto& kv : model_.params) {
      ggml_tensor* grad = ggml_graph_get_grad(gb_, kv.second);
      ggml_build_forward_expand(gb_, ggml_opt_step_sgd(c, kv.second, grad, model_.sgd_params));
    }
    galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu_)));
    if (!ggml_gallocr_alloc_graph(galloc_.get(), gb_)) throw std::runtime_error("cannot allocate the training graph");
  }

  float step(const Dataset& d, int64_t first, float lr) {
    const float opt[2] = {lr, 1e-4f};
    ggml_backend_tensor_set(model_.sgd_params, opt, 0, sizeof opt);
    ggml_backend_tensor_set(x_, d.x.data() + first * kIn, 0, ggml_nbytes(x_));
    ggml_backend_tensor_set(labels_, d.labels.data() + first * kClasses, 0, ggml_nbytes(labels_));
    ggml_graph_reset(gb_);
    if (ggml_backend_graph_compute(gpu_, gb_) != GGML_STATUS_SUCCESS) throw std::runtime_error("step failed");
    float loss = 0.0f;
    ggml_backend_tensor_get(loss_, &loss, 0, sizeof loss);
    return loss;
  }

  // Accuracy of the current weights, computed on the CPU copy of the model.
  float evaluate(const Dataset& d) {
    for (auto& [name, t] : model_.params) ggml_backend_tensor_copy(t, eval_model_.params.at(name));
    ggml_init_params p = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ectx(ggml_init(p));
    ggml_tensor* x = ggml_new_tensor_2d(ectx.get(), GGML_TYPE_F32, kIn, d.n);
    ggml_set_input(x);
    ggml_tensor* logits = eval_model_.forward(ectx.get(), x);
    ggml_set_output(logits);
    ggml_cgraph* gf = ggml_new_graph(ectx.get());
    ggml_build_forward_expand(gf, logits);
    ggml_gallocr_ptr galloc(ggml_gallocr_new(ggml_backend_get_default_buffer_type(cpu_)));
    if (!ggml_gallocr_alloc_graph(galloc.get(), gf)) throw std::runtime_error("eval alloc");
    ggml_backend_tensor_set(x, d.x.data(), 0, ggml_nbytes(x));
    ggml_backend_graph_compute(cpu_, gf);
    std::vector<float> out(ggml_nelements(logits));
    ggml_backend_tensor_get(logits, out.data(), 0, ggml_nbytes(logits));
    int64_t correct = 0;
    for (int64_t i = 0; i < d.n; ++i) {
      int best = 0;
      for (int k = 1; k < kClasses; ++k)
        if (out[i * kClasses + k] > out[i * kClasses + best]) best = k;
      correct += d.labels[i * kClasses + best] > 0.5f;
    }
    return static_cast<float>(correct) / static_cast<float>(d.n);
  }

  Checkpoint save() const {
    Checkpoint ck;
    for (const auto& [name, t] : model_.params) {
      std::vector<float>& w = ck[name];
      w.resize(ggml_nelements(t));
      ggml_backend_tensor_get(t, w.data(), 0, ggml_nbytes(t));
    }
    return ck;
  }

  void restore(const Checkpoint& ck) {
    for (const auto& [name, w] : ck) ggml_backend_tensor_set(model_.params.at(name), w.data(), 0, w.size() * sizeof(float));
  }

 private:
  ggml_backend_t gpu_, cpu_;
  Mlp model_, eval_model_;
  ggml_context_ptr ctx_;
  ggml_gallocr_ptr galloc_;
  ggml_tensor* x_ = nullptr;
  ggml_tensor* labels_ = nullptr;
  ggml_tensor* loss_ = nullptr;
  ggml_cgraph* gb_ = nullptr;
};

}  // namespace

int main() {
  ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
  ggml_backend_ptr cpu(ggml_backend_cpu_init());
  if (!gpu || !cpu) return 1;
  const Dataset train = make_dataset(kBatch * kBatchesPerEpoch, 1234);
  const Dataset val = make_dataset(96, 99);

  auto trainer = std::make_unique<Trainer>(gpu.get(), cpu.get());
  std::printf("untrained: val acc %.3f\n", static_cast<double>(trainer->evaluate(val)));
  Checkpoint best;
  float best_acc = -1.0f;
  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    const float lr = 0.5f * std::pow(0.8f, static_cast<float>(epoch));
    float sum = 0.0f;
    for (int b = 0; b < kBatchesPerEpoch; ++b) sum += trainer->step(train, b * kBatch, lr);
    const float acc = trainer->evaluate(val);
    if (acc > best_acc) {
      best_acc = acc;
      best = trainer->save();
    }
    std::printf("epoch %d: lr %.3f loss %.4f val acc %.3f\n", epoch, static_cast<double>(lr), static_cast<double>(sum / kBatchesPerEpoch), static_cast<double>(acc));
  }
  trainer->restore(best);
  std::printf("restored best: val acc %.3f (%zu tensors)\n", static_cast<double>(trainer->evaluate(val)), best.size());
  return 0;
}
