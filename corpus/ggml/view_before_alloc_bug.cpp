// corpus/ggml/view_before_alloc_bug.cpp — a token-embedding table and a view of its first rows
// (the rows a prompt of four tokens uses), made in a no_alloc context. Bug: the view is written
// before the context is allocated: a view lives where its source lives, and its source has no
// buffer yet, so ggml_backend_tensor_set aborts with "tensor buffer not set".
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

struct embeddings {
  ggml_context *ctx;
  ggml_tensor *table;
  ggml_tensor *prompt_rows;
};

static embeddings make_embeddings(int n_embd, int n_vocab, int n_prompt) {
  ggml_init_params params = {ggml_tensor_overhead() * 4, nullptr, true};
  embeddings e;
  e.ctx = ggml_init(params);
  e.table = ggml_new_tensor_2d(e.ctx, GGML_TYPE_F32, n_embd, n_vocab);
  e.prompt_rows = ggml_view_2d(e.ctx, e.table, n_embd, n_prompt, e.table->nb[1], 0);
  return e;
}

int main() {
  embeddings e = make_embeddings(8, 32, 4);
  std::vector<float> rows(8 * 4, 0.5f);
  ggml_backend_tensor_set(e.prompt_rows, rows.data(), 0, rows.size() * sizeof(float)); // expect-error: ggml-buffer-not-set
  ggml_backend_t backend = ggml_backend_cpu_init();
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(e.ctx, backend);
  ggml_backend_buffer_free(buf);
  ggml_free(e.ctx);
  ggml_backend_free(backend);
  return 0;
}
