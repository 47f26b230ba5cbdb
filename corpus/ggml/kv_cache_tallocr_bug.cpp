// corpus/ggml/kv_cache_tallocr_bug.cpp — a KV cache whose K and V tensors are placed one by one
// in a buffer of the GPU backend through a ggml_tallocr. Bug: the cache is cleared with memset
// on k->data, device memory once the tallocr has placed it (fine on the CPU backend only);
// ggml_backend_tensor_memset (or ggml_backend_buffer_clear) is the call that works on both.
#include <cstring>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

struct kv_cache {
  ggml_backend_t backend = nullptr;
  ggml_context *ctx = nullptr;
  ggml_backend_buffer_t buffer = nullptr;
  ggml_tensor *k = nullptr;
  ggml_tensor *v = nullptr;
};

static bool kv_cache_init(kv_cache &cache, int n_embd, int n_ctx) {
  cache.backend = ggml_backend_cuda_init(0);
  if (!cache.backend) return false;
  ggml_init_params params = {ggml_tensor_overhead() * 2, nullptr, true};
  cache.ctx = ggml_init(params);
  cache.k = ggml_new_tensor_2d(cache.ctx, GGML_TYPE_F32, n_embd, n_ctx);
  cache.v = ggml_new_tensor_2d(cache.ctx, GGML_TYPE_F32, n_embd, n_ctx);
  size_t size = ggml_nbytes(cache.k) + ggml_nbytes(cache.v) + 1024;
  cache.buffer = ggml_backend_alloc_buffer(cache.backend, size);
  ggml_tallocr alloc = ggml_tallocr_new(cache.buffer);
  ggml_tallocr_alloc(&alloc, cache.k);
  ggml_tallocr_alloc(&alloc, cache.v);
  return true;
}

static void kv_cache_clear(kv_cache &cache) {
  std::memset(cache.k->data, 0, ggml_nbytes(cache.k)); // expect-error: ggml-host-access
  ggml_backend_tensor_memset(cache.v, 0, 0, ggml_nbytes(cache.v));
}

static void kv_cache_free(kv_cache &cache) {
  ggml_backend_buffer_free(cache.buffer);
  ggml_free(cache.ctx);
  ggml_backend_free(cache.backend);
}

int main() {
  kv_cache cache;
  if (!kv_cache_init(cache, 64, 32)) return 1;
  kv_cache_clear(cache);
  std::vector<float> row(64, 1.0f);
  ggml_backend_tensor_set(cache.k, row.data(), 0, row.size() * sizeof(float));
  kv_cache_free(cache);
  return 0;
}
