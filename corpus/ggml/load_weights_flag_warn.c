// corpus/ggml/load_weights_flag_warn.c — the same loader with the backend picked from the
// command line, but the copy into t->data left unguarded. It works with --cpu and crashes on
// the GPU path: a warning, since which backend runs depends on the flag.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

struct layer {
  struct ggml_tensor *weight, *bias;
};

struct model {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct layer layers[2];
};

static void fill_from(struct ggml_tensor *t, const float *src) {
  memcpy(t->data, src, ggml_nbytes(t)); // expect-warning: ggml-host-access
}

int main(int argc, char **argv) {
  struct model m;
  m.backend = (argc > 1 && strcmp(argv[1], "--cpu") == 0) ? ggml_backend_cpu_init()
                                                           : ggml_backend_cuda_init(0);
  struct ggml_init_params params = {ggml_tensor_overhead() * 4, NULL, true};
  m.ctx = ggml_init(params);
  for (int l = 0; l < 2; l++) {
    m.layers[l].weight = ggml_new_tensor_2d(m.ctx, GGML_TYPE_F32, 64, 64);
    m.layers[l].bias = ggml_new_tensor_1d(m.ctx, GGML_TYPE_F32, 64);
  }
  m.buffer = ggml_backend_alloc_ctx_tensors(m.ctx, m.backend);
  float *init = calloc(64 * 64, sizeof *init);
  if (!init) return 1;
  for (int l = 0; l < 2; l++) {
    fill_from(m.layers[l].weight, init);
    ggml_backend_tensor_set(m.layers[l].bias, init, 0, ggml_nbytes(m.layers[l].bias));
  }
  free(init);
  ggml_backend_buffer_free(m.buffer);
  ggml_free(m.ctx);
  ggml_backend_free(m.backend);
  return 0;
}
