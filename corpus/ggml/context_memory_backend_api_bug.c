// corpus/ggml/context_memory_backend_api_bug.c — a CPU-only program ported half-way to
// ggml-backend: its context still allocates its own memory (no_alloc false), but the weights
// are now written with ggml_backend_tensor_set and read back with ggml_backend_tensor_get.
// Bug: those tensors are in no backend buffer ("tensor buffer not set"): either keep using
// t->data, or create the context with no_alloc and allocate it on a backend.
#include "ggml.h"
#include "ggml-backend.h"

struct model {
  struct ggml_context *ctx;
  struct ggml_tensor *w;
};

static void model_init(struct model *m) {
  struct ggml_init_params params = {16u << 20, NULL, false};
  m->ctx = ggml_init(params);
  m->w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, 8, 8);
}

int main(void) {
  struct model m;
  model_init(&m);
  float w[64] = {0};
  ggml_backend_tensor_set(m.w, w, 0, sizeof w); // expect-error: ggml-buffer-not-set
  ggml_backend_tensor_get(m.w, w, 0, sizeof w); // expect-error: ggml-buffer-not-set
  ggml_free(m.ctx);
  return 0;
}
