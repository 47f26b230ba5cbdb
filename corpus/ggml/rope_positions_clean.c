// corpus/ggml/rope_positions_clean.c — the fix of rope_positions_bug.c: positions and
// row ids are GGML_TYPE_I32, as ggml_rope and ggml_get_rows require. No findings.
#include "ggml.h"

static struct ggml_tensor *attention_input(struct ggml_context *ctx, struct ggml_tensor *q,
                                           struct ggml_tensor *positions) {
  return ggml_rope(ctx, q, positions, 64, 0);
}

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *table = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 128, 1000);
  struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 8);
  struct ggml_tensor *q = ggml_get_rows(ctx, table, ids);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 8);
  struct ggml_tensor *r = attention_input(ctx, ggml_new_tensor_3d(ctx, GGML_TYPE_F32, 128, 1, 8), pos);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, q);
  ggml_build_forward_expand(gf, r);
  ggml_free(ctx);
  return 0;
}
