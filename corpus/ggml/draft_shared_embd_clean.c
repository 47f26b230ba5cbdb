// corpus/ggml/draft_shared_embd_clean.c — a speculative-decoding pair: the draft model's token
// embedding lives on CUDA1, the target model's weights on CUDA0. The target's forward is given
// its own embedding table: every node of its graph is computed from CUDA0 memory, and the
// graph runs on CUDA0; the draft's forward runs on CUDA1 with the draft's weights only.
#include <stdbool.h>
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

enum { N_EMBD = 8, N_VOCAB = 16 };

struct model {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *tok_embd;
  struct ggml_tensor *proj;
};

static bool model_load(struct model *m, int device) {
  m->backend = ggml_backend_cuda_init(device);
  if (!m->backend) return false;
  struct ggml_init_params params = {ggml_tensor_overhead() * 4, NULL, true};
  m->ctx = ggml_init(params);
  m->tok_embd = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  m->proj = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
  m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
  ggml_backend_tensor_memset(m->tok_embd, 0, 0, ggml_nbytes(m->tok_embd));
  ggml_backend_tensor_memset(m->proj, 0, 0, ggml_nbytes(m->proj));
  return true;
}

static void model_free(struct model *m) {
  ggml_backend_buffer_free(m->buf);
  ggml_free(m->ctx);
  ggml_backend_free(m->backend);
}

/* the embedding table may come from another model (shared weights) */
static int forward(struct model *target, struct ggml_tensor *embd_table) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL,
                                    true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 2);
  ggml_set_input(ids);
  struct ggml_tensor *x = ggml_get_rows(ctx, embd_table, ids);
  struct ggml_tensor *y = ggml_mul_mat(ctx, target->proj, x);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, y);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(target->backend));
  int ok = ggml_gallocr_alloc_graph(galloc, gf);
  if (ok) {
    int32_t tokens[2] = {1, 3};
    ggml_backend_tensor_set(ids, tokens, 0, sizeof tokens);
    ggml_backend_graph_compute(target->backend, gf);
  }
  ggml_gallocr_free(galloc);
  ggml_free(ctx);
  return ok ? 0 : 1;
}

int main(void) {
  struct model target, draft;
  if (!model_load(&target, 0) || !model_load(&draft, 1)) {
    fprintf(stderr, "two GPUs needed\n");
    return 1;
  }
  int rc = forward(&target, target.tok_embd) | forward(&draft, draft.tok_embd);
  model_free(&draft);
  model_free(&target);
  return rc;
}
