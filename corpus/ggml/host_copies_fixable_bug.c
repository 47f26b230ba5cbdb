// corpus/ggml/host_copies_fixable_bug.c — a scale-and-shift layer whose parameters live on CUDA
// device 0: the scale is uploaded from a host array, the shift cleared, and the scale read back
// to report its norm. Bug: all three go through the tensors' data pointers with memcpy and
// memset, which is device memory (it works on the CPU backend only). Each call has a
// mechanical fix — ggml_backend_tensor_set, ggml_backend_tensor_memset, ggml_backend_tensor_get
// with the same arguments — that tagcheck offers as a fix-it (tests/ggml/fixit.py applies them
// and runs the fixed program on the oracle).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#define N_FEATURES 16

struct layer {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *scale, *shift;
};

static int layer_init(struct layer *l, ggml_backend_t backend) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  l->ctx = ggml_init(params);
  if (!l->ctx) return -1;
  l->scale = ggml_new_tensor_1d(l->ctx, GGML_TYPE_F32, N_FEATURES);
  l->shift = ggml_new_tensor_1d(l->ctx, GGML_TYPE_F32, N_FEATURES);
  l->buf = ggml_backend_alloc_ctx_tensors(l->ctx, backend);
  return l->buf ? 0 : -1;
}

static void layer_load(struct layer *l, const float *scale) {
  memcpy(l->scale->data, scale, ggml_nbytes(l->scale)); // expect-error: ggml-host-access
  memset(l->shift->data, 0, ggml_nbytes(l->shift)); // expect-error: ggml-host-access
}

static double scale_norm(const struct layer *l) {
  float back[N_FEATURES];
  struct ggml_tensor *scale = l->scale;
  memcpy(back, scale->data, sizeof back); // expect-error: ggml-host-access
  double sum = 0.0;
  for (int i = 0; i < N_FEATURES; i++) sum += (double)back[i] * back[i];
  return sqrt(sum);
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) {
    fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  struct layer l;
  if (layer_init(&l, gpu) != 0) return 1;
  float scale[N_FEATURES];
  for (int i = 0; i < N_FEATURES; i++) scale[i] = 0.25f * (float)(i % 4);
  layer_load(&l, scale);
  printf("scale norm %.3f\n", scale_norm(&l));
  ggml_backend_buffer_free(l.buf);
  ggml_free(l.ctx);
  ggml_backend_free(gpu);
  return 0;
}
