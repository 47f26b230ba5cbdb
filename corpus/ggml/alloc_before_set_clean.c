// corpus/ggml/alloc_before_set_clean.c — the fix of alloc_skipped_bug.c: every tensor is created
// first, the context is allocated on the backend on every path (the --lazy flag only defers
// loading the data), and the scratch context gets a buffer of its own.
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

static void embedder_init(struct embedder *e, int n_vocab, int n_embd, int n_ctx) {
  e->backend = ggml_backend_cpu_init();
  struct ggml_init_params params = {ggml_tensor_overhead() * 4, NULL, true};
  e->ctx = ggml_init(params);
  e->tok_embd = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, n_embd, n_vocab);
  e->pos_embd = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, n_embd, n_ctx);
  e->buffer = ggml_backend_alloc_ctx_tensors(e->ctx, e->backend);
}

int main(int argc, char **argv) {
  int lazy = argc > 1 && strcmp(argv[1], "--lazy") == 0;
  struct embedder e;
  embedder_init(&e, 1000, 64, 128);
  float *table = calloc(1000 * 64, sizeof *table);
  if (!table) return 1;
  if (!lazy) {
    ggml_backend_tensor_set(e.tok_embd, table, 0, ggml_nbytes(e.tok_embd));
    ggml_backend_tensor_set(e.pos_embd, table, 0, ggml_nbytes(e.pos_embd));
  }

  struct ggml_init_params sp = {ggml_tensor_overhead() * 2, NULL, true};
  struct ggml_context *scratch = ggml_init(sp);
  struct ggml_tensor *ids = ggml_new_tensor_1d(scratch, GGML_TYPE_I32, 16);
  ggml_backend_buffer_t scratch_buf =
      ggml_backend_alloc_ctx_tensors_from_buft(scratch, ggml_backend_get_default_buffer_type(e.backend));
  ggml_backend_tensor_memset(ids, 0, 0, ggml_nbytes(ids));
  free(table);
  ggml_backend_buffer_free(scratch_buf);
  ggml_free(scratch);
  ggml_backend_buffer_free(e.buffer);
  ggml_free(e.ctx);
  ggml_backend_free(e.backend);
  return 0;
}
