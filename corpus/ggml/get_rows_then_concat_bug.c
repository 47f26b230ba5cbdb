// corpus/ggml/get_rows_then_concat_bug.c — a prompt embedding: token rows are looked up with
// ggml_get_rows and appended to an f16 prefix. Bugs: the token ids were made f32 (ggml_get_rows
// asserts GGML_TYPE_I32), and, once they are fixed, the looked-up rows are f32 while the prefix
// is f16 (ggml_concat asserts one ggml_type).
#include "ggml.h"

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *table = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 64, 1000);
  struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 8);
  struct ggml_tensor *prefix = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, 64, 4);
  struct ggml_tensor *x = ggml_get_rows(ctx, table, ids); // expect-error: ggml-type-mismatch
  struct ggml_tensor *all = ggml_concat(ctx, prefix, x, 1); // expect-error: ggml-type-mismatch
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, all);
  ggml_free(ctx);
  return 0;
}
