// provenance: blind round g10
// A gpt-2 style model run with the weights left in host memory (as with mmap'd weights):
// the token and position tables in a plain CPU buffer, the blocks in the GPU's pinned host
// buffer type, all computed through ggml_backend_sched with the GPU first, so the scheduler
// moves what the GPU needs. An eval callback watches the block outputs, a direct GPU graph
// post-processes the logits out of pinned host memory, and the loader writes host weights in
// place when their buffer is host memory.
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

#define N_EMBD 16
#define N_VOCAB 20
#define N_POS 8
#define N_LAYER 2
#define N_TOKENS 5

struct gpt2_block {
  struct ggml_tensor *ln_w, *ln_b, *fc_w, *proj_w;
};

struct gpt2_model {
  ggml_backend_t gpu, cpu;
  struct ggml_context *ctx_tok;
  ggml_backend_buffer_t buf_tok;
  struct ggml_context *ctx_blk;
  ggml_backend_buffer_t buf_blk;
  struct ggml_tensor *wte, *wpe;
  struct gpt2_block blocks[N_LAYER];
};

struct watch_stats {
  int n_seen;
  float last_mean;
};

static void put_weights(struct ggml_tensor *t, const float *src) {
  if (ggml_backend_buffer_is_host(t->buffer)) {
    memcpy(t->data, src, ggml_nbytes(t));
  } else {
    ggml_backend_tensor_set(t, src, 0, ggml_nbytes(t));
  }
}

static void fill_all(struct ggml_context *ctx, int salt) {
  for (struct ggml_tensor *t = ggml_get_first_tensor(ctx); t; t = ggml_get_next_tensor(ctx, t)) {
    const int64_t n = ggml_nelements(t);
    float *src = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; i++) src[i] = 0.08f * sinf(0.11f * (float)i + (float)salt);
    put_weights(t, src);
    free(src);
    salt++;
  }
}

static bool model_load(struct gpt2_model *m) {
  struct ggml_init_params p_tok = {ggml_tensor_overhead() * 2, NULL, true};
  m->ctx_tok = ggml_init(p_tok);
  m->wte = ggml_new_tensor_2d(m->ctx_tok, GGML_TYPE_F32, N_EMBD, N_VOCAB);
  m->wpe = ggml_new_tensor_2d(m->ctx_tok, GGML_TYPE_F32, N_EMBD, N_POS);
  ggml_set_name(m->wte, "wte");
  ggml_set_name(m->wpe, "wpe");
  m->buf_tok = ggml_backend_alloc_ctx_tensors_from_buft(m->ctx_tok, ggml_backend_cpu_buffer_type());

  struct ggml_init_params p_blk = {ggml_tensor_overhead() * 4 * N_LAYER, NULL, true};
  m->ctx_blk = ggml_init(p_blk);
  for (int il = 0; il < N_LAYER; il++) {
    struct gpt2_block *b = &m->blocks[il];
    b->ln_w = ggml_new_tensor_1d(m->ctx_blk, GGML_TYPE_F32, N_EMBD);
    b->ln_b = ggml_new_tensor_1d(m->ctx_blk, GGML_TYPE_F32, N_EMBD);
    b->fc_w = ggml_new_tensor_2d(m->ctx_blk, GGML_TYPE_F32, N_EMBD, 4 * N_EMBD);
    b->proj_w = ggml_new_tensor_2d(m->ctx_blk, GGML_TYPE_F32, 4 * N_EMBD, N_EMBD);
  }
  ggml_backend_buffer_type_t pinned = ggml_backend_dev_host_buffer_type(ggml_backend_get_device(m->gpu));
  m->buf_blk = ggml_backend_alloc_ctx_tensors_from_buft(m->ctx_blk, pinned ? pinned : ggml_backend_cpu_buffer_type());
  if (!m->buf_tok || !m->buf_blk) return false;
  ggml_backend_buffer_set_usage(m->buf_tok, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  ggml_backend_buffer_set_usage(m->buf_blk, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  fill_all(m->ctx_tok, 1);
  fill_all(m->ctx_blk, 50);
  /* the norms start at identity: patch them in place, they are host memory */
  for (int il = 0; il < N_LAYER; il++)
    for (int i = 0; i < N_EMBD; i++) ggml_set_f32_1d(m->blocks[il].ln_w, i, 1.0f);
  return true;
}

static bool watch_blocks(struct ggml_tensor *t, bool ask, void *user_data) {
  if (ask) return strncmp(t->name, "block_out", 9) == 0;
  struct watch_stats *st = user_data;
  const int64_t n = ggml_nelements(t);
  float *tmp = malloc((size_t)n * sizeof(float));
  if (ggml_backend_buffer_is_host(t->buffer)) {
    memcpy(tmp, t->data, ggml_nbytes(t));
  } else {
    ggml_backend_tensor_get(t, tmp, 0, ggml_nbytes(t));
  }
  double sum = 0.0;
  for (int64_t i = 0; i < n; i++) sum += tmp[i];
  free(tmp);
  st->n_seen++;
  st->last_mean = (float)(sum / (double)n);
  return true;
}

static struct ggml_cgraph *build_gpt2(struct ggml_context *ctx, const struct gpt2_model *m, ggml_backend_sched_t sched) {
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *tokens = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_TOKENS);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_TOKENS);
  ggml_set_name(tokens, "tokens");
  ggml_set_name(pos, "pos");
  ggml_set_input(tokens);
  ggml_set_input(pos);
  struct ggml_tensor *x = ggml_add(ctx, ggml_get_rows(ctx, m->wte, tokens), ggml_get_rows(ctx, m->wpe, pos));
  for (int il = 0; il < N_LAYER; il++) {
    const struct gpt2_block *b = &m->blocks[il];
    struct ggml_tensor *cur = ggml_add(ctx, ggml_mul(ctx, ggml_norm(ctx, x, 1e-5f), b->ln_w), b->ln_b);
    struct ggml_tensor *fc = ggml_mul_mat(ctx, b->fc_w, cur);
    /* the big matmul goes to the GPU even though its weight is in host memory */
    ggml_backend_sched_set_tensor_backend(sched, fc, m->gpu);
    cur = ggml_mul_mat(ctx, b->proj_w, ggml_gelu(ctx, fc));
    x = ggml_add(ctx, x, cur);
    ggml_format_name(x, "block_out-%d", il);
  }
  /* tied embeddings: logits = wte^T x */
  struct ggml_tensor *logits = ggml_mul_mat(ctx, m->wte, x);
  ggml_set_name(logits, "logits");
  ggml_set_output(logits);
  ggml_build_forward_expand(gf, logits);
  return gf;
}

