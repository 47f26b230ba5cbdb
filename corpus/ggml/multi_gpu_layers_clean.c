// corpus/ggml/multi_gpu_layers_clean.c — the fix of multi_gpu_layers_bug.c: a two-layer model
// split over two GPUs (layer 0 on CUDA0, layer 1 on CUDA1), each layer's graph (an op the
// rules do not name, ggml_sqr, then ggml_scale) allocated and computed on the backend of the
// device that holds its weights, and its output read back with ggml_backend_tensor_get.
#include <stdbool.h>
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

struct layer {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *w;
};

static bool layer_init(struct layer *l, int device, int n) {
  l->backend = ggml_backend_cuda_init(device);
  if (!l->backend) return false;
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  l->ctx = ggml_init(params);
  l->w = ggml_new_tensor_1d(l->ctx, GGML_TYPE_F32, n);
  l->buf = ggml_backend_alloc_ctx_tensors(l->ctx, l->backend);
  float ones[16];
  for (int i = 0; i < 16; i++) ones[i] = 1.0f;
  ggml_backend_tensor_set(l->w, ones, 0, sizeof ones);
  return true;
}

static float run_layer(struct layer *l) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 4 + ggml_graph_overhead(), NULL,
                                    true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *out = ggml_scale(ctx, ggml_sqr(ctx, l->w), 0.5f);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, out);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(l->backend));
  float first = -1.0f;
  if (ggml_gallocr_alloc_graph(galloc, gf)) {
    ggml_backend_graph_compute(l->backend, gf);
    ggml_backend_tensor_get(out, &first, 0, sizeof first);
  }
  ggml_gallocr_free(galloc);
  ggml_free(ctx);
  return first;
}

int main(void) {
  struct layer layers[2];
  if (!layer_init(&layers[0], 0, 16) || !layer_init(&layers[1], 1, 16)) {
    fprintf(stderr, "two GPUs needed\n");
    return 1;
  }
  float sum = 0.0f;
  for (int i = 0; i < 2; i++) sum += run_layer(&layers[i]);
  for (int i = 0; i < 2; i++) {
    ggml_backend_buffer_free(layers[i].buf);
    ggml_free(layers[i].ctx);
    ggml_backend_free(layers[i].backend);
  }
  return sum == 1.0f ? 0 : 1;
}
