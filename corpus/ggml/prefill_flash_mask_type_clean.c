// corpus/ggml/prefill_flash_mask_type_clean.c — prompt prefill through ggml_flash_attn_ext, as
// llama.cpp does with flash attention on. ggml_flash_attn_ext asserts that its mask is
// GGML_TYPE_F16 (ggml.c), and this prefill builds its causal mask as F16 for it; the
// ggml_soft_max_ext path, which accepts F16 or F32 masks, is given the F32 one.
#include <math.h>
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#define HEAD_DIM 16
#define N_HEAD 2
#define N_KV 8

static struct ggml_tensor *causal_mask(struct ggml_context *ctx, int n_tokens, enum ggml_type type) {
  struct ggml_tensor *m = ggml_new_tensor_2d(ctx, type, N_KV, n_tokens);
  ggml_set_name(m, "kq_mask");
  ggml_set_input(m);
  return m;
}

static struct ggml_tensor *attention(struct ggml_context *ctx, struct ggml_tensor *q, struct ggml_tensor *k,
                                     struct ggml_tensor *v, struct ggml_tensor *mask) {
  const float scale = 1.0f / sqrtf((float)HEAD_DIM);
  return ggml_flash_attn_ext(ctx, q, k, v, mask, scale, 0.0f, 0.0f);
}

int main(int argc, char **argv) {
  int n_tokens = argc > 1 && argv[1][0] == '4' ? 4 : 3;
  struct ggml_init_params params = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *q = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, HEAD_DIM, n_tokens, N_HEAD);
  struct ggml_tensor *k = ggml_new_tensor_3d(ctx, GGML_TYPE_F16, HEAD_DIM, N_KV, N_HEAD);
  struct ggml_tensor *v = ggml_new_tensor_3d(ctx, GGML_TYPE_F16, HEAD_DIM, N_KV, N_HEAD);
  struct ggml_tensor *mask = causal_mask(ctx, n_tokens, GGML_TYPE_F16);
  struct ggml_tensor *out = attention(ctx, q, k, v, mask);
  struct ggml_tensor *kq = ggml_mul_mat(ctx, ggml_new_tensor_2d(ctx, GGML_TYPE_F32, HEAD_DIM, N_KV),
                                        ggml_new_tensor_2d(ctx, GGML_TYPE_F32, HEAD_DIM, n_tokens));
  struct ggml_tensor *soft = ggml_soft_max_ext(ctx, kq, causal_mask(ctx, n_tokens, GGML_TYPE_F32), 0.25f, 0.0f);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, out);
  ggml_build_forward_expand(gf, soft);
  printf("graph with %d nodes\n", ggml_graph_n_nodes(gf));
  ggml_free(ctx);
  return 0;
}
