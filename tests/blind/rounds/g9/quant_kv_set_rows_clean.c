// provenance: blind round g9
// A quantized decoder in the style of current llama.cpp: Q8_0 token embeddings read with
// get_rows, Q4_0 / Q8_0 projections quantized on the host with ggml_quantize_chunk, NEOX
// rope on I32 positions, an F16 KV cache written with ggml_set_rows (I64 cell indices) and an
// F16 attention mask. The empty cache is backed up to CUDA1 and restored with
// ggml_backend_tensor_copy so the prompt can be run once batched and once token by token;
// both must give the same logits.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_VOCAB 64
#define N_EMBD 64
#define N_HEAD 4
#define N_LAYER 2
#define N_CTX 16

struct qlayer {
  struct ggml_tensor *norm, *wq, *wk, *wv, *wo;
};

struct qmodel {
  ggml_backend_t gpu, gpu_backup;
  struct ggml_context *ctx_w, *ctx_kv, *ctx_bak;
  ggml_backend_buffer_t buf_w, buf_kv, buf_bak;
  struct ggml_tensor *tok_embd, *out_norm, *output;
  struct qlayer l[N_LAYER];
  struct ggml_tensor *k[N_LAYER], *v[N_LAYER], *k_bak[N_LAYER], *v_bak[N_LAYER];
  ggml_gallocr_t galloc;
  int n_past;
};

static void set_weight(struct ggml_tensor *t, uint32_t seed) {
  const int64_t n = ggml_nelements(t), row = t->ne[0], nrows = n / row;
  float *f = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    f[i] = ((float)((seed >> 9) & 0x7fff) / 32768.0f - 0.5f) * 0.4f;
  }
  if (ggml_is_quantized(t->type)) {
    void *q = malloc(ggml_nbytes(t));
    size_t written = ggml_quantize_chunk(t->type, f, q, 0, nrows, row, NULL);
    ggml_backend_tensor_set(t, q, 0, written);
    free(q);
  } else {
    ggml_backend_tensor_set(t, f, 0, ggml_nbytes(t));
  }
  free(f);
}

static struct ggml_context *no_alloc_ctx(int n) {
  struct ggml_init_params p = {ggml_tensor_overhead() * (size_t)n, NULL, true};
  return ggml_init(p);
}

static int qmodel_init(struct qmodel *m) {
  memset(m, 0, sizeof *m);
  m->gpu = ggml_backend_cuda_init(0);
  m->gpu_backup = ggml_backend_cuda_init(1);
  if (!m->gpu || !m->gpu_backup) return 0;
  m->ctx_w = no_alloc_ctx(5 * N_LAYER + 3);
  m->tok_embd = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_Q8_0, N_EMBD, N_VOCAB);
  for (int il = 0; il < N_LAYER; il++) {
    struct qlayer *l = &m->l[il];
    l->norm = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, N_EMBD);
    l->wq = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_Q4_0, N_EMBD, N_EMBD);
    l->wk = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_Q4_0, N_EMBD, N_EMBD);
    l->wv = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_Q8_0, N_EMBD, N_EMBD);
    l->wo = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_Q8_0, N_EMBD, N_EMBD);
  }
  m->out_norm = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, N_EMBD);
  m->output = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_Q8_0, N_EMBD, N_VOCAB);
  m->buf_w = ggml_backend_alloc_ctx_tensors(m->ctx_w, m->gpu);

  m->ctx_kv = no_alloc_ctx(2 * N_LAYER);
  m->ctx_bak = no_alloc_ctx(2 * N_LAYER);
  for (int il = 0; il < N_LAYER; il++) {
    m->k[il] = ggml_new_tensor_2d(m->ctx_kv, GGML_TYPE_F16, N_EMBD, N_CTX);
    m->v[il] = ggml_new_tensor_2d(m->ctx_kv, GGML_TYPE_F16, N_EMBD, N_CTX);
    m->k_bak[il] = ggml_dup_tensor(m->ctx_bak, m->k[il]);
    m->v_bak[il] = ggml_dup_tensor(m->ctx_bak, m->v[il]);
  }
  m->buf_kv = ggml_backend_alloc_ctx_tensors(m->ctx_kv, m->gpu);
  m->buf_bak = ggml_backend_alloc_ctx_tensors(m->ctx_bak, m->gpu_backup);
  if (!m->buf_w || !m->buf_kv || !m->buf_bak) return 0;
  ggml_backend_buffer_clear(m->buf_kv, 0);

  uint32_t seed = 17;
  for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx_w); t; t = ggml_get_next_tensor(m->ctx_w, t)) set_weight(t, seed++);
  m->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m->gpu));
  return 1;
}

static void kv_backup(struct qmodel *m) {
  for (int il = 0; il < N_LAYER; il++) {
    ggml_backend_tensor_copy(m->k[il], m->k_bak[il]);
    ggml_backend_tensor_copy(m->v[il], m->v_bak[il]);
  }
}

static void kv_restore(struct qmodel *m, int n_past) {
  for (int il = 0; il < N_LAYER; il++) {
    ggml_backend_tensor_copy(m->k_bak[il], m->k[il]);
    ggml_backend_tensor_copy(m->v_bak[il], m->v[il]);
  }
  m->n_past = n_past;
}

