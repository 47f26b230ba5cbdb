// provenance: blind round g9
// llama.cpp-style session files: a small decoder keeps an F16 KV cache on CUDA0, the prompt's
// cache rows are saved to a session file after prefill (llama_state_save_file) and loaded into
// a fresh cache (llama_state_load_file) to continue decoding from there. Both row copies were
// written for the CPU build, where the cache tensors were plain host memory.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_EMBD 32
#define N_LAYER 2
#define N_CTX 32
#define N_VOCAB 24
#define SESSION_MAGIC 0x6767736eu

struct kv_cache {
  enum ggml_type type;
  int n_ctx, used;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *k[N_LAYER], *v[N_LAYER];
};

struct model {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  ggml_gallocr_t galloc;
  struct ggml_tensor *embd, *wk[N_LAYER], *wv[N_LAYER], *wo[N_LAYER], *head;
};

static void set_random(struct ggml_tensor *t, uint32_t seed) {
  int64_t n = ggml_nelements(t);
  float *v = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    v[i] = ((float)(seed >> 16) / 65536.0f - 0.5f) * 0.4f;
  }
  ggml_backend_tensor_set(t, v, 0, ggml_nbytes(t));
  free(v);
}

static void model_init(struct model *m, ggml_backend_t backend) {
  struct ggml_init_params p = {ggml_tensor_overhead() * (3 * N_LAYER + 2), NULL, true};
  m->backend = backend;
  m->ctx = ggml_init(p);
  m->embd = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  for (int il = 0; il < N_LAYER; il++) {
    m->wk[il] = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    m->wv[il] = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    m->wo[il] = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
  }
  m->head = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
  uint32_t seed = 3;
  for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx); t; t = ggml_get_next_tensor(m->ctx, t)) set_random(t, seed++);
  m->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
}

static int kv_cache_init(struct kv_cache *kv, ggml_backend_t backend, enum ggml_type type, int n_ctx) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 2 * N_LAYER, NULL, true};
  memset(kv, 0, sizeof *kv);
  kv->type = type;
  kv->n_ctx = n_ctx;
  kv->ctx = ggml_init(p);
  for (int il = 0; il < N_LAYER; il++) {
    kv->k[il] = ggml_new_tensor_2d(kv->ctx, type, N_EMBD, n_ctx);
    kv->v[il] = ggml_new_tensor_2d(kv->ctx, type, N_EMBD, n_ctx);
    ggml_format_name(kv->k[il], "cache_k_l%d", il);
    ggml_format_name(kv->v[il], "cache_v_l%d", il);
  }
  kv->buf = ggml_backend_alloc_ctx_tensors(kv->ctx, backend);
  if (!kv->buf) return 0;
  ggml_backend_buffer_clear(kv->buf, 0);
  return 1;
}

static void kv_cache_free(struct kv_cache *kv) {
  ggml_backend_buffer_free(kv->buf);
  ggml_free(kv->ctx);
}

/* one token through the layers, attending over the cache; returns the argmax token */
static int decode_one(struct model *m, struct kv_cache *kv, int token) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *id = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
  ggml_set_input(id);
  struct ggml_tensor *x = ggml_get_rows(ctx, m->embd, id);
  const int pos = kv->used, n_kv = pos + 1;
  for (int il = 0; il < N_LAYER; il++) {
    struct ggml_tensor *k = ggml_mul_mat(ctx, m->wk[il], x);
    struct ggml_tensor *v = ggml_mul_mat(ctx, m->wv[il], x);
    size_t row = ggml_row_size(kv->type, N_EMBD);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, k, ggml_view_2d(ctx, kv->k[il], N_EMBD, 1, row, row * pos)));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, v, ggml_view_2d(ctx, kv->v[il], N_EMBD, 1, row, row * pos)));
    struct ggml_tensor *K = ggml_view_2d(ctx, kv->k[il], N_EMBD, n_kv, row, 0);
    struct ggml_tensor *V = ggml_view_2d(ctx, kv->v[il], N_EMBD, n_kv, row, 0);
    struct ggml_tensor *att = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, K, x), NULL, 1.0f / sqrtf((float)N_EMBD), 0.0f);
    struct ggml_tensor *Vt = ggml_cont(ctx, ggml_transpose(ctx, ggml_cast(ctx, V, GGML_TYPE_F32)));
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, m->wo[il], ggml_mul_mat(ctx, Vt, att)));
  }
  struct ggml_tensor *logits = ggml_mul_mat(ctx, m->head, ggml_rms_norm(ctx, x, 1e-5f));
  ggml_set_output(logits);
  ggml_build_forward_expand(gf, logits);
  ggml_gallocr_alloc_graph(m->galloc, gf);
  int32_t tok = token;
  ggml_backend_tensor_set(id, &tok, 0, sizeof tok);
  ggml_backend_graph_compute(m->backend, gf);
  float out[N_VOCAB];
  ggml_backend_tensor_get(logits, out, 0, sizeof out);
  ggml_free(ctx);
  kv->used++;
  int best = 0;
  for (int i = 1; i < N_VOCAB; i++)
    if (out[i] > out[best]) best = i;
  return best;
}

