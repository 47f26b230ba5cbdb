// corpus/ggml/device_name_string_clean.cpp — a C++ runner configured by device names held in
// std::string members (as a command-line parser would fill them): the embedding table is loaded
// on the device its config names, and each request's graph is computed on a backend made from
// the name given to the runner's constructor. Clean: both names are "CUDA1".
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

struct Config {
  std::string weights_device = "CUDA1";
  int n_vocab = 16;
  int n_embd = 4;
};

class Runner {
 public:
  Runner(const Config &cfg, const std::string &compute_device) : cfg_(cfg) {
    ggml_backend_dev_t dev = ggml_backend_dev_by_name(cfg_.weights_device.c_str());
    ggml_init_params p = {ggml_tensor_overhead(), nullptr, true};
    wctx_.reset(ggml_init(p));
    embd_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, cfg_.n_embd, cfg_.n_vocab);
    if (dev) wbuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(wctx_.get(), ggml_backend_dev_buffer_type(dev)));
    backend_.reset(ggml_backend_init_by_name(compute_device.c_str(), nullptr));
  }

  bool ok() const { return wbuf_ && backend_; }

  float embed_sum(const std::vector<int32_t> &toks) {
    ggml_backend_buffer_clear(wbuf_.get(), 0);
    ggml_init_params p = {8 * ggml_tensor_overhead() + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr gctx(ggml_init(p));
    ggml_tensor *ids = ggml_new_tensor_1d(gctx.get(), GGML_TYPE_I32, (int64_t)toks.size());
    ggml_set_input(ids);
    ggml_tensor *sum = ggml_sum(gctx.get(), ggml_get_rows(gctx.get(), embd_, ids));
    ggml_cgraph *gf = ggml_new_graph(gctx.get());
    ggml_build_forward_expand(gf, sum);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    if (!ggml_gallocr_alloc_graph(ga.get(), gf)) return -1.0f;
    ggml_backend_tensor_set(ids, toks.data(), 0, toks.size() * sizeof(int32_t));
    ggml_backend_graph_compute(backend_.get(), gf);
    float s = 0.0f;
    ggml_backend_tensor_get(sum, &s, 0, sizeof s);
    return s;
  }

 private:
  Config cfg_;
  ggml_context_ptr wctx_;
  ggml_backend_buffer_ptr wbuf_;
  ggml_backend_ptr backend_;
  ggml_tensor *embd_ = nullptr;
};

int main() {
  Config cfg;
  auto runner = std::make_unique<Runner>(cfg, "CUDA1");
  if (!runner->ok()) return 1;
  std::printf("sum=%.1f\n", runner->embed_sum({1, 2, 3}));
  return 0;
}
