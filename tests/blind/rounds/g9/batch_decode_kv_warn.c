// provenance: blind round g9
// run-args: --n-seq 2 --no-kv-offload
// llama.cpp-style batched decoding: several sequences share one KV cache (cells tagged with
// sequence id and position), a batch holds tokens of every sequence, the attention mask is
// built on the host. --no-kv-offload keeps the KV cache in host memory as llama.cpp's
// offload_kqv=false does, but this runner computes its graphs on the GPU backend directly
// instead of through the scheduler. After the prompt, the cache is saved to a host-side prompt
// cache (--prompt-cache) whose tensors were laid out for the default cache types.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_EMBD 32
#define N_HEAD 2
#define N_LAYER 2
#define N_VOCAB 40
#define N_CTX 64
#define MAX_SEQ 4
#define MAX_BATCH 32

struct cparams {
  int n_seq;
  int offload_kqv;
  enum ggml_type type_k;
};

struct kv_cell {
  int pos, seq;
};

struct kv_cache {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *k_l[N_LAYER], *v_l[N_LAYER];
  struct kv_cell cells[N_CTX];
  int head;
};

struct prompt_cache {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *k[N_LAYER], *v[N_LAYER];
  int n_cells;
};

struct batch {
  int n_tokens;
  int32_t token[MAX_BATCH], pos[MAX_BATCH], seq[MAX_BATCH];
  int logits[MAX_BATCH];
};

struct runner {
  struct cparams cp;
  ggml_backend_t backend;
  struct ggml_context *ctx_w;
  ggml_backend_buffer_t buf_w;
  ggml_gallocr_t galloc;
  struct ggml_tensor *tok_embd, *wqkv[N_LAYER], *wo[N_LAYER], *out;
  struct kv_cache kv;
};

static void parse_args(int argc, char **argv, struct cparams *cp) {
  cp->n_seq = 1;
  cp->offload_kqv = 1;
  cp->type_k = GGML_TYPE_F16;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--no-kv-offload") == 0) cp->offload_kqv = 0;
    else if (strcmp(argv[i], "--kv-f32") == 0) cp->type_k = GGML_TYPE_F32;
    else if (strcmp(argv[i], "--n-seq") == 0 && i + 1 < argc) cp->n_seq = atoi(argv[++i]);
  }
  if (cp->n_seq < 1 || cp->n_seq > MAX_SEQ) cp->n_seq = 1;
}

static void init_weights(struct runner *r) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 16, NULL, true};
  r->ctx_w = ggml_init(p);
  r->tok_embd = ggml_new_tensor_2d(r->ctx_w, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  for (int il = 0; il < N_LAYER; il++) {
    r->wqkv[il] = ggml_new_tensor_2d(r->ctx_w, GGML_TYPE_F16, N_EMBD, 3 * N_EMBD);
    r->wo[il] = ggml_new_tensor_2d(r->ctx_w, GGML_TYPE_F16, N_EMBD, N_EMBD);
  }
  r->out = ggml_new_tensor_2d(r->ctx_w, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  r->buf_w = ggml_backend_alloc_ctx_tensors(r->ctx_w, r->backend);
  uint32_t s = 77;
  for (struct ggml_tensor *t = ggml_get_first_tensor(r->ctx_w); t; t = ggml_get_next_tensor(r->ctx_w, t)) {
    int64_t n = ggml_nelements(t);
    float *f = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; i++) {
      s = s * 1664525u + 1013904223u;
      f[i] = ((float)(s >> 16) / 65536.0f - 0.5f) * 0.3f;
    }
    if (t->type == GGML_TYPE_F16) {
      ggml_fp16_t *h = malloc((size_t)n * sizeof *h);
      ggml_fp32_to_fp16_row(f, h, n);
      ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
      free(h);
    } else {
      ggml_backend_tensor_set(t, f, 0, ggml_nbytes(t));
    }
    free(f);
  }
}

static int kv_init(struct kv_cache *kv, const struct cparams *cp, ggml_backend_t backend) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 2 * N_LAYER, NULL, true};
  kv->ctx = ggml_init(p);
  for (int il = 0; il < N_LAYER; il++) {
    kv->k_l[il] = ggml_new_tensor_1d(kv->ctx, cp->type_k, N_EMBD * N_CTX);
    kv->v_l[il] = ggml_new_tensor_1d(kv->ctx, GGML_TYPE_F32, N_EMBD * N_CTX);
    ggml_format_name(kv->k_l[il], "cache_k_l%d", il);
    ggml_format_name(kv->v_l[il], "cache_v_l%d", il);
  }
  ggml_backend_buffer_type_t buft = cp->offload_kqv ? ggml_backend_get_default_buffer_type(backend) : ggml_backend_cpu_buffer_type();
  kv->buf = ggml_backend_alloc_ctx_tensors_from_buft(kv->ctx, buft);
  if (!kv->buf) return 0;
  ggml_backend_buffer_clear(kv->buf, 0);
  for (int i = 0; i < N_CTX; i++) kv->cells[i].seq = -1;
  kv->head = 0;
  return 1;
}

