// provenance: blind round g10
// A two-sequence KV cache with per-sequence views: the cache context holds the K/V tensors and
// views of each sequence's cells, all created before the context is allocated; decoding writes
// K with ggml_cpy into a one-row view and V with ggml_set_rows, attends over a view of the
// filled cells, and clears a finished sequence through its view. `--cpu` keeps everything on
// the CPU; by default the cache, the weights and the graphs all live on the GPU.
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_EMBD 8
#define N_SEQ 2
#define N_SEQ_CTX 6
#define N_CELLS (N_SEQ * N_SEQ_CTX)
#define N_VOCAB 10

struct kv_self {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *k, *v;          /* [N_EMBD, N_CELLS] */
  struct ggml_tensor *k_seq[N_SEQ];   /* views: the cells of one sequence */
  int pos[N_SEQ];
};

struct tiny_lm {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *wq, *wk, *wv, *wout;
  float embd[N_VOCAB][N_EMBD]; /* the embedding table stays on the host */
};

static void lm_init(struct tiny_lm *lm, ggml_backend_t backend) {
  lm->backend = backend;
  struct ggml_init_params p = {ggml_tensor_overhead() * 4, NULL, true};
  lm->ctx = ggml_init(p);
  lm->wq = ggml_new_tensor_2d(lm->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
  lm->wk = ggml_new_tensor_2d(lm->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
  lm->wv = ggml_new_tensor_2d(lm->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
  lm->wout = ggml_new_tensor_2d(lm->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  lm->buf = ggml_backend_alloc_ctx_tensors(lm->ctx, backend);
  float w[N_EMBD * N_VOCAB];
  int salt = 0;
  for (struct ggml_tensor *t = ggml_get_first_tensor(lm->ctx); t; t = ggml_get_next_tensor(lm->ctx, t), salt++) {
    for (int64_t i = 0; i < ggml_nelements(t); i++) w[i] = 0.3f * sinf(0.9f * (float)i + (float)salt);
    ggml_backend_tensor_set(t, w, 0, ggml_nbytes(t));
  }
  for (int tok = 0; tok < N_VOCAB; tok++)
    for (int i = 0; i < N_EMBD; i++) lm->embd[tok][i] = cosf((float)(tok * N_EMBD + i) * 0.21f);
}

static void kv_init(struct kv_self *kv, ggml_backend_t backend) {
  struct ggml_init_params p = {ggml_tensor_overhead() * (2 + N_SEQ), NULL, true};
  kv->ctx = ggml_init(p);
  kv->k = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, N_EMBD, N_CELLS);
  kv->v = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, N_EMBD, N_CELLS);
  ggml_set_name(kv->k, "cache_k");
  ggml_set_name(kv->v, "cache_v");
  for (int s = 0; s < N_SEQ; s++) {
    kv->k_seq[s] = ggml_view_2d(kv->ctx, kv->k, N_EMBD, N_SEQ_CTX, kv->k->nb[1], (size_t)s * N_SEQ_CTX * kv->k->nb[1]);
    ggml_format_name(kv->k_seq[s], "cache_k_seq%d", s);
    kv->pos[s] = 0;
  }
  /* allocates k and v, and initialises the views over them */
  kv->buf = ggml_backend_alloc_ctx_tensors(kv->ctx, backend);
  ggml_backend_buffer_clear(kv->buf, 0);
}

static void kv_seq_clear(struct kv_self *kv, int s) {
  ggml_backend_tensor_memset(kv->k_seq[s], 0, 0, ggml_nbytes(kv->k_seq[s]));
  const float zeros[N_EMBD * N_SEQ_CTX] = {0};
  ggml_backend_tensor_set(kv->v, zeros, (size_t)s * N_SEQ_CTX * kv->v->nb[1], sizeof zeros);
  kv->pos[s] = 0;
}

static struct ggml_cgraph *build_step(struct ggml_context *ctx, const struct tiny_lm *lm, struct kv_self *kv, int s) {
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  const int pos = kv->pos[s];
  const int n_kv = pos + 1;
  struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, 1);
  struct ggml_tensor *cell = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, 1);
  ggml_set_name(x, "inp_embd");
  ggml_set_name(cell, "inp_cell");
  ggml_set_input(x);
  ggml_set_input(cell);

  struct ggml_tensor *q = ggml_mul_mat(ctx, lm->wq, x);
  struct ggml_tensor *k = ggml_mul_mat(ctx, lm->wk, x);
  struct ggml_tensor *v = ggml_mul_mat(ctx, lm->wv, x);
  /* K: copy into the one-row view of this sequence's next cell */
  struct ggml_tensor *k_dst = ggml_view_2d(ctx, kv->k_seq[s], N_EMBD, 1, kv->k_seq[s]->nb[1], (size_t)pos * kv->k_seq[s]->nb[1]);
  ggml_build_forward_expand(gf, ggml_cpy(ctx, k, k_dst));
  /* V: scatter by cell index */
  ggml_build_forward_expand(gf, ggml_set_rows(ctx, kv->v, v, cell));

  struct ggml_tensor *keys = ggml_view_2d(ctx, kv->k_seq[s], N_EMBD, n_kv, kv->k_seq[s]->nb[1], 0);
  struct ggml_tensor *vals = ggml_view_2d(ctx, kv->v, N_EMBD, n_kv, kv->v->nb[1], (size_t)s * N_SEQ_CTX * kv->v->nb[1]);
  struct ggml_tensor *kq = ggml_soft_max_ext(ctx, ggml_mul_mat(ctx, keys, q), NULL, 1.0f / sqrtf((float)N_EMBD), 0.0f);
  struct ggml_tensor *vt = ggml_cont(ctx, ggml_transpose(ctx, vals));
  struct ggml_tensor *attn = ggml_mul_mat(ctx, vt, kq);
  struct ggml_tensor *logits = ggml_mul_mat(ctx, lm->wout, ggml_add(ctx, attn, x));
  ggml_set_name(logits, "logits");
  ggml_set_output(logits);
  ggml_build_forward_expand(gf, logits);
  return gf;
}

