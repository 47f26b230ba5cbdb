// corpus/ggml/kv_cache_copy_clean.c — the fix of kv_cache_device_source_bug.c: the new keys are
// copied tensor to tensor with ggml_backend_tensor_copy, the values through a host staging
// buffer (ggml_backend_tensor_get, then ggml_backend_tensor_set). Clean on any backend.
#include <stdlib.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

struct kv_cache {
  struct ggml_tensor *k, *v;
};

struct step_out {
  struct ggml_tensor *k_new, *v_new;
};

static void cache_append(struct kv_cache *cache, const struct step_out *out) {
  ggml_backend_tensor_copy(out->k_new, cache->k);
  size_t n = ggml_nbytes(out->v_new);
  void *staging = malloc(n);
  if (!staging) return;
  ggml_backend_tensor_get(out->v_new, staging, 0, n);
  ggml_backend_tensor_set(cache->v, staging, 0, n);
  free(staging);
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  struct ggml_init_params params = {ggml_tensor_overhead() * 8, NULL, true};
  struct ggml_context *cache_ctx = ggml_init(params);
  struct ggml_context *step_ctx = ggml_init(params);
  struct kv_cache cache;
  cache.k = ggml_new_tensor_2d(cache_ctx, GGML_TYPE_F16, 128, 1);
  cache.v = ggml_new_tensor_2d(cache_ctx, GGML_TYPE_F16, 128, 1);
  struct step_out out;
  out.k_new = ggml_new_tensor_2d(step_ctx, GGML_TYPE_F16, 128, 1);
  out.v_new = ggml_new_tensor_2d(step_ctx, GGML_TYPE_F16, 128, 1);
  ggml_backend_buffer_t cache_buf = ggml_backend_alloc_ctx_tensors(cache_ctx, gpu);
  ggml_backend_buffer_t step_buf = ggml_backend_alloc_ctx_tensors(step_ctx, gpu);
  cache_append(&cache, &out);
  ggml_backend_buffer_free(step_buf);
  ggml_backend_buffer_free(cache_buf);
  ggml_free(step_ctx);
  ggml_free(cache_ctx);
  ggml_backend_free(gpu);
  return 0;
}