/* n tokens at m->n_past; logits of the last one into out[N_VOCAB] */
static int eval(struct qmodel *m, const int32_t *tokens, int n, float *out) {
  const int hd = N_EMBD / N_HEAD, n_kv = m->n_past + n;
  struct ggml_init_params p = {ggml_tensor_overhead() * 512 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n);
  struct ggml_tensor *cells = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, n);
  struct ggml_tensor *mask = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, n_kv, n);
  ggml_set_input(ids);
  ggml_set_input(pos);
  ggml_set_input(cells);
  ggml_set_input(mask);

  struct ggml_tensor *x = ggml_get_rows(ctx, m->tok_embd, ids);
  for (int il = 0; il < N_LAYER; il++) {
    const struct qlayer *l = &m->l[il];
    struct ggml_tensor *h = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-6f), l->norm);
    struct ggml_tensor *q = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, l->wq, h), hd, N_HEAD, n);
    struct ggml_tensor *k = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, l->wk, h), hd, N_HEAD, n);
    q = ggml_rope_ext(ctx, q, pos, NULL, hd, GGML_ROPE_TYPE_NEOX, N_CTX, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
    k = ggml_rope_ext(ctx, k, pos, NULL, hd, GGML_ROPE_TYPE_NEOX, N_CTX, 10000.0f, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
    struct ggml_tensor *v = ggml_mul_mat(ctx, l->wv, h);
    ggml_build_forward_expand(gf, ggml_set_rows(ctx, m->k[il], ggml_reshape_2d(ctx, k, N_EMBD, n), cells));
    ggml_build_forward_expand(gf, ggml_set_rows(ctx, m->v[il], v, cells));

    struct ggml_tensor *K = ggml_view_3d(ctx, m->k[il], hd, N_HEAD, n_kv, ggml_row_size(GGML_TYPE_F16, hd), m->k[il]->nb[1], 0);
    struct ggml_tensor *V = ggml_view_3d(ctx, m->v[il], hd, N_HEAD, n_kv, ggml_row_size(GGML_TYPE_F16, hd), m->v[il]->nb[1], 0);
    struct ggml_tensor *kq = ggml_mul_mat(ctx, ggml_permute(ctx, K, 0, 2, 1, 3), ggml_permute(ctx, q, 0, 2, 1, 3));
    kq = ggml_soft_max_ext(ctx, kq, mask, 1.0f / sqrtf((float)hd), 0.0f);
    struct ggml_tensor *Vt = ggml_cont(ctx, ggml_permute(ctx, ggml_cast(ctx, V, GGML_TYPE_F32), 1, 2, 0, 3));
    struct ggml_tensor *o = ggml_cont(ctx, ggml_permute(ctx, ggml_mul_mat(ctx, Vt, kq), 0, 2, 1, 3));
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, l->wo, ggml_reshape_2d(ctx, o, N_EMBD, n)));
  }
  struct ggml_tensor *last = ggml_view_1d(ctx, x, N_EMBD, x->nb[1] * (size_t)(n - 1));
  struct ggml_tensor *logits = ggml_mul_mat(ctx, m->output, ggml_mul(ctx, ggml_rms_norm(ctx, last, 1e-6f), m->out_norm));
  ggml_set_output(logits);
  ggml_build_forward_expand(gf, logits);

  int ok = ggml_gallocr_alloc_graph(m->galloc, gf);
  if (ok) {
    int32_t p32[N_CTX];
    int64_t c64[N_CTX];
    ggml_fp16_t *mk = malloc(sizeof(ggml_fp16_t) * (size_t)n_kv * (size_t)n);
    for (int i = 0; i < n; i++) {
      p32[i] = m->n_past + i;
      c64[i] = m->n_past + i;
      for (int j = 0; j < n_kv; j++) mk[i * n_kv + j] = ggml_fp32_to_fp16(j <= m->n_past + i ? 0.0f : -INFINITY);
    }
    ggml_backend_tensor_set(ids, tokens, 0, ggml_nbytes(ids));
    ggml_backend_tensor_set(pos, p32, 0, ggml_nbytes(pos));
    ggml_backend_tensor_set(cells, c64, 0, ggml_nbytes(cells));
    ggml_backend_tensor_set(mask, mk, 0, ggml_nbytes(mask));
    free(mk);
    ok = ggml_backend_graph_compute(m->gpu, gf) == GGML_STATUS_SUCCESS;
  }
  if (ok) {
    ggml_backend_tensor_get(logits, out, 0, ggml_nbytes(logits));
    m->n_past += n;
  }
  ggml_free(ctx);
  return ok;
}

int main(void) {
  struct qmodel m;
  if (!qmodel_init(&m)) return 1;
  kv_backup(&m);

  const int32_t prompt[] = {5, 12, 33, 7, 50, 21};
  const int n_prompt = (int)(sizeof prompt / sizeof prompt[0]);
  float batched[N_VOCAB], stepwise[N_VOCAB];
  if (!eval(&m, prompt, n_prompt, batched)) return 1;

  kv_restore(&m, 0);
  for (int i = 0; i < n_prompt; i++)
    if (!eval(&m, &prompt[i], 1, stepwise)) return 1;

  float max_diff = 0.0f;
  int arg_b = 0, arg_s = 0;
  for (int i = 0; i < N_VOCAB; i++) {
    float d = fabsf(batched[i] - stepwise[i]);
    if (d > max_diff) max_diff = d;
    if (batched[i] > batched[arg_b]) arg_b = i;
    if (stepwise[i] > stepwise[arg_s]) arg_s = i;
  }
  printf("batched argmax %d, stepwise argmax %d, max |diff| %.5f\n", arg_b, arg_s, (double)max_diff);

  ggml_gallocr_free(m.galloc);
  ggml_backend_buffer_free(m.buf_bak);
  ggml_backend_buffer_free(m.buf_kv);
  ggml_backend_buffer_free(m.buf_w);
  ggml_free(m.ctx_bak);
  ggml_free(m.ctx_kv);
  ggml_free(m.ctx_w);
  ggml_backend_free(m.gpu_backup);
  ggml_backend_free(m.gpu);
  return max_diff < 0.05f ? 0 : 2;
}
