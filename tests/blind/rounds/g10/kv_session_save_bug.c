// provenance: blind round g10
// A small llama-style decoder offloaded to the GPU: weights and the KV cache live in GPU
// buffers, the logits are copied to a host staging tensor after every step, and at the end
// the session (the KV cache) is saved to a host blob, llama_state_get_data style.
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

#define N_EMBD 16
#define N_HEAD 2
#define HEAD_DIM (N_EMBD / N_HEAD)
#define N_FF 32
#define N_LAYER 2
#define N_VOCAB 32
#define N_CTX 16

struct llm_layer {
  struct ggml_tensor *attn_norm;
  struct ggml_tensor *wq, *wk, *wv, *wo;
  struct ggml_tensor *ffn_norm;
  struct ggml_tensor *ffn_up, *ffn_down;
};

struct llm_model {
  ggml_backend_t backend; /* the GPU */
  ggml_backend_t cpu;
  struct ggml_context *ctx_w;
  ggml_backend_buffer_t buf_w;
  struct ggml_context *ctx_out; /* host staging for the logits */
  ggml_backend_buffer_t buf_output;
  struct ggml_tensor *tok_embd, *output_norm, *output;
  struct ggml_tensor *logits_host;
  struct llm_layer layers[N_LAYER];
};

struct llm_kv_cache {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *k[N_LAYER];
  struct ggml_tensor *v[N_LAYER];
  int n_used;
};

static uint32_t g_seed = 12345u;

static float frand(void) {
  g_seed = g_seed * 1664525u + 1013904223u;
  return ((float)(g_seed >> 8) / (float)(1u << 24) - 0.5f) * 0.2f;
}

static struct ggml_context *new_meta_ctx(size_t n_tensors) {
  struct ggml_init_params params = {
      /*.mem_size   =*/ggml_tensor_overhead() * n_tensors,
      /*.mem_buffer =*/NULL,
      /*.no_alloc   =*/true,
  };
  return ggml_init(params);
}

static void model_create_tensors(struct llm_model *m) {
  m->ctx_w = new_meta_ctx(3 + 8 * N_LAYER);
  m->tok_embd = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  m->output_norm = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, N_EMBD);
  m->output = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  ggml_set_name(m->tok_embd, "token_embd.weight");
  ggml_set_name(m->output_norm, "output_norm.weight");
  ggml_set_name(m->output, "output.weight");
  for (int il = 0; il < N_LAYER; il++) {
    struct llm_layer *l = &m->layers[il];
    l->attn_norm = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, N_EMBD);
    l->wq = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    l->wk = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    l->wv = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    l->wo = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    l->ffn_norm = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, N_EMBD);
    l->ffn_up = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_EMBD, N_FF);
    l->ffn_down = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_FF, N_EMBD);
    ggml_format_name(l->wq, "blk.%d.attn_q.weight", il);
  }
  m->ctx_out = new_meta_ctx(1);
  m->logits_host = ggml_new_tensor_1d(m->ctx_out, GGML_TYPE_F32, N_VOCAB);
}

static void model_load(struct llm_model *m) {
  m->buf_w = ggml_backend_alloc_ctx_tensors(m->ctx_w, m->backend);
  ggml_backend_buffer_set_usage(m->buf_w, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  m->buf_output = ggml_backend_alloc_ctx_tensors_from_buft(m->ctx_out, ggml_backend_cpu_buffer_type());
  for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx_w); t; t = ggml_get_next_tensor(m->ctx_w, t)) {
    const int64_t n = ggml_nelements(t);
    float *tmp = malloc(n * sizeof(float));
    const bool is_norm = ggml_n_dims(t) == 1;
    for (int64_t i = 0; i < n; i++) tmp[i] = is_norm ? 1.0f : frand();
    ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
    free(tmp);
  }
}

