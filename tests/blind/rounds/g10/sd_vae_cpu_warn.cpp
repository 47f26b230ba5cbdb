// provenance: blind round g10
// run-args: --vae-on-cpu
// stable-diffusion.cpp style runners: each model (the denoiser, the VAE) is a GGMLRunner with
// a params backend (where its weights live) and a runtime backend (where its graphs run), a
// name -> tensor map of parameters, and a compute() that allocates the graph with the runtime
// backend's allocator and runs it. --offload-to-cpu keeps the denoiser's weights on the host
// and copies them to the runtime backend before computing; --vae-on-cpu keeps the VAE's.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int64_t kLatentC = 4;
constexpr int64_t kHW = 16;
constexpr int64_t kHidden = 24;
constexpr int64_t kRGB = 3;

struct SDParams {
  bool vae_on_cpu = false;
  bool offload_to_cpu = false;
  int steps = 3;
};

SDParams parse(int argc, char** argv) {
  SDParams p;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--vae-on-cpu") == 0) p.vae_on_cpu = true;
    else if (std::strcmp(argv[i], "--offload-to-cpu") == 0) p.offload_to_cpu = true;
    else if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) p.steps = std::atoi(argv[++i]);
  }
  return p;
}

class GGMLRunner {
 public:
  GGMLRunner(ggml_backend_t runtime_backend, ggml_backend_t params_backend) : runtime_backend_(runtime_backend), params_backend_(params_backend) {
    ggml_init_params p = {ggml_tensor_overhead() * 32, nullptr, true};
    params_ctx_.reset(ggml_init(p));
  }
  virtual ~GGMLRunner() = default;
  virtual std::string desc() const = 0;

  void alloc_params_buffer() {
    params_buffer_.reset(ggml_backend_alloc_ctx_tensors(params_ctx_.get(), params_backend_));
    ggml_backend_buffer_set_usage(params_buffer_.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    std::printf("%s params: %zu bytes in %s\n", desc().c_str(), ggml_backend_buffer_get_size(params_buffer_.get()), ggml_backend_buffer_name(params_buffer_.get()));
  }

  void init_params(float scale) {
    int salt = 0;
    for (auto& kv : params_) {
      std::vector<float> w(ggml_nelements(kv.second));
      for (size_t i = 0; i < w.size(); ++i) w[i] = scale * std::sin(0.13f * i + salt);
      ggml_backend_tensor_set(kv.second, w.data(), 0, ggml_nbytes(kv.second));
      ++salt;
    }
  }

  // Copies the parameters to the runtime backend when they live elsewhere (sd.cpp's
  // offload_params_to_runtime_backend).
  void offload_params_to_runtime() {
    if (params_backend_ == runtime_backend_ || params_on_runtime_) return;
    ggml_init_params p = {ggml_tensor_overhead() * (params_.size() + 1), nullptr, true};
    runtime_params_ctx_.reset(ggml_init(p));
    std::map<std::string, ggml_tensor*> copies;
    for (auto& kv : params_) copies[kv.first] = ggml_dup_tensor(runtime_params_ctx_.get(), kv.second);
    runtime_params_buffer_.reset(ggml_backend_alloc_ctx_tensors(runtime_params_ctx_.get(), runtime_backend_));
    for (auto& kv : params_) ggml_backend_tensor_copy(kv.second, copies[kv.first]);
    params_.swap(copies);
    params_on_runtime_ = true;
  }

  bool compute(const std::function<ggml_cgraph*(ggml_context*)>& get_graph, std::vector<float>& out) {
    if (offload_params_) offload_params_to_runtime();
    ggml_init_params p = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(p));
    ggml_cgraph* gf = get_graph(ctx.get());
    if (!allocr_) allocr_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(runtime_backend_)));
    if (!ggml_gallocr_alloc_graph(allocr_.get(), gf)) return false;
    for (auto& in : pending_inputs_) ggml_backend_tensor_set(in.first, in.second.data(), 0, in.second.size() * sizeof(float));
    pending_inputs_.clear();
    if (ggml_backend_graph_compute(runtime_backend_, gf) != GGML_STATUS_SUCCESS) return false; // expect-warning: ggml-backend-mismatch
    ggml_tensor* res = ggml_graph_node(gf, -1);
    out.resize(ggml_nelements(res));
    ggml_backend_tensor_get(res, out.data(), 0, ggml_nbytes(res));
    return true;
  }

  void set_offload_params(bool on) { offload_params_ = on; }

 protected:
  ggml_tensor* param(const std::string& name, int64_t ne0, int64_t ne1) {
    ggml_tensor* t = ne1 ? ggml_new_tensor_2d(params_ctx_.get(), GGML_TYPE_F32, ne0, ne1) : ggml_new_tensor_1d(params_ctx_.get(), GGML_TYPE_F32, ne0);
    ggml_set_name(t, name.c_str());
    params_[name] = t;
    return t;
  }
  ggml_tensor* p(const std::string& name) const { return params_.at(name); }
  ggml_tensor* input(ggml_context* ctx, const std::vector<float>& data, int64_t ne0, int64_t ne1) {
    ggml_tensor* t = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, ne0, ne1);
    ggml_set_input(t);
    pending_inputs_.emplace_back(t, data);
    return t;
  }

 private:
  ggml_backend_t runtime_backend_;
  ggml_backend_t params_backend_;
  ggml_context_ptr params_ctx_;
  ggml_backend_buffer_ptr params_buffer_;
  ggml_context_ptr runtime_params_ctx_;
  ggml_backend_buffer_ptr runtime_params_buffer_;
  ggml_gallocr_ptr allocr_;
  bool offload_params_ = false;
  bool params_on_runtime_ = false;
  std::map<std::string, ggml_tensor*> params_;
  std::vector<std::pair<ggml_tensor*, std::vector<float>>> pending_inputs_;
};