static void write_rows(FILE *f, const struct ggml_tensor *t, int n_rows) {
  fwrite(t->data, ggml_row_size(t->type, t->ne[0]), (size_t)n_rows, f); // expect-error: ggml-host-access
}

static int read_rows(FILE *f, struct ggml_tensor *t, int n_rows) {
  size_t row = ggml_row_size(t->type, t->ne[0]);
  return fread(t->data, row, (size_t)n_rows, f) == (size_t)n_rows; // expect-error: ggml-host-access
}

static int session_save(FILE *f, const struct kv_cache *kv, int last_token) {
  uint32_t hdr[4] = {SESSION_MAGIC, (uint32_t)kv->type, (uint32_t)kv->used, (uint32_t)last_token};
  if (fwrite(hdr, sizeof hdr, 1, f) != 1) return 0;
  for (int il = 0; il < N_LAYER; il++) {
    write_rows(f, kv->k[il], kv->used);
    write_rows(f, kv->v[il], kv->used);
  }
  return fflush(f) == 0;
}

/* returns the token to continue from, or -1 */
static int session_load(FILE *f, struct kv_cache *kv) {
  uint32_t hdr[4];
  if (fread(hdr, sizeof hdr, 1, f) != 1 || hdr[0] != SESSION_MAGIC || hdr[1] != (uint32_t)kv->type) return -1;
  if (hdr[2] > (uint32_t)kv->n_ctx) return -1;
  for (int il = 0; il < N_LAYER; il++) {
    if (!read_rows(f, kv->k[il], (int)hdr[2]) || !read_rows(f, kv->v[il], (int)hdr[2])) return -1;
  }
  kv->used = (int)hdr[2];
  return (int)hdr[3];
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) return 1;
  struct model m;
  model_init(&m, gpu);
  struct kv_cache kv, restored;
  if (!kv_cache_init(&kv, gpu, GGML_TYPE_F16, N_CTX)) return 1;

  const int prompt[] = {3, 9, 14, 2, 7, 11};
  int tok = 0;
  for (size_t i = 0; i < sizeof prompt / sizeof prompt[0]; i++) tok = decode_one(&m, &kv, prompt[i]);

  FILE *f = tmpfile();
  if (!f || !session_save(f, &kv, tok)) return 1;
  rewind(f);
  if (!kv_cache_init(&restored, gpu, GGML_TYPE_F16, N_CTX)) return 1;
  int tok_r = session_load(f, &restored);
  fclose(f);
  if (tok_r != tok) return 1;

  int same = 1;
  for (int step = 0; step < 4; step++) {
    int a = decode_one(&m, &kv, tok), b = decode_one(&m, &restored, tok_r);
    printf("step %d: live %d, restored %d\n", step, a, b);
    same &= a == b;
    tok = a;
    tok_r = b;
  }
  printf("session restore %s\n", same ? "matches" : "DIFFERS");

  kv_cache_free(&restored);
  kv_cache_free(&kv);
  ggml_gallocr_free(m.galloc);
  ggml_backend_buffer_free(m.buf);
  ggml_free(m.ctx);
  ggml_backend_free(gpu);
  return same ? 0 : 2;
}
