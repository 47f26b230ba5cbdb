// provenance: blind round g9
// A llama-style decoder split by layer ranges over two GPUs (CUDA0, CUDA1): token embeddings
// on the CPU, blocks 0..2 on CUDA0, blocks 3..4 and the output head on CUDA1, like
// llama.cpp's --split-mode layer. Each device segment is its own graph on its own gallocr and
// the hidden state is copied between devices. The logits step runs the head on the main GPU
// although the head's weights were placed on the last one.
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

#define N_VOCAB 48
#define N_EMBD 32
#define N_HEAD 4
#define N_FF 64
#define N_LAYER 5
#define N_CTX 16
#define N_GPU 2
#define GRAPH_NODES 1024

struct llm_layer {
  struct ggml_tensor *attn_norm, *wq, *wk, *wv, *wo;
  struct ggml_tensor *ffn_norm, *ffn_up, *ffn_down;
  struct ggml_tensor *k_cache, *v_cache;
  int device;
};

struct llm_device {
  ggml_backend_t backend;
  struct ggml_context *ctx_w;
  ggml_backend_buffer_t buf_w;
  ggml_gallocr_t galloc;
  int il_begin, il_end;
};

struct llm_model {
  ggml_backend_t cpu;
  struct ggml_context *ctx_cpu;
  ggml_backend_buffer_t buf_cpu;
  ggml_gallocr_t galloc_cpu;
  struct ggml_tensor *tok_embd;
  struct ggml_tensor *out_norm, *output;
  struct llm_layer layers[N_LAYER];
  struct llm_device dev[N_GPU];
  int n_past;
};

static uint32_t g_seed = 1234u;

static float frand(void) {
  g_seed = g_seed * 1664525u + 1013904223u;
  return ((float)((g_seed >> 9) & 0xffff) / 65536.0f - 0.5f) * 0.25f;
}

static void fill_random(struct ggml_tensor *t) {
  int64_t n = ggml_nelements(t);
  float *tmp = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) tmp[i] = frand();
  if (t->type == GGML_TYPE_F16) {
    ggml_fp16_t *h = malloc((size_t)n * sizeof(ggml_fp16_t));
    ggml_fp32_to_fp16_row(tmp, h, n);
    ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
    free(h);
  } else {
    ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
  }
  free(tmp);
}

static struct ggml_context *new_weight_ctx(int n_tensors) {
  struct ggml_init_params p = {ggml_tensor_overhead() * (size_t)n_tensors, NULL, true};
  return ggml_init(p);
}

static struct llm_device *llm_main_device(struct llm_model *m) { return &m->dev[0]; }

/* blocks are spread as evenly as possible, the first GPUs taking the remainder */
static void assign_layers(struct llm_model *m) {
  int per_gpu = (N_LAYER + N_GPU - 1) / N_GPU;
  for (int d = 0; d < N_GPU; d++) {
    m->dev[d].il_begin = d * per_gpu;
    m->dev[d].il_end = d * per_gpu + per_gpu < N_LAYER ? d * per_gpu + per_gpu : N_LAYER;
  }
  for (int il = 0; il < N_LAYER; il++) m->layers[il].device = il / per_gpu;
}

static void create_tensors(struct llm_model *m) {
  m->ctx_cpu = new_weight_ctx(1);
  m->tok_embd = ggml_new_tensor_2d(m->ctx_cpu, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  ggml_set_name(m->tok_embd, "token_embd.weight");
  for (int d = 0; d < N_GPU; d++) m->dev[d].ctx_w = new_weight_ctx(12 * N_LAYER + 2);

  for (int il = 0; il < N_LAYER; il++) {
    struct llm_layer *l = &m->layers[il];
    struct ggml_context *ctx = m->dev[l->device].ctx_w;
    l->attn_norm = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD);
    l->wq = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, N_EMBD, N_EMBD);
    l->wk = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, N_EMBD, N_EMBD);
    l->wv = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, N_EMBD, N_EMBD);
    l->wo = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, N_EMBD, N_EMBD);
    l->ffn_norm = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD);
    l->ffn_up = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, N_EMBD, N_FF);
    l->ffn_down = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, N_FF, N_EMBD);
    l->k_cache = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD * N_CTX);
    l->v_cache = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD * N_CTX);
    ggml_format_name(l->attn_norm, "blk.%d.attn_norm.weight", il);
    ggml_format_name(l->k_cache, "cache_k_l%d", il);
    ggml_format_name(l->v_cache, "cache_v_l%d", il);
  }
  /* the head goes with the last block, as llama.cpp's layer split does */
  struct ggml_context *last = m->dev[N_GPU - 1].ctx_w;
  m->out_norm = ggml_new_tensor_1d(last, GGML_TYPE_F32, N_EMBD);
  m->output = ggml_new_tensor_2d(last, GGML_TYPE_F16, N_EMBD, N_VOCAB);
  ggml_set_name(m->output, "output.weight");
}

