// corpus/ggml/concat_cast_clean.c — the fix of concat_mixed_types_bug.c: the f16
// embeddings are cast to f32 before ggml_concat, so both inputs share one type. No findings.
#include "ggml.h"

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *tok = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, 64, 8);
  struct ggml_tensor *pos = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 16, 8);
  struct ggml_tensor *x = ggml_concat(ctx, ggml_cast(ctx, tok, GGML_TYPE_F32), pos, 0);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, ggml_relu(ctx, x));
  ggml_free(ctx);
  return 0;
}