static void kv_cache_init(struct llm_kv_cache *kv, ggml_backend_t backend) {
  kv->ctx = new_meta_ctx(2 * N_LAYER);
  for (int il = 0; il < N_LAYER; il++) {
    kv->k[il] = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    kv->v[il] = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    ggml_format_name(kv->k[il], "cache_k_l%d", il);
    ggml_format_name(kv->v[il], "cache_v_l%d", il);
  }
  kv->buf = ggml_backend_alloc_ctx_tensors(kv->ctx, backend);
  ggml_backend_buffer_clear(kv->buf, 0);
  kv->n_used = 0;
}

static struct ggml_tensor *build_attn(struct ggml_context *ctx, struct ggml_tensor *cur, const struct llm_layer *l,
                                      struct ggml_tensor *kc, struct ggml_tensor *vc, struct ggml_tensor *kv_idx,
                                      struct ggml_cgraph *gf, int n_kv) {
  struct ggml_tensor *q = ggml_mul_mat(ctx, l->wq, cur);
  struct ggml_tensor *k = ggml_mul_mat(ctx, l->wk, cur);
  struct ggml_tensor *v = ggml_mul_mat(ctx, l->wv, cur);
  ggml_build_forward_expand(gf, ggml_set_rows(ctx, kc, k, kv_idx));
  ggml_build_forward_expand(gf, ggml_set_rows(ctx, vc, v, kv_idx));

  struct ggml_tensor *kview = ggml_view_2d(ctx, kc, N_EMBD, n_kv, kc->nb[1], 0);
  struct ggml_tensor *vview = ggml_view_2d(ctx, vc, N_EMBD, n_kv, vc->nb[1], 0);
  struct ggml_tensor *kp = ggml_permute(ctx, ggml_reshape_3d(ctx, kview, HEAD_DIM, N_HEAD, n_kv), 0, 2, 1, 3);
  struct ggml_tensor *qp = ggml_permute(ctx, ggml_reshape_3d(ctx, q, HEAD_DIM, N_HEAD, 1), 0, 2, 1, 3);
  struct ggml_tensor *kq = ggml_mul_mat(ctx, kp, qp);
  kq = ggml_soft_max_ext(ctx, kq, NULL, 1.0f / 2.828427f, 0.0f);
  struct ggml_tensor *vt = ggml_cont(ctx, ggml_permute(ctx, ggml_reshape_3d(ctx, ggml_cont(ctx, vview), HEAD_DIM, N_HEAD, n_kv), 1, 2, 0, 3));
  struct ggml_tensor *kqv = ggml_mul_mat(ctx, vt, kq);
  kqv = ggml_cont(ctx, ggml_permute(ctx, kqv, 0, 2, 1, 3));
  return ggml_mul_mat(ctx, l->wo, ggml_reshape_2d(ctx, kqv, N_EMBD, 1));
}

static struct ggml_cgraph *build_decode(struct ggml_context *ctx, const struct llm_model *m, struct llm_kv_cache *kv) {
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  const int n_kv = kv->n_used + 1;
  struct ggml_tensor *tokens = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
  struct ggml_tensor *kv_idx = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, 1);
  ggml_set_name(tokens, "inp_tokens");
  ggml_set_name(kv_idx, "inp_kv_idx");
  ggml_set_input(tokens);
  ggml_set_input(kv_idx);

  struct ggml_tensor *x = ggml_get_rows(ctx, m->tok_embd, tokens);
  for (int il = 0; il < N_LAYER; il++) {
    const struct llm_layer *l = &m->layers[il];
    struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), l->attn_norm);
    cur = build_attn(ctx, cur, l, kv->k[il], kv->v[il], kv_idx, gf, n_kv);
    x = ggml_add(ctx, x, cur);
    cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), l->ffn_norm);
    cur = ggml_mul_mat(ctx, l->ffn_down, ggml_silu(ctx, ggml_mul_mat(ctx, l->ffn_up, cur)));
    x = ggml_add(ctx, x, cur);
  }
  x = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), m->output_norm);
  struct ggml_tensor *logits = ggml_mul_mat(ctx, m->output, x);
  ggml_set_name(logits, "result_output");
  ggml_set_output(logits);
  ggml_build_forward_expand(gf, logits);
  return gf;
}

