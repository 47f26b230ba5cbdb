// corpus/ggml/norm_gain_inplace_clean.c — a normalization layer on whatever backend
// ggml_backend_init_best() gives (a GPU first, else the CPU). Its gain is computed in a host
// array and copied in with ggml_backend_tensor_set, which is right on every backend; the host
// array is then read as often as the program likes.
#include <stdio.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#define N_EMBD 8

struct norm_layer {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *gain;
};

static int norm_layer_init(struct norm_layer *l) {
  l->backend = ggml_backend_init_best();
  if (!l->backend) return 0;
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  l->ctx = ggml_init(params);
  l->gain = ggml_new_tensor_1d(l->ctx, GGML_TYPE_F32, N_EMBD);
  l->buf = ggml_backend_alloc_ctx_tensors(l->ctx, l->backend);
  return l->buf != NULL;
}

int main(void) {
  struct norm_layer l;
  if (!norm_layer_init(&l)) return 1;
  float g[N_EMBD];
  g[0] = 1.0f;
  for (int i = 1; i < N_EMBD; i++) g[i] = g[i - 1] * 0.5f;
  g[N_EMBD - 1] = 0.0f;
  ggml_backend_tensor_set(l.gain, g, 0, sizeof g);
  printf("%s %f\n", ggml_backend_name(l.backend), (double) g[1]);
  ggml_backend_buffer_free(l.buf);
  ggml_free(l.ctx);
  ggml_backend_free(l.backend);
  return 0;
}
