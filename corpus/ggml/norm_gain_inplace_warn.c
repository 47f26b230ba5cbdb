// corpus/ggml/norm_gain_inplace_warn.c — a normalization layer on whatever backend
// ggml_backend_init_best() gives (a GPU first, else the CPU). Bug: its gain is initialised in
// place through the tensor's data pointer, right on the CPU and device memory on a GPU; which
// one is decided at run time (a warning). The first touch is the mistake: the program dies
// there on a GPU, and its fix (ggml_backend_tensor_set from a host array) removes the later
// uses of the same pointer too, so they are not findings of their own.
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
  float *g = (float *) l.gain->data;
  g[0] = 1.0f; // expect-warning: ggml-host-access
  for (int i = 1; i < N_EMBD; i++) g[i] = g[i - 1] * 0.5f;
  g[N_EMBD - 1] = 0.0f;
  printf("%s %f\n", ggml_backend_name(l.backend), (double) g[1]);
  ggml_backend_buffer_free(l.buf);
  ggml_free(l.ctx);
  ggml_backend_free(l.backend);
  return 0;
}
