// corpus/ggml/kv_cache_context_per_layer_clean.c — a decoder whose per-layer KV cache tensors
// are made either in the weights' context or in a separate cache context, as each layer's
// config says ("offload_kv"), in a loop over the layers; both contexts are then allocated on
// the GPU, so every cache tensor has memory whichever context it went into. Clean: the cache
// is primed with ggml_backend_tensor_set, and the host reads back only through
// ggml_backend_tensor_get.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#define MAX_LAYERS 8
#define N_EMBD 32
#define N_CTX 16

struct layer_config {
  bool offload_kv; /* keep this layer's cache in the separate cache context */
};

struct layer {
  struct ggml_tensor *wq, *wo;
  struct ggml_tensor *k_cache, *v_cache;
};

struct decoder {
  ggml_backend_t backend;
  struct ggml_context *ctx_w, *ctx_kv;
  ggml_backend_buffer_t buf_w, buf_kv;
  int n_layer;
  struct layer layers[MAX_LAYERS];
};

static int parse_layers(int argc, char **argv, struct layer_config *cfg) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  if (n < 1 || n > MAX_LAYERS) n = 2;
  for (int i = 0; i < n; i++) cfg[i].offload_kv = argc > 2 && argv[2][i % strlen(argv[2])] == 'k';
  return n;
}

static bool decoder_init(struct decoder *d, const struct layer_config *cfg, int n_layer) {
  d->backend = ggml_backend_cuda_init(0);
  if (!d->backend) return false;
  struct ggml_init_params params = {ggml_tensor_overhead() * 4 * MAX_LAYERS, NULL, true};
  d->ctx_w = ggml_init(params);
  d->ctx_kv = ggml_init(params);
  d->n_layer = n_layer;
  for (int i = 0; i < n_layer; i++) {
    struct layer *l = &d->layers[i];
    l->wq = ggml_new_tensor_2d(d->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    l->wo = ggml_new_tensor_2d(d->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    if (cfg[i].offload_kv) {
      l->k_cache = ggml_new_tensor_1d(d->ctx_kv, GGML_TYPE_F32, N_EMBD * N_CTX);
      l->v_cache = ggml_new_tensor_1d(d->ctx_kv, GGML_TYPE_F32, N_EMBD * N_CTX);
    } else {
      l->k_cache = ggml_new_tensor_1d(d->ctx_w, GGML_TYPE_F32, N_EMBD * N_CTX);
      l->v_cache = ggml_new_tensor_1d(d->ctx_w, GGML_TYPE_F32, N_EMBD * N_CTX);
    }
  }
  d->buf_w = ggml_backend_alloc_ctx_tensors(d->ctx_w, d->backend);
  d->buf_kv = ggml_backend_alloc_ctx_tensors(d->ctx_kv, d->backend);
  return true;
}

static void decoder_free(struct decoder *d) {
  if (d->buf_kv) ggml_backend_buffer_free(d->buf_kv);
  ggml_backend_buffer_free(d->buf_w);
  ggml_free(d->ctx_kv);
  ggml_free(d->ctx_w);
  ggml_backend_free(d->backend);
}

int main(int argc, char **argv) {
  struct layer_config cfg[MAX_LAYERS];
  int n_layer = parse_layers(argc, argv, cfg);
  struct decoder d;
  if (!decoder_init(&d, cfg, n_layer)) {
    fprintf(stderr, "no GPU\n");
    return 1;
  }
  static float zeros[N_EMBD * N_CTX];
  static float eye[N_EMBD * N_EMBD];
  for (int i = 0; i < N_EMBD; i++) eye[i * N_EMBD + i] = 1.0f;
  for (int i = 0; i < d.n_layer; i++) {
    ggml_backend_tensor_set(d.layers[i].wq, eye, 0, sizeof eye);
    ggml_backend_tensor_set(d.layers[i].wo, eye, 0, sizeof eye);
  }
  for (int i = 0; i < d.n_layer; i++) {
    ggml_backend_tensor_set(d.layers[i].k_cache, zeros, 0, ggml_nbytes(d.layers[i].k_cache));
    ggml_backend_tensor_set(d.layers[i].v_cache, zeros, 0, ggml_nbytes(d.layers[i].v_cache));
  }
  /* the cache a debugging probe reads back: the last offloaded layer's, else layer 0's */
  struct ggml_tensor *probe = d.layers[0].k_cache;
  for (int i = 1; i < d.n_layer; i++)
    if (cfg[i].offload_kv) probe = d.layers[i].k_cache;
  float first = 1.0f;
  ggml_backend_tensor_get(probe, &first, 0, sizeof first);
  printf("decoder ready: %d layers, cache[0] = %.1f\n", d.n_layer, (double)first);
  decoder_free(&d);
  return 0;
}
