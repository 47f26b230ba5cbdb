// corpus/ggml/kv_cache_tallocr_clean.cpp — the fix of kv_cache_tallocr_bug.cpp: the backend is
// the GPU when there is one, else the CPU; K and V are placed one by one through a ggml_tallocr
// and cleared with memset only where their buffer is host memory
// (ggml_backend_buffer_is_host), through ggml_backend_tensor_memset elsewhere.
#include <cstring>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

struct kv_cache {
  ggml_backend_t backend = nullptr;
  ggml_context *ctx = nullptr;
  ggml_backend_buffer_t buffer = nullptr;
  ggml_tensor *k = nullptr;
  ggml_tensor *v = nullptr;
};

static void clear_tensor(ggml_tensor *t) {
  if (ggml_backend_buffer_is_host(t->buffer)) {
    std::memset(t->data, 0, ggml_nbytes(t));
  } else {
    ggml_backend_tensor_memset(t, 0, 0, ggml_nbytes(t));
  }
}

static void kv_cache_init(kv_cache &cache, int n_embd, int n_ctx, bool use_gpu) {
  if (use_gpu) cache.backend = ggml_backend_cuda_init(0);
  if (!cache.backend) cache.backend = ggml_backend_cpu_init();
  ggml_init_params params = {ggml_tensor_overhead() * 2, nullptr, true};
  cache.ctx = ggml_init(params);
  cache.k = ggml_new_tensor_2d(cache.ctx, GGML_TYPE_F32, n_embd, n_ctx);
  cache.v = ggml_new_tensor_2d(cache.ctx, GGML_TYPE_F32, n_embd, n_ctx);
  size_t size = ggml_nbytes(cache.k) + ggml_nbytes(cache.v) + 1024;
  cache.buffer = ggml_backend_alloc_buffer(cache.backend, size);
  ggml_tallocr alloc = ggml_tallocr_new(cache.buffer);
  ggml_tallocr_alloc(&alloc, cache.k);
  ggml_tallocr_alloc(&alloc, cache.v);
  clear_tensor(cache.k);
  clear_tensor(cache.v);
}

int main(int argc, char **argv) {
  kv_cache cache;
  kv_cache_init(cache, 64, 32, argc < 2);
  (void)argv;
  std::vector<float> row(64, 1.0f);
  ggml_backend_tensor_set(cache.k, row.data(), 0, row.size() * sizeof(float));
  std::vector<float> back(64);
  ggml_backend_tensor_get(cache.k, back.data(), 0, back.size() * sizeof(float));
  ggml_backend_buffer_free(cache.buffer);
  ggml_free(cache.ctx);
  ggml_backend_free(cache.backend);
  return back[0] == 1.0f ? 0 : 1;
}
