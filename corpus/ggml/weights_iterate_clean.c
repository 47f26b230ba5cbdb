// corpus/ggml/weights_iterate_clean.c — a checkpoint loader that walks the model's weight context
// with ggml_get_first_tensor / ggml_get_next_tensor and fills each tensor from a generator,
// after the context was allocated in the GPU backend's buffer. The fix of weights_iterate_bug.c:
// ggml_backend_tensor_set copies into device memory. The tensors are then placed one by one
// through a ggml_tallocr over the same iteration in a second context (host memory or not,
// decided by ggml_backend_buffer_is_host), and written only once placed.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

struct model {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *w, *b;
};

static void synth(float *dst, int64_t n, uint32_t seed) {
  for (int64_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    dst[i] = (float)(seed >> 9) / 8388608.0f - 0.5f;
  }
}

static size_t largest(const struct model *m) {
  size_t max = 0;
  for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx); t; t = ggml_get_next_tensor(m->ctx, t))
    if (ggml_nbytes(t) > max) max = ggml_nbytes(t);
  return max;
}

static void load(struct model *m) {
  float *staging = malloc(largest(m));
  uint32_t seed = 1;
  for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx); t; t = ggml_get_next_tensor(m->ctx, t)) {
    synth(staging, ggml_nelements(t), seed++);
    ggml_backend_tensor_set(t, staging, 0, ggml_nbytes(t));
  }
  free(staging);
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) {
    fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  struct ggml_init_params params = {ggml_tensor_overhead() * 4, NULL, true};
  struct model m;
  m.ctx = ggml_init(params);
  m.w = ggml_new_tensor_2d(m.ctx, GGML_TYPE_F32, 8, 4);
  m.b = ggml_new_tensor_1d(m.ctx, GGML_TYPE_F32, 4);
  m.buf = ggml_backend_alloc_ctx_tensors(m.ctx, gpu);
  if (!m.buf) return 1;
  load(&m);

  struct ggml_context *scratch = ggml_init(params);
  struct ggml_tensor *bias = ggml_new_tensor_1d(scratch, GGML_TYPE_F32, 4);
  ggml_backend_buffer_t sbuf = ggml_backend_alloc_buffer(gpu, 4096);
  struct ggml_tallocr ta = ggml_tallocr_new(sbuf);
  for (struct ggml_tensor *t = ggml_get_first_tensor(scratch); t; t = ggml_get_next_tensor(scratch, t))
    if (ggml_tallocr_alloc(&ta, t) != GGML_STATUS_SUCCESS) return 1;
  const float ones[4] = {1, 1, 1, 1};
  if (ggml_backend_buffer_is_host(bias->buffer))
    memcpy(bias->data, ones, sizeof ones);
  else
    ggml_backend_tensor_set(bias, ones, 0, sizeof ones);
  ggml_backend_buffer_free(sbuf);
  ggml_free(scratch);
  ggml_backend_buffer_free(m.buf);
  ggml_free(m.ctx);
  ggml_backend_free(gpu);
  return 0;
}
