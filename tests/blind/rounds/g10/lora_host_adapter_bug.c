// provenance: blind round g10
// Base weights of a small block model on the GPU and two LoRA adapters loaded at run time
// (llama-adapter style): each adapter is a no_alloc context of A/B pairs keyed by the base
// tensor they patch, allocated in a buffer type picked per adapter; the forward graph adds
// scale * B(A x) to each patched matmul and is computed on the model's backend.
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
#define N_FF 32
#define N_LAYER 2
#define N_TOKENS 4
#define MAX_LORA_WEIGHTS 8
#define MAX_ADAPTERS 4

struct llm_block {
  struct ggml_tensor *norm, *wq, *wo, *ffn_up, *ffn_down;
};

struct llm_model {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct llm_block blocks[N_LAYER];
};

struct lora_weight {
  char target[GGML_MAX_NAME];
  struct ggml_tensor *a; /* [n_in, rank] */
  struct ggml_tensor *b; /* [rank, n_out] */
};

struct lora_config {
  int rank;
  float alpha;
  bool keep_on_host;
};

struct lora_adapter {
  struct lora_config cfg;
  float scale;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct lora_weight weights[MAX_LORA_WEIGHTS];
  int n_weights;
};

static float hash_weight(int i, int salt) {
  uint32_t h = (uint32_t)i * 2654435761u ^ (uint32_t)salt * 40503u;
  h ^= h >> 13;
  return ((float)(h & 0xffff) / 65536.0f - 0.5f) * 0.25f;
}

static void upload_pattern(struct ggml_tensor *t, int salt) {
  const int64_t n = ggml_nelements(t);
  float *tmp = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) tmp[i] = hash_weight((int)i, salt);
  ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
  free(tmp);
}

static void model_load(struct llm_model *m) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 5 * N_LAYER, NULL, true};
  m->ctx = ggml_init(params);
  for (int il = 0; il < N_LAYER; il++) {
    struct llm_block *b = &m->blocks[il];
    b->norm = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_EMBD);
    b->wq = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    b->wo = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    b->ffn_up = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_FF);
    b->ffn_down = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_FF, N_EMBD);
    ggml_format_name(b->norm, "blk.%d.norm.weight", il);
    ggml_format_name(b->wq, "blk.%d.attn_q.weight", il);
    ggml_format_name(b->wo, "blk.%d.attn_output.weight", il);
    ggml_format_name(b->ffn_up, "blk.%d.ffn_up.weight", il);
    ggml_format_name(b->ffn_down, "blk.%d.ffn_down.weight", il);
  }
  m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
  ggml_backend_buffer_set_usage(m->buf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  int salt = 1;
  for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx); t; t = ggml_get_next_tensor(m->ctx, t)) upload_pattern(t, salt++);
}

/* Small adapters are cheap to keep on the host; larger ones go where the model is. */
static ggml_backend_buffer_type_t lora_pick_buft(const struct llm_model *m, const struct lora_adapter *ad) {
  if (ad->cfg.keep_on_host) {
    return ggml_backend_cpu_buffer_type();
  }
  return ggml_backend_get_default_buffer_type(m->backend);
}

static void lora_add_target(struct lora_adapter *ad, const struct ggml_tensor *base) {
  struct lora_weight *w = &ad->weights[ad->n_weights++];
  snprintf(w->target, sizeof w->target, "%s", base->name);
  w->a = ggml_new_tensor_2d(ad->ctx, GGML_TYPE_F32, base->ne[0], ad->cfg.rank);
  w->b = ggml_new_tensor_2d(ad->ctx, GGML_TYPE_F32, ad->cfg.rank, base->ne[1]);
  ggml_format_name(w->a, "%s.lora_a", base->name);
  ggml_format_name(w->b, "%s.lora_b", base->name);
}

static bool lora_adapter_init(struct lora_adapter *ad, const struct llm_model *m, int rank, float alpha, int salt) {
  memset(ad, 0, sizeof *ad);
  ad->cfg.rank = rank;
  ad->cfg.alpha = alpha;
  ad->cfg.keep_on_host = rank <= 4;
  ad->scale = alpha / (float)rank;
  struct ggml_init_params params = {ggml_tensor_overhead() * 2 * MAX_LORA_WEIGHTS, NULL, true};
  ad->ctx = ggml_init(params);
  for (int il = 0; il < N_LAYER; il++) {
    lora_add_target(ad, m->blocks[il].wq);
    lora_add_target(ad, m->blocks[il].ffn_up);
  }
  ad->buf = ggml_backend_alloc_ctx_tensors_from_buft(ad->ctx, lora_pick_buft(m, ad));
  if (!ad->buf) return false;
  for (int i = 0; i < ad->n_weights; i++) {
    upload_pattern(ad->weights[i].a, salt + 2 * i);
    upload_pattern(ad->weights[i].b, salt + 2 * i + 1);
  }
  printf("adapter rank %d: %d weights in %s\n", rank, ad->n_weights, ggml_backend_buffer_name(ad->buf));
  return true;
}