class DenoiserRunner : public GGMLRunner {
 public:
  using GGMLRunner::GGMLRunner;
  std::string desc() const override { return "unet"; }
  void create_params() {
    param("in.weight", kLatentC, kHidden);
    param("in.bias", kHidden, 0);
    param("out.weight", kHidden, kLatentC);
  }
  bool denoise(std::vector<float>& latent, float t) {
    std::vector<float> eps;
    auto graph = [&](ggml_context* ctx) {
      ggml_tensor* x = input(ctx, latent, kLatentC, kHW);
      ggml_tensor* h = ggml_silu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, p("in.weight"), x), p("in.bias")));
      ggml_tensor* e = ggml_scale(ctx, ggml_mul_mat(ctx, p("out.weight"), h), t);
      ggml_cgraph* gf = ggml_new_graph(ctx);
      ggml_build_forward_expand(gf, e);
      return gf;
    };
    if (!compute(graph, eps)) return false;
    for (size_t i = 0; i < latent.size(); ++i) latent[i] -= 0.5f * eps[i];
    return true;
  }
};

class VAERunner : public GGMLRunner {
 public:
  using GGMLRunner::GGMLRunner;
  std::string desc() const override { return "vae"; }
  void create_params() {
    param("decoder.conv_in.weight", kLatentC, kHidden);
    param("decoder.conv_out.weight", kHidden, kRGB);
  }
  bool decode(const std::vector<float>& latent, std::vector<float>& rgb) {
    return compute(
        [&](ggml_context* ctx) {
          ggml_tensor* z = input(ctx, latent, kLatentC, kHW);
          ggml_tensor* h = ggml_gelu(ctx, ggml_mul_mat(ctx, p("decoder.conv_in.weight"), ggml_scale(ctx, z, 1.0f / 0.18215f)));
          ggml_tensor* img = ggml_tanh(ctx, ggml_mul_mat(ctx, p("decoder.conv_out.weight"), h));
          ggml_cgraph* gf = ggml_new_graph(ctx);
          ggml_build_forward_expand(gf, img);
          return gf;
        },
        rgb);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const SDParams params = parse(argc, argv);
  ggml_backend_ptr backend(ggml_backend_cuda_init(0));
  ggml_backend_ptr cpu(ggml_backend_cpu_init());
  if (!backend) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }

  ggml_backend_t unet_params_backend = params.offload_to_cpu ? cpu.get() : backend.get();
  ggml_backend_t vae_backend = params.vae_on_cpu ? cpu.get() : backend.get();

  auto unet = std::make_unique<DenoiserRunner>(backend.get(), unet_params_backend);
  unet->create_params();
  unet->alloc_params_buffer();
  unet->init_params(0.2f);
  unet->set_offload_params(params.offload_to_cpu);

  auto vae = std::make_unique<VAERunner>(backend.get(), vae_backend);
  vae->create_params();
  vae->alloc_params_buffer();
  vae->init_params(0.3f);

  std::vector<float> latent(kLatentC * kHW);
  for (size_t i = 0; i < latent.size(); ++i) latent[i] = std::cos(0.37f * i);
  for (int step = 0; step < params.steps; ++step) {
    const float t = 1.0f - static_cast<float>(step) / params.steps;
    if (!unet->denoise(latent, t)) return 1;
    std::printf("step %d/%d: latent[0] = %.4f\n", step + 1, params.steps, static_cast<double>(latent[0]));
  }

  std::vector<float> rgb;
  if (!vae->decode(latent, rgb)) return 1;
  double mean = 0.0;
  for (float v : rgb) mean += v;
  std::printf("decoded %zu values, mean %.4f\n", rgb.size(), mean / rgb.size());
  return 0;
}