static int decode_one(struct llm_model *m, struct llm_kv_cache *kv, ggml_gallocr_t galloc, int32_t token) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_cgraph *gf = build_decode(ctx, m, kv);
  if (!ggml_gallocr_alloc_graph(galloc, gf)) {
    fprintf(stderr, "failed to allocate the compute graph\n");
    exit(1);
  }
  int64_t pos = kv->n_used;
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_tokens"), &token, 0, sizeof token);
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_kv_idx"), &pos, 0, sizeof pos);
  ggml_backend_graph_compute(m->backend, gf);
  kv->n_used++;

  /* the logits go through the host staging tensor, which the host may read directly */
  ggml_backend_tensor_copy(ggml_graph_get_tensor(gf, "result_output"), m->logits_host);
  const float *logits = (const float *)m->logits_host->data;
  int best = 0;
  for (int i = 1; i < N_VOCAB; i++)
    if (logits[i] > logits[best]) best = i;
  ggml_free(ctx);
  return best;
}

/* Copies one tensor of the session out, the fast way when its memory is the host's. */
static size_t copy_out(const struct ggml_tensor *t, uint8_t *dst, size_t n_rows, bool host) {
  const size_t n = n_rows * t->nb[1];
  if (host) {
    memcpy(dst, t->data, n); // expect-error: ggml-host-access
  } else {
    ggml_backend_tensor_get(t, dst, 0, n);
  }
  return n;
}

static size_t session_size(const struct llm_kv_cache *kv) {
  size_t n = sizeof(int32_t);
  for (int il = 0; il < N_LAYER; il++) n += (size_t)kv->n_used * (kv->k[il]->nb[1] + kv->v[il]->nb[1]);
  return n;
}

static size_t session_save(const struct llm_model *m, const struct llm_kv_cache *kv, uint8_t *blob) {
  /* every host-side buffer of the model is host memory: take the memcpy path for them */
  const bool host = ggml_backend_buffer_is_host(m->buf_output);
  size_t off = 0;
  int32_t n_used = kv->n_used;
  memcpy(blob, &n_used, sizeof n_used);
  off += sizeof n_used;
  for (int il = 0; il < N_LAYER; il++) {
    off += copy_out(kv->k[il], blob + off, (size_t)kv->n_used, host);
    off += copy_out(kv->v[il], blob + off, (size_t)kv->n_used, host);
  }
  return off;
}

int main(void) {
  struct llm_model model;
  memset(&model, 0, sizeof model);
  model.backend = ggml_backend_cuda_init(0);
  model.cpu = ggml_backend_cpu_init();
  if (!model.backend || !model.cpu) {
    fprintf(stderr, "no backend\n");
    return 1;
  }
  model_create_tensors(&model);
  model_load(&model);

  struct llm_kv_cache kv;
  kv_cache_init(&kv, model.backend);

  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(model.backend));
  const int32_t prompt[] = {1, 5, 7, 3, 9};
  const int n_prompt = (int)(sizeof prompt / sizeof prompt[0]);
  int next = 0;
  for (int i = 0; i < n_prompt; i++) next = decode_one(&model, &kv, galloc, prompt[i]);
  printf("prompt processed, next token %d\n", next);
  for (int i = 0; i < 4 && kv.n_used < N_CTX; i++) {
    next = decode_one(&model, &kv, galloc, next);
    printf("generated %d\n", next);
  }

  uint8_t *blob = malloc(session_size(&kv));
  const size_t n_saved = session_save(&model, &kv, blob);
  printf("session: %zu bytes for %d cells\n", n_saved, kv.n_used);
  free(blob);

  ggml_gallocr_free(galloc);
  ggml_backend_buffer_free(kv.buf);
  ggml_free(kv.ctx);
  ggml_backend_buffer_free(model.buf_output);
  ggml_backend_buffer_free(model.buf_w);
  ggml_free(model.ctx_out);
  ggml_free(model.ctx_w);
  ggml_backend_free(model.cpu);
  ggml_backend_free(model.backend);
  return 0;
}
