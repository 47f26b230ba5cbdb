// corpus/ggml/load_weights_guarded_clean.c — the fix of load_weights_memcpy_bug.c, with the
// backend picked from the command line (--cpu or CUDA device 0): host access to tensor data is
// guarded by ggml_backend_buffer_is_host, and device tensors are written with
// ggml_backend_tensor_set / ggml_backend_tensor_memset. Clean on both backends.
// The oracle runs the GPU path, with weights read as zeros:
// run-args: --gpu /dev/zero
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
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
  if (ggml_backend_buffer_is_host(t->buffer)) {
    memcpy(t->data, staging, ggml_nbytes(t)); /* host memory: a plain copy is fine */
  } else {
    ggml_backend_tensor_set(t, staging, 0, ggml_nbytes(t));
  }
  free(staging);
}

static void mlp_init(struct mlp *m, int use_cpu, int n_in, int n_hidden, int n_out) {
  m->backend = use_cpu ? ggml_backend_cpu_init() : ggml_backend_cuda_init(0);
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
  int use_cpu = argc > 1 && strcmp(argv[1], "--cpu") == 0;
  struct mlp m;
  mlp_init(&m, use_cpu, 784, 128, 10);
  FILE *f = fopen(argc > 2 ? argv[2] : "mlp.bin", "rb");
  if (!f) {
    mlp_free(&m);
    return 1;
  }
  load_tensor(m.w1, f);
  load_tensor(m.b1, f);
  load_tensor(m.w2, f);
  fclose(f);
  ggml_backend_tensor_memset(m.b2, 0, 0, ggml_nbytes(m.b2));
  if (ggml_backend_is_cpu(m.backend)) {
    float *bias = (float *)m.b2->data;
    for (int i = 0; i < 10; i++) bias[i] += 0.5f;
  }
  mlp_free(&m);
  return 0;
}