static int decode(struct tiny_lm *lm, struct kv_self *kv, ggml_gallocr_t galloc, int s, int token) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = build_step(ctx, lm, kv, s);
  ggml_gallocr_alloc_graph(galloc, gf);
  const int64_t cell = (int64_t)s * N_SEQ_CTX + kv->pos[s];
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_embd"), lm->embd[token], 0, sizeof lm->embd[token]);
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_cell"), &cell, 0, sizeof cell);
  ggml_backend_graph_compute(lm->backend, gf);
  float logits[N_VOCAB];
  ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "logits"), logits, 0, sizeof logits);
  ggml_free(ctx);
  kv->pos[s]++;
  int best = 0;
  for (int i = 1; i < N_VOCAB; i++)
    if (logits[i] > logits[best]) best = i;
  return best;
}

static float kv_seq_norm(const struct kv_self *kv, int s) {
  float rows[N_EMBD * N_SEQ_CTX];
  ggml_backend_tensor_get(kv->k_seq[s], rows, 0, ggml_nbytes(kv->k_seq[s]));
  double acc = 0.0;
  for (int i = 0; i < N_EMBD * kv->pos[s]; i++) acc += (double)rows[i] * rows[i];
  return (float)sqrt(acc);
}

int main(int argc, char **argv) {
  bool use_cpu = false;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--cpu") == 0) use_cpu = true;

  ggml_backend_t backend = use_cpu ? ggml_backend_cpu_init() : ggml_backend_cuda_init(0);
  if (!backend) return 1;
  static struct tiny_lm lm;
  static struct kv_self kv;
  lm_init(&lm, backend);
  kv_init(&kv, backend);
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));

  int next[N_SEQ] = {1, 4};
  for (int step = 0; step < N_SEQ_CTX; step++) {
    for (int s = 0; s < N_SEQ; s++) {
      if (s == 1 && step == 3) {
        printf("seq 1 finished after %d tokens (|K| = %.4f), restarting\n", kv.pos[1], (double)kv_seq_norm(&kv, 1));
        kv_seq_clear(&kv, 1);
        next[1] = 4;
      }
      next[s] = decode(&lm, &kv, galloc, s, next[s]);
    }
    printf("step %d: seq0 -> %d, seq1 -> %d\n", step, next[0], next[1]);
  }
  printf("|K| seq0 = %.4f, seq1 = %.4f on %s\n", (double)kv_seq_norm(&kv, 0), (double)kv_seq_norm(&kv, 1), ggml_backend_name(backend));

  ggml_gallocr_free(galloc);
  ggml_backend_buffer_free(kv.buf);
  ggml_free(kv.ctx);
  ggml_backend_buffer_free(lm.buf);
  ggml_free(lm.ctx);
  ggml_backend_free(backend);
  return 0;
}
