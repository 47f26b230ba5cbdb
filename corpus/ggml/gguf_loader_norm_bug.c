// corpus/ggml/gguf_loader_norm_bug.c — a model loader in the style of ggml's examples: a
// converter writes a small GGUF file, then the loader opens it with gguf_init_from_file in
// no_alloc mode (params.ctx receives a context of tensor descriptions), allocates that context
// on the GPU backend, and streams each tensor's bytes from the file with
// ggml_backend_tensor_set. Bug: the loader then checks the output norm by reading it with
// ggml_get_f32_1d, a host accessor, but the tensor lives in GPU memory.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "gguf.h"

#define N_EMBD 4

struct model {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *out_norm;
  int n_embd;
};

static int write_model(const char *path) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 2 + N_EMBD * sizeof(float) + 256,
                                    NULL, false};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *norm = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD);
  ggml_set_name(norm, "output_norm.weight");
  ggml_set_f32(norm, 1.0f);
  struct gguf_context *out = gguf_init_empty();
  gguf_set_val_u32(out, "model.n_embd", N_EMBD);
  gguf_add_tensor(out, norm);
  int ok = gguf_write_to_file(out, path, false);
  gguf_free(out);
  ggml_free(ctx);
  return ok;
}

static int load_tensor_data(struct gguf_context *g, struct ggml_context *meta, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  int ok = 1;
  for (int64_t i = 0; i < gguf_get_n_tensors(g) && ok; i++) {
    const char *name = gguf_get_tensor_name(g, i);
    struct ggml_tensor *t = ggml_get_tensor(meta, name);
    size_t n = ggml_nbytes(t);
    void *bytes = malloc(n);
    ok = bytes && fseek(f, (long) (gguf_get_data_offset(g) + gguf_get_tensor_offset(g, i)), SEEK_SET) == 0 &&
         fread(bytes, 1, n, f) == n;
    if (ok) ggml_backend_tensor_set(t, bytes, 0, n);
    free(bytes);
  }
  fclose(f);
  return ok;
}

static int model_load(struct model *m, const char *path) {
  m->ctx = NULL;
  struct gguf_init_params gp = {true, &m->ctx};
  struct gguf_context *g = gguf_init_from_file(path, gp);
  if (!g) return 0;
  int64_t k = gguf_find_key(g, "model.n_embd");
  m->n_embd = k < 0 ? 0 : (int) gguf_get_val_u32(g, k);
  m->backend = ggml_backend_cuda_init(0);
  if (!m->backend) return 0;
  m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
  int ok = m->buf && load_tensor_data(g, m->ctx, path);
  gguf_free(g);
  m->out_norm = ggml_get_tensor(m->ctx, "output_norm.weight");
  return ok && m->out_norm;
}

int main(void) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/tc_gguf_loader_%d.gguf", (int) getpid());
  if (!write_model(path)) return 1;
  struct model m;
  int ok = model_load(&m, path);
  remove(path);
  if (!ok) return 1;
  float first = ggml_get_f32_1d(m.out_norm, 0); // expect-error: ggml-host-access
  printf("n_embd %d, norm[0] %f\n", m.n_embd, (double) first);
  ggml_backend_buffer_free(m.buf);
  ggml_free(m.ctx);
  ggml_backend_free(m.backend);
  return 0;
}
