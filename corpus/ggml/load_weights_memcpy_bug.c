// corpus/ggml/load_weights_memcpy_bug.c — a two-layer MLP whose weights are read from a file
// into a host staging array and copied into tensors allocated on CUDA device 0. Bug: memcpy
// into t->data and the bias loop write through device pointers (they work on the CPU backend,
// and crash on a GPU machine); ggml_backend_tensor_set is the copy that works on both.
// The oracle runs it with weights read as zeros:
// run-args: /dev/zero
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

struct mlp {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct ggml_tensor *w1, *b1, *w2, *b2;
};

static void read_floats(FILE *f, float *dst, size_t n) {
  if (fread(dst, sizeof *dst, n, f) != n) memset(dst, 0, n * sizeof *dst);
}

static void load_tensor(struct ggml_tensor *t, FILE *f) {
  size_t n = (size_t)ggml_nelements(t);
  float *staging = malloc(n * sizeof *staging);
  if (!staging) return;
  read_floats(f, staging, n);
  memcpy(t->data, staging, ggml_nbytes(t)); // expect-error: ggml-host-access
  free(staging);
}

static void mlp_init(struct mlp *m, int n_in, int n_hidden, int n_out) {
  m->backend = ggml_backend_cuda_init(0);
  struct ggml_init_params params = {ggml_tensor_overhead() * 8, NULL, true};
  m->ctx = ggml_init(params);
  m->w1 = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, n_in, n_hidden);
  m->b1 = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, n_hidden);
  m->w2 = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, n_hidden, n_out);
  m->b2 = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, n_out);
  m->buffer = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
}

static void mlp_free(struct mlp *m) {
  ggml_backend_buffer_free(m->buffer);
  ggml_free(m->ctx);
  ggml_backend_free(m->backend);
}

int main(int argc, char **argv) {
  struct mlp m;
  mlp_init(&m, 784, 128, 10);
  FILE *f = fopen(argc > 1 ? argv[1] : "mlp.bin", "rb");
  if (!f) {
    mlp_free(&m);
    return 1;
  }
  load_tensor(m.w1, f);
  load_tensor(m.b1, f);
  load_tensor(m.w2, f);
  fclose(f);
  float *bias = (float *)m.b2->data;
  for (int i = 0; i < 10; i++) bias[i] = 0.0f; // expect-error: ggml-host-access
  mlp_free(&m);
  return 0;
}