static const struct lora_weight *lora_find(const struct lora_adapter *ad, const struct ggml_tensor *base) {
  for (int i = 0; i < ad->n_weights; i++)
    if (strcmp(ad->weights[i].target, base->name) == 0) return &ad->weights[i];
  return NULL;
}

static struct ggml_tensor *build_lora_mm(struct ggml_context *ctx, struct lora_adapter *const *adapters, int n_adapters,
                                         struct ggml_tensor *w, struct ggml_tensor *cur) {
  struct ggml_tensor *res = ggml_mul_mat(ctx, w, cur);
  for (int i = 0; i < n_adapters; i++) {
    const struct lora_weight *lw = lora_find(adapters[i], w);
    if (!lw) continue;
    struct ggml_tensor *ab = ggml_mul_mat(ctx, lw->b, ggml_mul_mat(ctx, lw->a, cur));
    res = ggml_add(ctx, res, ggml_scale(ctx, ab, adapters[i]->scale));
  }
  return res;
}

static struct ggml_cgraph *build_forward(struct ggml_context *ctx, const struct llm_model *m, struct lora_adapter *const *adapters, int n_adapters) {
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, N_TOKENS);
  ggml_set_name(x, "inp_embd");
  ggml_set_input(x);
  for (int il = 0; il < N_LAYER; il++) {
    const struct llm_block *b = &m->blocks[il];
    struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), b->norm);
    struct ggml_tensor *q = build_lora_mm(ctx, adapters, n_adapters, b->wq, cur);
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, b->wo, ggml_silu(ctx, q)));
    struct ggml_tensor *up = build_lora_mm(ctx, adapters, n_adapters, b->ffn_up, x);
    x = ggml_add(ctx, x, ggml_mul_mat(ctx, b->ffn_down, ggml_gelu(ctx, up)));
  }
  ggml_set_name(x, "result_embd");
  ggml_set_output(x);
  ggml_build_forward_expand(gf, x);
  return gf;
}

static enum ggml_status llm_graph_compute(const struct llm_model *m, struct ggml_cgraph *gf) {
  return ggml_backend_graph_compute(m->backend, gf); // expect-error: ggml-backend-mismatch
}

static bool run_forward(const struct llm_model *m, ggml_gallocr_t galloc, struct lora_adapter *const *adapters, int n_adapters,
                        const float *embd, float *out) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_cgraph *gf = build_forward(ctx, m, adapters, n_adapters);
  bool ok = ggml_gallocr_alloc_graph(galloc, gf);
  if (ok) {
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_embd"), embd, 0, sizeof(float) * N_EMBD * N_TOKENS);
    ok = llm_graph_compute(m, gf) == GGML_STATUS_SUCCESS;
  }
  if (ok) ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "result_embd"), out, 0, sizeof(float) * N_EMBD * N_TOKENS);
  ggml_free(ctx);
  return ok;
}

int main(void) {
  struct llm_model model;
  memset(&model, 0, sizeof model);
  model.backend = ggml_backend_cuda_init(0);
  if (!model.backend) return 1;
  model_load(&model);

  static struct lora_adapter style, domain;
  if (!lora_adapter_init(&style, &model, 8, 16.0f, 100)) return 1;
  if (!lora_adapter_init(&domain, &model, 4, 4.0f, 200)) return 1;
  struct lora_adapter *active[MAX_ADAPTERS] = {&style, &domain};
  const int n_active = 2;

  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(model.backend));
  float embd[N_EMBD * N_TOKENS], out[N_EMBD * N_TOKENS];
  for (int i = 0; i < N_EMBD * N_TOKENS; i++) embd[i] = cosf(0.3f * (float)i);

  /* all adapters first, then each one dropped in turn to compare */
  for (int n = n_active; n >= 0; n--) {
    if (!run_forward(&model, galloc, active, n, embd, out)) {
      fprintf(stderr, "forward with %d adapters failed\n", n);
      return 1;
    }
    double norm = 0.0;
    for (int i = 0; i < N_EMBD * N_TOKENS; i++) norm += (double)out[i] * out[i];
    printf("%d adapter(s): |out| = %.4f\n", n, sqrt(norm));
  }

  ggml_gallocr_free(galloc);
  ggml_backend_buffer_free(domain.buf);
  ggml_backend_buffer_free(style.buf);
  ggml_free(domain.ctx);
  ggml_free(style.ctx);
  ggml_backend_buffer_free(model.buf);
  ggml_free(model.ctx);
  ggml_backend_free(model.backend);
  return 0;
}
