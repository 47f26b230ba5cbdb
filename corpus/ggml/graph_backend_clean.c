// corpus/ggml/graph_backend_clean.c — the fix of graph_wrong_backend_bug.c: the graph is
// computed on the backend that holds the weights (picked from the command line), inputs and
// outputs go through ggml_backend_tensor_set / ggml_backend_tensor_get.
// The oracle runs it on the (emulated) GPU:
// run-args: --gpu
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-alloc.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

struct linear {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct ggml_tensor *w, *b;
};

static void linear_init(struct linear *l, ggml_backend_t backend, int n_in, int n_out) {
  l->backend = backend;
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  l->ctx = ggml_init(params);
  l->w = ggml_new_tensor_2d(l->ctx, GGML_TYPE_F32, n_in, n_out);
  l->b = ggml_new_tensor_1d(l->ctx, GGML_TYPE_F32, n_out);
  l->buffer = ggml_backend_alloc_ctx_tensors(l->ctx, l->backend);
}

static struct ggml_cgraph *build_graph(struct ggml_context *ctx0, const struct linear *l,
                                       struct ggml_tensor *x, struct ggml_tensor **out) {
  struct ggml_cgraph *gf = ggml_new_graph(ctx0);
  *out = ggml_add(ctx0, ggml_mul_mat(ctx0, l->w, x), l->b);
  ggml_build_forward_expand(gf, *out);
  return gf;
}

int main(int argc, char **argv) {
  int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  struct linear l;
  linear_init(&l, gpu ? ggml_backend_cuda_init(0) : ggml_backend_cpu_init(), 256, 16);
  struct ggml_init_params p0 = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx0 = ggml_init(p0);
  struct ggml_tensor *x = ggml_new_tensor_1d(ctx0, GGML_TYPE_F32, 256);
  struct ggml_tensor *y = NULL;
  struct ggml_cgraph *gf = build_graph(ctx0, &l, x, &y);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(l.backend));
  ggml_gallocr_alloc_graph(galloc, gf);
  float input[256] = {0};
  ggml_backend_tensor_set(x, input, 0, sizeof input);
  ggml_backend_graph_compute(l.backend, gf);
  float result[16];
  ggml_backend_tensor_get(y, result, 0, sizeof result);
  printf("%f\n", (double)result[0]);
  ggml_gallocr_free(galloc);
  ggml_free(ctx0);
  ggml_backend_buffer_free(l.buffer);
  ggml_free(l.ctx);
  ggml_backend_free(l.backend);
  return 0;
}
