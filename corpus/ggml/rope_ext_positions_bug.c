// corpus/ggml/rope_ext_positions_bug.c — YaRN-style rotary embeddings of a query and a key
// block through ggml_rope_ext, whose positions were created as f32 (the caller keeps positions
// as floats for its scaling). Bug: ggml_rope_ext asserts its position tensor is GGML_TYPE_I32.
// The key block reuses the same positions: one mistake, reported once (its fix makes the
// positions i32 for both calls).
#include "ggml.h"

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *q = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, 64, 4, 8);
  struct ggml_tensor *k = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, 64, 4, 8);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 8);
  struct ggml_tensor *qr = ggml_rope_ext(ctx, q, pos, NULL, 64, 0, 4096, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f); // expect-error: ggml-type-mismatch
  struct ggml_tensor *kr = ggml_rope_ext(ctx, k, pos, NULL, 64, 0, 4096, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, ggml_add(ctx, qr, kr));
  ggml_free(ctx);
  return 0;
}