static void load_weights(struct llm_model *m) {
  m->buf_cpu = ggml_backend_alloc_ctx_tensors(m->ctx_cpu, m->cpu);
  for (int d = 0; d < N_GPU; d++) {
    m->dev[d].buf_w = ggml_backend_alloc_ctx_tensors(m->dev[d].ctx_w, m->dev[d].backend);
    ggml_backend_buffer_set_usage(m->dev[d].buf_w, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  }
  fill_random(m->tok_embd);
  for (int il = 0; il < N_LAYER; il++) {
    struct llm_layer *l = &m->layers[il];
    struct ggml_tensor *w[] = {l->attn_norm, l->wq, l->wk, l->wv, l->wo, l->ffn_norm, l->ffn_up, l->ffn_down};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) fill_random(w[i]);
    ggml_backend_tensor_memset(l->k_cache, 0, 0, ggml_nbytes(l->k_cache));
    ggml_backend_tensor_memset(l->v_cache, 0, 0, ggml_nbytes(l->v_cache));
  }
  fill_random(m->out_norm);
  fill_random(m->output);
}

static struct ggml_context *new_graph_ctx(void) {
  struct ggml_init_params p = {ggml_tensor_overhead() * GRAPH_NODES + ggml_graph_overhead_custom(GRAPH_NODES, false), NULL, true};
  return ggml_init(p);
}

static struct ggml_tensor *build_block(struct ggml_context *ctx, struct ggml_cgraph *gf, struct llm_layer *l,
                                       struct ggml_tensor *inpL, struct ggml_tensor *pos, int n_past, int n_tokens) {
  const int hd = N_EMBD / N_HEAD, n_kv = n_past + n_tokens;
  struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, inpL, 1e-5f), l->attn_norm);
  struct ggml_tensor *q = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, l->wq, cur), hd, N_HEAD, n_tokens);
  struct ggml_tensor *k = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, l->wk, cur), hd, N_HEAD, n_tokens);
  struct ggml_tensor *v = ggml_mul_mat(ctx, l->wv, cur);
  q = ggml_rope(ctx, q, pos, hd, 0);
  k = ggml_rope(ctx, k, pos, hd, 0);
  size_t row = N_EMBD * sizeof(float);
  ggml_build_forward_expand(gf, ggml_cpy(ctx, k, ggml_view_1d(ctx, l->k_cache, N_EMBD * n_tokens, row * n_past)));
  ggml_build_forward_expand(gf, ggml_cpy(ctx, v, ggml_view_1d(ctx, l->v_cache, N_EMBD * n_tokens, row * n_past)));

  struct ggml_tensor *K = ggml_permute(ctx, ggml_view_3d(ctx, l->k_cache, hd, N_HEAD, n_kv, hd * sizeof(float), row, 0), 0, 2, 1, 3);
  struct ggml_tensor *V = ggml_cont(ctx, ggml_permute(ctx, ggml_view_3d(ctx, l->v_cache, hd, N_HEAD, n_kv, hd * sizeof(float), row, 0), 1, 2, 0, 3));
  struct ggml_tensor *kq = ggml_mul_mat(ctx, K, ggml_permute(ctx, q, 0, 2, 1, 3));
  kq = ggml_soft_max(ctx, ggml_diag_mask_inf(ctx, ggml_scale(ctx, kq, 1.0f / sqrtf((float)hd)), n_past));
  struct ggml_tensor *kqv = ggml_cont(ctx, ggml_permute(ctx, ggml_mul_mat(ctx, V, kq), 0, 2, 1, 3));
  cur = ggml_add(ctx, ggml_mul_mat(ctx, l->wo, ggml_reshape_2d(ctx, kqv, N_EMBD, n_tokens)), inpL);

  struct ggml_tensor *ff = ggml_mul(ctx, ggml_rms_norm(ctx, cur, 1e-5f), l->ffn_norm);
  ff = ggml_mul_mat(ctx, l->ffn_down, ggml_silu(ctx, ggml_mul_mat(ctx, l->ffn_up, ff)));
  return ggml_add(ctx, ff, cur);
}

/* token ids -> embeddings, on the CPU where token_embd lives; the result goes to `dst` */
static void embed_tokens(struct llm_model *m, const int32_t *tokens, int n_tokens, struct ggml_tensor *dst) {
  struct ggml_context *ctx = new_graph_ctx();
  struct ggml_cgraph *gf = ggml_new_graph_custom(ctx, GRAPH_NODES, false);
  struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_tokens);
  ggml_set_input(ids);
  struct ggml_tensor *x = ggml_get_rows(ctx, m->tok_embd, ids);
  ggml_set_output(x);
  ggml_build_forward_expand(gf, x);
  ggml_gallocr_alloc_graph(m->galloc_cpu, gf);
  ggml_backend_tensor_set(ids, tokens, 0, (size_t)n_tokens * sizeof(int32_t));
  ggml_backend_graph_compute(m->cpu, gf);
  ggml_backend_tensor_copy(x, dst);
  ggml_free(ctx);
}

