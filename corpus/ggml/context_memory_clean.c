// corpus/ggml/context_memory_clean.c — classic CPU-only ggml: the context allocates its own
// memory (no_alloc false), so tensor data is host memory; the program fills inputs through
// t->data and ggml_get_data_f32, computes with ggml_graph_compute_with_ctx and reads the result
// on the host. Nothing here needs a backend buffer.
#include <stdio.h>

#include "ggml.h"
#include "ggml-cpu.h"

static void fill(struct ggml_tensor *t, float v) {
  float *d = ggml_get_data_f32(t);
  for (int64_t i = 0; i < ggml_nelements(t); i++) d[i] = v;
}

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, false};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *a = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 4, 4);
  struct ggml_tensor *b = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 4, 4);
  fill(a, 1.0f);
  fill(b, 0.0f);
  ((float *)b->data)[0] = 2.0f;
  struct ggml_tensor *c = ggml_mul_mat(ctx, a, b);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, c);
  ggml_graph_compute_with_ctx(ctx, gf, 4);
  const float *out = (const float *)c->data;
  printf("%f\n", (double)out[0]);
  ggml_free(ctx);
  return 0;
}
