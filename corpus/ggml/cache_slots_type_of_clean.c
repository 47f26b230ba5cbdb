// corpus/ggml/cache_slots_type_of_clean.c — a cache update that scatters new rows into a cache
// tensor with ggml_set_rows. The slot ids are made "of the same type as the positions"
// (ggml_new_tensor_1d(ctx, pos->type, n)); the positions are i32, so the slots are too, which
// ggml_set_rows accepts.
#include "ggml.h"

struct kv_batch {
  struct ggml_tensor *rows, *pos, *slots;
};

static void batch_init(struct ggml_context *ctx, struct kv_batch *b, int n_embd, int n) {
  b->rows = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_embd, n);
  b->pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n);
  b->slots = ggml_new_tensor_1d(ctx, b->pos->type, n);
}

int main(void) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *cache = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 64, 128);
  struct kv_batch b;
  batch_init(ctx, &b, 64, 4);
  struct ggml_tensor *updated = ggml_set_rows(ctx, cache, b.rows, b.slots);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, updated);
  ggml_free(ctx);
  return 0;
}
