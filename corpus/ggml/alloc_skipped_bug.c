// corpus/ggml/alloc_skipped_bug.c — an embedding model whose tensors live in a no_alloc context.
// Bugs: the buffer allocation was moved behind a --lazy flag, so on that path the embedding
// table is set before any buffer exists (a warning: the flag decides); the positional table is
// created after the context was allocated, so ggml_backend_alloc_ctx_tensors never placed it
// (an error on every path); the scratch context is never allocated at all (an error).
// ggml aborts with "tensor buffer not set" in each case.
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

struct embedder {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct ggml_tensor *tok_embd, *pos_embd;
};

static void embedder_init(struct embedder *e, int lazy, int n_vocab, int n_embd, int n_ctx) {
  e->backend = ggml_backend_cpu_init();
  struct ggml_init_params params = {ggml_tensor_overhead() * 4, NULL, true};
  e->ctx = ggml_init(params);
  e->tok_embd = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, n_embd, n_vocab);
  e->buffer = NULL;
  if (!lazy) e->buffer = ggml_backend_alloc_ctx_tensors(e->ctx, e->backend);
  e->pos_embd = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, n_embd, n_ctx);
}

int main(int argc, char **argv) {
  int lazy = argc > 1 && strcmp(argv[1], "--lazy") == 0;
  struct embedder e;
  embedder_init(&e, lazy, 1000, 64, 128);
  float *table = calloc(1000 * 64, sizeof *table);
  if (!table) return 1;
  ggml_backend_tensor_set(e.tok_embd, table, 0, ggml_nbytes(e.tok_embd)); // expect-warning: ggml-buffer-not-set
  ggml_backend_tensor_set(e.pos_embd, table, 0, ggml_nbytes(e.pos_embd)); // expect-error: ggml-buffer-not-set

  struct ggml_init_params sp = {ggml_tensor_overhead() * 2, NULL, true};
  struct ggml_context *scratch = ggml_init(sp);
  struct ggml_tensor *ids = ggml_new_tensor_1d(scratch, GGML_TYPE_I32, 16);
  ggml_backend_tensor_memset(ids, 0, 0, ggml_nbytes(ids)); // expect-error: ggml-buffer-not-set
  free(table);
  ggml_free(scratch);
  ggml_backend_buffer_free(e.buffer);
  ggml_free(e.ctx);
  ggml_backend_free(e.backend);
  return 0;
}