static struct ggml_tensor *attn_layer(struct ggml_context *ctx, struct ggml_cgraph *gf, struct runner *r, int il,
                                      struct ggml_tensor *x, struct ggml_tensor *pos, struct ggml_tensor *mask,
                                      int n_tokens, int n_kv) {
  const int hd = N_EMBD / N_HEAD;
  struct kv_cache *kv = &r->kv;
  struct ggml_tensor *qkv = ggml_mul_mat(ctx, r->wqkv[il], ggml_rms_norm(ctx, x, 1e-5f));
  size_t es = sizeof(float);
  struct ggml_tensor *q = ggml_view_3d(ctx, qkv, hd, N_HEAD, n_tokens, hd * es, qkv->nb[1], 0);
  struct ggml_tensor *k = ggml_view_3d(ctx, qkv, hd, N_HEAD, n_tokens, hd * es, qkv->nb[1], N_EMBD * es);
  struct ggml_tensor *v = ggml_view_2d(ctx, qkv, N_EMBD, n_tokens, qkv->nb[1], 2 * N_EMBD * es);
  q = ggml_rope(ctx, ggml_cont(ctx, q), pos, hd, 0);
  k = ggml_rope(ctx, ggml_cont(ctx, k), pos, hd, 0);

  size_t krow = ggml_row_size(kv->k_l[il]->type, N_EMBD), vrow = N_EMBD * es;
  ggml_build_forward_expand(gf, ggml_cpy(ctx, k, ggml_view_1d(ctx, kv->k_l[il], N_EMBD * n_tokens, krow * kv->head)));
  ggml_build_forward_expand(gf, ggml_cpy(ctx, v, ggml_view_1d(ctx, kv->v_l[il], N_EMBD * n_tokens, vrow * kv->head)));

  struct ggml_tensor *K = ggml_view_3d(ctx, kv->k_l[il], hd, N_HEAD, n_kv, ggml_row_size(kv->k_l[il]->type, hd), krow, 0);
  struct ggml_tensor *V = ggml_view_3d(ctx, kv->v_l[il], hd, N_HEAD, n_kv, hd * es, vrow, 0);
  struct ggml_tensor *kq = ggml_mul_mat(ctx, ggml_permute(ctx, K, 0, 2, 1, 3), ggml_permute(ctx, q, 0, 2, 1, 3));
  kq = ggml_soft_max_ext(ctx, kq, mask, 1.0f / sqrtf((float)hd), 0.0f);
  struct ggml_tensor *Vt = ggml_cont(ctx, ggml_permute(ctx, V, 1, 2, 0, 3));
  struct ggml_tensor *o = ggml_cont(ctx, ggml_permute(ctx, ggml_mul_mat(ctx, Vt, kq), 0, 2, 1, 3));
  return ggml_add(ctx, x, ggml_mul_mat(ctx, r->wo[il], ggml_reshape_2d(ctx, o, N_EMBD, n_tokens)));
}

/* decodes one batch; logits of the flagged tokens go to out (N_VOCAB each, in batch order) */
static int decode_batch(struct runner *r, const struct batch *b, float *out) {
  struct kv_cache *kv = &r->kv;
  if (kv->head + b->n_tokens > N_CTX) return 0;
  const int n_kv = kv->head + b->n_tokens;
  for (int i = 0; i < b->n_tokens; i++) {
    kv->cells[kv->head + i].pos = b->pos[i];
    kv->cells[kv->head + i].seq = b->seq[i];
  }

  struct ggml_init_params p = {ggml_tensor_overhead() * 512 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, b->n_tokens);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, b->n_tokens);
  struct ggml_tensor *mask = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_kv, b->n_tokens);
  ggml_set_input(ids);
  ggml_set_input(pos);
  ggml_set_input(mask);
  struct ggml_tensor *x = ggml_get_rows(ctx, r->tok_embd, ids);
  for (int il = 0; il < N_LAYER; il++) x = attn_layer(ctx, gf, r, il, x, pos, mask, b->n_tokens, n_kv);
  struct ggml_tensor *logits = ggml_mul_mat(ctx, r->out, x);
  ggml_set_output(logits);
  ggml_build_forward_expand(gf, logits);
  if (!ggml_gallocr_alloc_graph(r->galloc, gf)) return 0;

  float *m = malloc(sizeof(float) * (size_t)n_kv * (size_t)b->n_tokens);
  for (int i = 0; i < b->n_tokens; i++)
    for (int j = 0; j < n_kv; j++) {
      const struct kv_cell *c = &kv->cells[j];
      m[i * n_kv + j] = c->seq == b->seq[i] && c->pos <= b->pos[i] ? 0.0f : -INFINITY;
    }
  ggml_backend_tensor_set(ids, b->token, 0, ggml_nbytes(ids));
  ggml_backend_tensor_set(pos, b->pos, 0, ggml_nbytes(pos));
  ggml_backend_tensor_set(mask, m, 0, ggml_nbytes(mask));
  free(m);
  ggml_backend_graph_compute(r->backend, gf); // expect-warning: ggml-backend-mismatch

  int n_out = 0;
  for (int i = 0; i < b->n_tokens; i++)
    if (b->logits[i])
      ggml_backend_tensor_get(logits, out + (size_t)N_VOCAB * n_out++, (size_t)i * N_VOCAB * sizeof(float), N_VOCAB * sizeof(float));
  kv->head += b->n_tokens;
  ggml_free(ctx);
  return 1;
}