/* Temperature + softmax on the GPU, reading and writing pinned host tensors. */
static void postprocess_on_gpu(ggml_backend_t gpu, const float *logits, float *probs, float temp) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *io = ggml_init(p);
  struct ggml_tensor *in = ggml_new_tensor_2d(io, GGML_TYPE_F32, N_VOCAB, N_TOKENS);
  struct ggml_tensor *out = ggml_new_tensor_2d(io, GGML_TYPE_F32, N_VOCAB, N_TOKENS);
  ggml_backend_buffer_t io_buf = ggml_backend_alloc_ctx_tensors_from_buft(io, ggml_backend_cuda_host_buffer_type());
  memcpy(in->data, logits, ggml_nbytes(in));

  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *sm = ggml_soft_max(ctx, ggml_scale(ctx, in, 1.0f / temp));
  ggml_build_forward_expand(gf, ggml_cpy(ctx, sm, out));
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu));
  ggml_gallocr_alloc_graph(galloc, gf);
  ggml_backend_graph_compute(gpu, gf);
  memcpy(probs, out->data, ggml_nbytes(out));

  ggml_gallocr_free(galloc);
  ggml_free(ctx);
  ggml_backend_buffer_free(io_buf);
  ggml_free(io);
}

int main(void) {
  static struct gpt2_model model;
  model.gpu = ggml_backend_init_best();
  model.cpu = ggml_backend_cpu_init();
  if (!ggml_backend_is_cuda(model.gpu)) {
    fprintf(stderr, "this example wants a GPU\n");
    return 1;
  }
  if (!model_load(&model)) return 1;

  ggml_backend_t backends[2] = {model.gpu, model.cpu};
  ggml_backend_sched_t sched = ggml_backend_sched_new(backends, NULL, 2, GGML_DEFAULT_GRAPH_SIZE, false, true);
  struct watch_stats stats = {0, 0.0f};
  ggml_backend_sched_set_eval_callback(sched, watch_blocks, &stats);

  struct ggml_init_params p = {ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = build_gpt2(ctx, &model, sched);
  if (!ggml_backend_sched_alloc_graph(sched, gf)) return 1;
  const int32_t toks[N_TOKENS] = {3, 14, 15, 9, 2};
  const int32_t pos[N_TOKENS] = {0, 1, 2, 3, 4};
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "tokens"), toks, 0, sizeof toks);
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "pos"), pos, 0, sizeof pos);
  ggml_backend_sched_graph_compute(sched, gf);
  printf("splits: %d, copies: %d, blocks watched: %d (last mean %.4f)\n", ggml_backend_sched_get_n_splits(sched),
         ggml_backend_sched_get_n_copies(sched), stats.n_seen, (double)stats.last_mean);

  float logits[N_VOCAB * N_TOKENS], probs[N_VOCAB * N_TOKENS];
  ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "logits"), logits, 0, sizeof logits);
  postprocess_on_gpu(model.gpu, logits, probs, 0.8f);
  for (int t = 0; t < N_TOKENS; t++) {
    int best = 0;
    for (int v = 1; v < N_VOCAB; v++)
      if (probs[t * N_VOCAB + v] > probs[t * N_VOCAB + best]) best = v;
    printf("pos %d: next %d (p=%.3f), wte.flat[%d] = %.4f\n", t, best, (double)probs[t * N_VOCAB + best], best,
           (double)ggml_get_f32_1d(model.wte, best));
  }

  ggml_free(ctx);
  ggml_backend_sched_free(sched);
  ggml_backend_buffer_free(model.buf_blk);
  ggml_backend_buffer_free(model.buf_tok);
  ggml_free(model.ctx_blk);
  ggml_free(model.ctx_tok);
  ggml_backend_free(model.cpu);
  ggml_backend_free(model.gpu);
  return 0;
}
