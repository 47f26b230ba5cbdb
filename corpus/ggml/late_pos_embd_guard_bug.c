// corpus/ggml/late_pos_embd_guard_bug.c — a text encoder whose optional positional table is
// guarded by `if (enc.pos_embd)` when the graph is built. Bug: the table is created after
// ggml_backend_alloc_ctx_tensors placed the context, so it has no buffer and setting it aborts
// ("tensor buffer not set"). That one mistake is one finding: the handle itself is never NULL,
// so the guard afterwards takes its true side only, and the inputs set after the graph was
// allocated are fine.
#include <stdlib.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

struct encoder {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct ggml_tensor *tok_embd, *pos_embd;
};

static int encoder_load(struct encoder *enc, int n_embd, int n_vocab, int n_ctx) {
  enc->backend = ggml_backend_cpu_init();
  struct ggml_init_params params = {ggml_tensor_overhead() * 4, NULL, true};
  enc->ctx = ggml_init(params);
  enc->tok_embd = ggml_new_tensor_2d(enc->ctx, GGML_TYPE_F32, n_embd, n_vocab);
  enc->buffer = ggml_backend_alloc_ctx_tensors(enc->ctx, enc->backend);
  enc->pos_embd = ggml_new_tensor_2d(enc->ctx, GGML_TYPE_F32, n_embd, n_ctx);
  float *zeros = calloc((size_t)n_embd * n_ctx, sizeof *zeros);
  if (!zeros) return 0;
  ggml_backend_tensor_set(enc->pos_embd, zeros, 0, ggml_nbytes(enc->pos_embd)); // expect-error: ggml-buffer-not-set
  free(zeros);
  return enc->buffer != NULL;
}

int main(void) {
  struct encoder enc;
  if (!encoder_load(&enc, 8, 32, 16)) return 1;
  struct ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *gctx = ggml_init(gp);
  struct ggml_tensor *x = ggml_new_tensor_2d(gctx, GGML_TYPE_F32, 8, 16);
  ggml_set_input(x);
  struct ggml_tensor *pos_gain = ggml_new_tensor_1d(gctx, GGML_TYPE_F32, 8);
  ggml_set_input(pos_gain);
  struct ggml_tensor *cur = x;
  if (enc.pos_embd) cur = ggml_add(gctx, cur, ggml_mul(gctx, enc.pos_embd, pos_gain));
  struct ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, cur);
  ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(enc.backend));
  if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;
  float in[8 * 16] = {0};
  ggml_backend_tensor_set(x, in, 0, sizeof in);
  float gain[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  ggml_backend_tensor_set(pos_gain, gain, 0, sizeof gain); /* the loader always made the table */
  ggml_backend_graph_compute(enc.backend, gf);
  ggml_gallocr_free(ga);
  ggml_free(gctx);
  ggml_backend_buffer_free(enc.buffer);
  ggml_free(enc.ctx);
  ggml_backend_free(enc.backend);
  return 0;
}
