// corpus/ggml/multi_gpu_layers_bug.c — a two-layer model split over two GPUs: layer 0's weights
// on CUDA0, layer 1's on CUDA1, each layer's graph meant to run on the device that holds its
// weights. Bug: a helper computes every layer on the first device's backend: layer 1's graph
// reads CUDA1 memory from CUDA0 (ggml_backend_sched splits such graphs; a plain
// ggml_backend_graph_compute does not).
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
  ggml_backend_tensor_memset(l->w, 0, 0, ggml_nbytes(l->w));
  return true;
}

static void run_layer(ggml_backend_t backend, struct layer *l) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 4 + ggml_graph_overhead(), NULL,
                                    true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *out = ggml_scale(ctx, ggml_sqr(ctx, l->w), 0.5f);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, out);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
  if (ggml_gallocr_alloc_graph(galloc, gf)) ggml_backend_graph_compute(backend, gf); // expect-error: ggml-backend-mismatch
  ggml_gallocr_free(galloc);
  ggml_free(ctx);
}

int main(void) {
  struct layer layers[2];
  if (!layer_init(&layers[0], 0, 16) || !layer_init(&layers[1], 1, 16)) {
    fprintf(stderr, "two GPUs needed\n");
    return 1;
  }
  ggml_backend_t main_backend = layers[0].backend;
  run_layer(main_backend, &layers[0]);
  run_layer(main_backend, &layers[1]);
  for (int i = 0; i < 2; i++) {
    ggml_backend_buffer_free(layers[i].buf);
    ggml_free(layers[i].ctx);
    ggml_backend_free(layers[i].backend);
  }
  return 0;
}