/* copies the first n_cells of the cache to host memory, for reuse by later requests */
static int prompt_cache_save(struct prompt_cache *pc, const struct kv_cache *kv, int n_cells) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 2 * N_LAYER, NULL, true};
  pc->ctx = ggml_init(p);
  for (int il = 0; il < N_LAYER; il++) {
    pc->k[il] = ggml_new_tensor_1d(pc->ctx, GGML_TYPE_F16, N_EMBD * N_CTX);
    pc->v[il] = ggml_new_tensor_1d(pc->ctx, GGML_TYPE_F32, N_EMBD * N_CTX);
  }
  pc->buf = ggml_backend_alloc_ctx_tensors_from_buft(pc->ctx, ggml_backend_cpu_buffer_type());
  if (!pc->buf) return 0;
  for (int il = 0; il < N_LAYER; il++) {
    ggml_backend_tensor_copy(kv->k_l[il], pc->k[il]); // expect-warning: ggml-type-mismatch
    ggml_backend_tensor_copy(kv->v_l[il], pc->v[il]);
  }
  pc->n_cells = n_cells;
  return 1;
}

static double prompt_cache_checksum(const struct prompt_cache *pc) {
  double s = 0.0;
  for (int il = 0; il < N_LAYER; il++) {
    const float *v = (const float *)pc->v[il]->data; /* a CPU buffer */
    for (int i = 0; i < N_EMBD * pc->n_cells; i++) s += fabs((double)v[i]);
  }
  return s;
}

static int greedy(const float *l) {
  int best = 0;
  for (int i = 1; i < N_VOCAB; i++)
    if (l[i] > l[best]) best = i;
  return best;
}

int main(int argc, char **argv) {
  struct runner r;
  memset(&r, 0, sizeof r);
  parse_args(argc, argv, &r.cp);
  r.backend = ggml_backend_cuda_init(0);
  if (!r.backend) return 1;
  init_weights(&r);
  r.galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(r.backend));
  if (!kv_init(&r.kv, &r.cp, r.backend)) return 1;

  /* prompt: three tokens per sequence, logits for the last one of each */
  struct batch b;
  memset(&b, 0, sizeof b);
  for (int s = 0; s < r.cp.n_seq; s++)
    for (int t = 0; t < 3; t++) {
      int i = b.n_tokens++;
      b.token[i] = (5 * s + 3 * t + 1) % N_VOCAB;
      b.pos[i] = t;
      b.seq[i] = s;
      b.logits[i] = t == 2;
    }
  float logits[MAX_SEQ * N_VOCAB];
  int next[MAX_SEQ];
  struct prompt_cache pc;
  memset(&pc, 0, sizeof pc);
  for (int step = 0; step < 4; step++) {
    if (!decode_batch(&r, &b, logits)) return 1;
    if (step == 0) {
      if (!prompt_cache_save(&pc, &r.kv, r.kv.head)) return 1;
      printf("prompt cache: %d cells, checksum %.4f\n", pc.n_cells, prompt_cache_checksum(&pc));
    }
    memset(&b, 0, sizeof b);
    for (int s = 0; s < r.cp.n_seq; s++) {
      next[s] = greedy(logits + (size_t)N_VOCAB * s);
      b.token[s] = next[s];
      b.pos[s] = 3 + step;
      b.seq[s] = s;
      b.logits[s] = 1;
      printf("%sseq %d: %d", s ? ", " : "", s, next[s]);
    }
    b.n_tokens = r.cp.n_seq;
    printf("\n");
  }

  ggml_backend_buffer_free(pc.buf);
  ggml_free(pc.ctx);
  ggml_gallocr_free(r.galloc);
  ggml_backend_buffer_free(r.kv.buf);
  ggml_free(r.kv.ctx);
  ggml_backend_buffer_free(r.buf_w);
  ggml_free(r.ctx_w);
  ggml_backend_free(r.backend);
  return 0;
}
