// corpus/ggml/kv_cache_device_source_bug.c — after each decoding step the new keys and values
// (computed on CUDA) are appended to a KV cache in the same backend's buffer. Bugs: the new
// keys' device pointer is handed to ggml_backend_tensor_set as if it were host memory, and the
// values are copied with memcpy between two device pointers; ggml_backend_tensor_copy (or a
// get into a host buffer, then a set) is what works.
#include <string.h>

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
  ggml_backend_tensor_set(cache->k, out->k_new->data, 0, ggml_nbytes(out->k_new)); // expect-error: ggml-host-access
  memcpy(cache->v->data, out->v_new->data, ggml_nbytes(out->v_new)); // expect-error: ggml-host-access
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  struct ggml_init_params params = {ggml_tensor_overhead() * 8, NULL, true};
  struct ggml_context *cache_ctx = ggml_init(params);
  struct ggml_context *step_ctx = ggml_init(params);
  struct kv_cache cache;
  cache.k = ggml_new_tensor_2d(cache_ctx, GGML_TYPE_F16, 128, 512);
  cache.v = ggml_new_tensor_2d(cache_ctx, GGML_TYPE_F16, 128, 512);
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
