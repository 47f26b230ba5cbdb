// corpus/ggml/set_rows_ids_bug.c — a cache update that scatters a block of new rows into a
// cache tensor with ggml_set_rows. Bug: the slot ids were created as f32; ggml_set_rows asserts
// its row ids are GGML_TYPE_I64 or GGML_TYPE_I32.
#include "ggml.h"

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *cache = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 64, 128);
  struct ggml_tensor *rows = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 64, 4);
  struct ggml_tensor *slots = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  struct ggml_tensor *updated = ggml_set_rows(ctx, cache, rows, slots); // expect-error: ggml-type-mismatch
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, updated);
  ggml_free(ctx);
  return 0;
}