/* runs the blocks of one device; hidden: in on entry, out on return (host memory) */
static void run_segment(struct llm_model *m, struct llm_device *d, float *hidden, int n_tokens) {
  struct ggml_context *ctx = new_graph_ctx();
  struct ggml_cgraph *gf = ggml_new_graph_custom(ctx, GRAPH_NODES, false);
  struct ggml_tensor *inp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, n_tokens);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_tokens);
  ggml_set_input(inp);
  ggml_set_input(pos);
  struct ggml_tensor *cur = inp;
  for (int il = d->il_begin; il < d->il_end; il++)
    cur = build_block(ctx, gf, &m->layers[il], cur, pos, m->n_past, n_tokens);
  ggml_set_output(cur);
  ggml_build_forward_expand(gf, cur);
  ggml_gallocr_alloc_graph(d->galloc, gf);

  int32_t p[N_CTX];
  for (int i = 0; i < n_tokens; i++) p[i] = m->n_past + i;
  ggml_backend_tensor_set(inp, hidden, 0, ggml_nbytes(inp));
  ggml_backend_tensor_set(pos, p, 0, ggml_nbytes(pos));
  ggml_backend_graph_compute(d->backend, gf);
  ggml_backend_tensor_get(cur, hidden, 0, ggml_nbytes(cur));
  ggml_free(ctx);
}

/* final norm and lm head on the last token; logits: N_VOCAB floats */
static void compute_logits(struct llm_model *m, const float *hidden_last, float *logits) {
  struct llm_device *d = llm_main_device(m);
  struct ggml_context *ctx = new_graph_ctx();
  struct ggml_cgraph *gf = ggml_new_graph_custom(ctx, GRAPH_NODES, false);
  struct ggml_tensor *inp = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD);
  ggml_set_input(inp);
  struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, inp, 1e-5f), m->out_norm);
  cur = ggml_mul_mat(ctx, m->output, cur);
  ggml_set_output(cur);
  ggml_build_forward_expand(gf, cur);
  ggml_gallocr_alloc_graph(d->galloc, gf);
  ggml_backend_tensor_set(inp, hidden_last, 0, ggml_nbytes(inp));
  ggml_backend_graph_compute(d->backend, gf); // expect-error: ggml-backend-mismatch
  ggml_backend_tensor_get(cur, logits, 0, ggml_nbytes(cur));
  ggml_free(ctx);
}

static int decode(struct llm_model *m, const int32_t *tokens, int n_tokens) {
  float *hidden = calloc((size_t)N_EMBD * n_tokens, sizeof(float));
  struct ggml_init_params p = {ggml_tensor_overhead(), NULL, true};
  struct ggml_context *stage = ggml_init(p);
  struct ggml_tensor *x = ggml_new_tensor_2d(stage, GGML_TYPE_F32, N_EMBD, n_tokens);
  ggml_backend_buffer_t sbuf = ggml_backend_alloc_ctx_tensors(stage, m->cpu);
  embed_tokens(m, tokens, n_tokens, x);
  ggml_backend_tensor_get(x, hidden, 0, ggml_nbytes(x));
  for (int d = 0; d < N_GPU; d++) run_segment(m, &m->dev[d], hidden, n_tokens);
  float logits[N_VOCAB];
  compute_logits(m, hidden + (size_t)N_EMBD * (n_tokens - 1), logits);
  int best = 0;
  for (int i = 1; i < N_VOCAB; i++)
    if (logits[i] > logits[best]) best = i;
  m->n_past += n_tokens;
  ggml_backend_buffer_free(sbuf);
  ggml_free(stage);
  free(hidden);
  return best;
}

int main(void) {
  struct llm_model m;
  memset(&m, 0, sizeof m);
  m.cpu = ggml_backend_cpu_init();
  m.galloc_cpu = ggml_gallocr_new(ggml_backend_cpu_buffer_type());
  for (int d = 0; d < N_GPU; d++) {
    m.dev[d].backend = ggml_backend_cuda_init(d);
    if (!m.dev[d].backend) return 1;
    m.dev[d].galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.dev[d].backend));
  }
  assign_layers(&m);
  create_tensors(&m);
  load_weights(&m);

  int32_t prompt[4] = {1, 7, 22, 5};
  int tok = decode(&m, prompt, 4);
  printf("prompt -> %d\n", tok);
  for (int step = 0; step < 3; step++) {
    tok = decode(&m, &tok, 1);
    printf("step %d -> %d\n", step, tok);
  }

  for (int d = 0; d < N_GPU; d++) {
    ggml_gallocr_free(m.dev[d].galloc);
    ggml_backend_buffer_free(m.dev[d].buf_w);
    ggml_free(m.dev[d].ctx_w);
    ggml_backend_free(m.dev[d].backend);
  }
  ggml_gallocr_free(m.galloc_cpu);
  ggml_backend_buffer_free(m.buf_cpu);
  ggml_free(m.ctx_cpu);
  ggml_backend_free(m.cpu);
  return 0;
}
