// corpus/ggml/set_rows_ids_clean.c — the fix of set_rows_ids_bug.c: the slot ids are i64, and
// rope_ext_positions_bug.c's positions i32; both ops are built on a CPU context and computed.
#include "ggml.h"
#include "ggml-cpu.h"

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, false};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *cache = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 64, 128);
  struct ggml_tensor *rows = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 64, 4);
  struct ggml_tensor *slots = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, 4);
  for (int i = 0; i < 4; i++) ((int64_t *)slots->data)[i] = i;
  ggml_set_zero(cache);
  ggml_set_zero(rows);
  struct ggml_tensor *updated = ggml_set_rows(ctx, cache, rows, slots);
  struct ggml_tensor *q = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, 64, 4, 8);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 8);
  for (int i = 0; i < 8; i++) ((int32_t *)pos->data)[i] = i;
  ggml_set_zero(q);
  struct ggml_tensor *qr = ggml_rope_ext(ctx, q, pos, NULL, 64, 0, 4096, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, updated);
  ggml_build_forward_expand(gf, qr);
  ggml_graph_compute_with_ctx(ctx, gf, 1);
  ggml_free(ctx);
  return 0;
}
