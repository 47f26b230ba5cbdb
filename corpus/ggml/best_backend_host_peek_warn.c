// corpus/ggml/best_backend_host_peek_warn.c — a KV cache on whichever device
// ggml_backend_init_best picks (CPU or GPU: known only at run time). A debug helper prints the
// first key: straight from k->data when the cache's buffer is host memory, through
// ggml_backend_tensor_get otherwise. A second helper asks the same question the other way
// round, but tests the wrong buffer: the scratch buffer of plain CPU memory, which is always
// host memory. A warning: on the GPU (the emulated device is the best one) k->data is device
// memory.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#define N_CTX 16

struct kv_cache {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf, scratch;
  struct ggml_tensor *k, *v;
};

static int kv_init(struct kv_cache *kv, ggml_backend_t be) {
  struct ggml_init_params p = {2 * ggml_tensor_overhead(), NULL, true};
  kv->ctx = ggml_init(p);
  kv->k = ggml_new_tensor_1d(kv->ctx, GGML_TYPE_F32, N_CTX);
  kv->v = ggml_new_tensor_1d(kv->ctx, GGML_TYPE_F32, N_CTX);
  ggml_backend_dev_t dev = ggml_backend_get_device(be);
  kv->buf = ggml_backend_alloc_ctx_tensors_from_buft(kv->ctx, ggml_backend_dev_buffer_type(dev));
  if (!kv->buf) return 0;
  ggml_backend_buffer_clear(kv->buf, 0);
  kv->scratch = ggml_backend_buft_alloc_buffer(ggml_backend_cpu_buffer_type(), 64);
  return kv->scratch != NULL;
}

static float first_key(const struct kv_cache *kv) {
  if (ggml_backend_buffer_is_host(kv->scratch)) {
    const float *k = (const float *)kv->k->data;
    return k[0]; // expect-warning: ggml-host-access
  }
  float k0 = 0.0f;
  ggml_backend_tensor_get(kv->k, &k0, 0, sizeof k0);
  return k0;
}

static float first_value(const struct kv_cache *kv) {
  float v0 = 0.0f;
  if (!ggml_backend_buffer_is_host(kv->v->buffer)) {
    ggml_backend_tensor_get(kv->v, &v0, 0, sizeof v0);
  } else {
    v0 = ((const float *)kv->v->data)[0];
  }
  return v0;
}

int main(void) {
  ggml_backend_t be = ggml_backend_init_best();
  if (!be) return 1;
  struct kv_cache kv;
  if (!kv_init(&kv, be)) return 1;
  printf("k[0]=%.1f v[0]=%.1f\n", first_key(&kv), first_value(&kv));
  ggml_backend_buffer_free(kv.scratch);
  ggml_backend_buffer_free(kv.buf);
  ggml_free(kv.ctx);
  ggml_backend_free(be);
  return 0;
}
