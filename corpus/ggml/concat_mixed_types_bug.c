// corpus/ggml/concat_mixed_types_bug.c — joining f16 token embeddings with f32 positional
// features along dim 0. Bug: ggml_concat asserts both inputs share one ggml_type.
#include "ggml.h"

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *tok = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, 64, 8);
  struct ggml_tensor *pos = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 16, 8);
  struct ggml_tensor *x = ggml_concat(ctx, tok, pos, 0); // expect-error: ggml-type-mismatch
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, x);
  ggml_free(ctx);
  return 0;
}
