// corpus/ggml/named_cache_lookup_clean.cpp — a decoder cache whose tensors are placed one by one
// through two ggml_tallocr: the key cache on the GPU, the token positions in a CPU buffer the
// host fills directly. A reset helper finds the tensors again by name (std::string names shared
// with the constructor): it rewrites the positions on the host through their data pointer and
// clears the key cache through ggml_backend_tensor_memset. Clean: a lookup by name gives the
// tensor of that name, so the host write reaches the CPU buffer only.
#include <cstdint>
#include <cstdio>
#include <string>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

namespace {

constexpr int kCtx = 8;
const std::string kKeys = "cache.k";
const std::string kPos = "cache.pos";

class DecoderCache {
 public:
  explicit DecoderCache(ggml_backend_t gpu) {
    ggml_init_params p = {4 * ggml_tensor_overhead(), nullptr, true};
    ctx_ = ggml_init(p);
    ggml_tensor *k = ggml_new_tensor_1d(ctx_, GGML_TYPE_F32, kCtx);
    ggml_set_name(k, kKeys.c_str());
    ggml_tensor *pos = ggml_new_tensor_1d(ctx_, GGML_TYPE_I32, kCtx);
    ggml_set_name(pos, kPos.c_str());
    dev_buf_ = ggml_backend_alloc_buffer(gpu, 4096);
    host_buf_ = ggml_backend_buft_alloc_buffer(ggml_backend_cpu_buffer_type(), 4096);
    ggml_tallocr on_dev = ggml_tallocr_new(dev_buf_);
    ggml_tallocr_alloc(&on_dev, k);
    ggml_tallocr on_host = ggml_tallocr_new(host_buf_);
    ggml_tallocr_alloc(&on_host, pos);
  }
  ~DecoderCache() {
    ggml_backend_buffer_free(host_buf_);
    ggml_backend_buffer_free(dev_buf_);
    ggml_free(ctx_);
  }

  void reset() {
    ggml_tensor *pos = ggml_get_tensor(ctx_, kPos.c_str());
    auto *p = static_cast<int32_t *>(pos->data);
    for (int i = 0; i < kCtx; i++) p[i] = i;
    ggml_tensor *k = ggml_get_tensor(ctx_, kKeys.c_str());
    ggml_backend_tensor_memset(k, 0, 0, ggml_nbytes(k));
  }

 private:
  ggml_context *ctx_ = nullptr;
  ggml_backend_buffer_t dev_buf_ = nullptr, host_buf_ = nullptr;
};

}  // namespace

int main() {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) return 1;
  {
    DecoderCache cache(gpu);
    cache.reset();
    std::printf("cache reset\n");
  }
  ggml_backend_free(gpu);
  return 0;
}
