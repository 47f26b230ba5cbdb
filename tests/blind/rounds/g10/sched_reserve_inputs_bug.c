// provenance: blind round g10
// A whisper.cpp-style audio encoder: the model's weights are in a GPU buffer, the state owns a
// ggml_backend_sched over the GPU and the CPU, reserves its compute buffers once at init from a
// measure graph, and every encode builds the graph again in the state's meta buffer, uploads
// the mel spectrogram and the positions, and runs it through the scheduler.
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

#define N_MEL 8
#define N_STATE 16
#define N_HEAD 2
#define N_FRAMES 12
#define N_LAYER 2
#define N_LANG 6

struct whisper_layer_encoder {
  struct ggml_tensor *attn_ln_0_w, *attn_ln_0_b;
  struct ggml_tensor *attn_q_w, *attn_k_w, *attn_v_w, *attn_out_w;
  struct ggml_tensor *mlp_ln_w, *mlp_ln_b;
  struct ggml_tensor *mlp_0_w, *mlp_1_w;
};

struct whisper_model {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct ggml_tensor *e_mel_proj;
  struct ggml_tensor *e_pe;
  struct ggml_tensor *e_ln_w, *e_ln_b;
  struct ggml_tensor *lang_head;
  struct whisper_layer_encoder layers[N_LAYER];
};

struct whisper_state {
  ggml_backend_t backends[2];
  int n_backends;
  ggml_backend_sched_t sched;
  uint8_t *meta;
  size_t meta_size;
  float mel[N_MEL * N_FRAMES];
  float lang_probs[N_LANG];
};

struct whisper_context {
  struct whisper_model model;
  struct whisper_state *state;
};

static void fill_weight(struct ggml_tensor *t, float scale, float bias) {
  const int64_t n = ggml_nelements(t);
  float *tmp = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) tmp[i] = bias + scale * sinf(0.37f * (float)i + (float)t->ne[0]);
  ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
  free(tmp);
}

static struct ggml_tensor *new_weight(struct ggml_context *ctx, const char *name, int64_t ne0, int64_t ne1) {
  struct ggml_tensor *t = ne1 > 0 ? ggml_new_tensor_2d(ctx, GGML_TYPE_F32, ne0, ne1) : ggml_new_tensor_1d(ctx, GGML_TYPE_F32, ne0);
  ggml_set_name(t, name);
  return t;
}

static bool whisper_model_load(struct whisper_model *model, ggml_backend_t backend) {
  struct ggml_init_params params = {ggml_tensor_overhead() * (5 + 10 * N_LAYER), NULL, true};
  model->ctx = ggml_init(params);
  struct ggml_context *ctx = model->ctx;
  model->e_mel_proj = new_weight(ctx, "encoder.mel_proj.weight", N_MEL, N_STATE);
  model->e_pe = new_weight(ctx, "encoder.positional_embedding", N_STATE, N_FRAMES);
  model->e_ln_w = new_weight(ctx, "encoder.ln_post.weight", N_STATE, 0);
  model->e_ln_b = new_weight(ctx, "encoder.ln_post.bias", N_STATE, 0);
  model->lang_head = new_weight(ctx, "encoder.lang_head.weight", N_STATE, N_LANG);
  for (int il = 0; il < N_LAYER; il++) {
    struct whisper_layer_encoder *l = &model->layers[il];
    l->attn_ln_0_w = new_weight(ctx, "attn_ln.weight", N_STATE, 0);
    l->attn_ln_0_b = new_weight(ctx, "attn_ln.bias", N_STATE, 0);
    l->attn_q_w = new_weight(ctx, "attn.query.weight", N_STATE, N_STATE);
    l->attn_k_w = new_weight(ctx, "attn.key.weight", N_STATE, N_STATE);
    l->attn_v_w = new_weight(ctx, "attn.value.weight", N_STATE, N_STATE);
    l->attn_out_w = new_weight(ctx, "attn.out.weight", N_STATE, N_STATE);
    l->mlp_ln_w = new_weight(ctx, "mlp_ln.weight", N_STATE, 0);
    l->mlp_ln_b = new_weight(ctx, "mlp_ln.bias", N_STATE, 0);
    l->mlp_0_w = new_weight(ctx, "mlp.0.weight", N_STATE, 4 * N_STATE);
    l->mlp_1_w = new_weight(ctx, "mlp.2.weight", 4 * N_STATE, N_STATE);
  }
  model->buffer = ggml_backend_alloc_ctx_tensors(ctx, backend);
  if (!model->buffer) return false;
  ggml_backend_buffer_set_usage(model->buffer, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  for (struct ggml_tensor *t = ggml_get_first_tensor(ctx); t; t = ggml_get_next_tensor(ctx, t)) {
    const bool is_vec = ggml_n_dims(t) == 1;
    fill_weight(t, is_vec ? 0.0f : 0.1f, is_vec && strstr(t->name, "weight") ? 1.0f : 0.0f);
  }
  return true;
}

static struct ggml_tensor *layer_norm(struct ggml_context *ctx, struct ggml_tensor *x, struct ggml_tensor *w, struct ggml_tensor *b) {
  return ggml_add(ctx, ggml_mul(ctx, ggml_norm(ctx, x, 1e-5f), w), b);
}

static struct ggml_cgraph *whisper_build_graph_encoder(struct whisper_context *wctx) {
  struct whisper_state *state = wctx->state;
  const struct whisper_model *model = &wctx->model;
  struct ggml_init_params params = {state->meta_size, state->meta, true};
  struct ggml_context *ctx0 = ggml_init(params);
  struct ggml_cgraph *gf = ggml_new_graph(ctx0);

  struct ggml_tensor *mel = ggml_new_tensor_2d(ctx0, GGML_TYPE_F32, N_MEL, N_FRAMES);
  ggml_set_name(mel, "mel");
  ggml_set_input(mel);

  struct ggml_tensor *cur = ggml_gelu(ctx0, ggml_mul_mat(ctx0, model->e_mel_proj, mel));
  cur = ggml_add(ctx0, cur, model->e_pe);
  const float kq_scale = 1.0f / sqrtf((float)(N_STATE / N_HEAD));
  for (int il = 0; il < N_LAYER; il++) {
    const struct whisper_layer_encoder *l = &model->layers[il];
    struct ggml_tensor *inpL = cur;
    cur = layer_norm(ctx0, cur, l->attn_ln_0_w, l->attn_ln_0_b);
    struct ggml_tensor *Q = ggml_reshape_3d(ctx0, ggml_mul_mat(ctx0, l->attn_q_w, cur), N_STATE / N_HEAD, N_HEAD, N_FRAMES);
    struct ggml_tensor *K = ggml_reshape_3d(ctx0, ggml_mul_mat(ctx0, l->attn_k_w, cur), N_STATE / N_HEAD, N_HEAD, N_FRAMES);
    struct ggml_tensor *V = ggml_reshape_3d(ctx0, ggml_mul_mat(ctx0, l->attn_v_w, cur), N_STATE / N_HEAD, N_HEAD, N_FRAMES);
    Q = ggml_permute(ctx0, Q, 0, 2, 1, 3);
    K = ggml_permute(ctx0, K, 0, 2, 1, 3);
    struct ggml_tensor *KQ = ggml_soft_max_ext(ctx0, ggml_mul_mat(ctx0, K, Q), NULL, kq_scale, 0.0f);
    struct ggml_tensor *Vt = ggml_cont(ctx0, ggml_permute(ctx0, V, 1, 2, 0, 3));
    struct ggml_tensor *KQV = ggml_cont(ctx0, ggml_permute(ctx0, ggml_mul_mat(ctx0, Vt, KQ), 0, 2, 1, 3));
    cur = ggml_mul_mat(ctx0, l->attn_out_w, ggml_reshape_2d(ctx0, KQV, N_STATE, N_FRAMES));
    cur = ggml_add(ctx0, cur, inpL);
    struct ggml_tensor *inpFF = cur;
    cur = layer_norm(ctx0, cur, l->mlp_ln_w, l->mlp_ln_b);
    cur = ggml_mul_mat(ctx0, l->mlp_1_w, ggml_gelu(ctx0, ggml_mul_mat(ctx0, l->mlp_0_w, cur)));
    cur = ggml_add(ctx0, cur, inpFF);
  }
  cur = layer_norm(ctx0, cur, model->e_ln_w, model->e_ln_b);
  struct ggml_tensor *pooled = ggml_cont(ctx0, ggml_transpose(ctx0, cur));
  pooled = ggml_scale(ctx0, ggml_sum_rows(ctx0, pooled), 1.0f / N_FRAMES);
  struct ggml_tensor *logits = ggml_mul_mat(ctx0, model->lang_head, ggml_reshape_1d(ctx0, pooled, N_STATE));
  struct ggml_tensor *probs = ggml_soft_max(ctx0, logits);
  ggml_set_name(probs, "lang_probs");
  ggml_set_output(probs);
  ggml_build_forward_expand(gf, probs);
  ggml_free(ctx0);
  return gf;
}

static struct whisper_state *whisper_init_state(struct whisper_context *wctx, ggml_backend_t gpu) {
  struct whisper_state *state = calloc(1, sizeof *state);
  state->backends[0] = gpu;
  state->backends[1] = ggml_backend_cpu_init();
  state->n_backends = 2;
  state->meta_size = ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead();
  state->meta = malloc(state->meta_size);
  state->sched = ggml_backend_sched_new(state->backends, NULL, state->n_backends, GGML_DEFAULT_GRAPH_SIZE, false, true);
  wctx->state = state;

  /* reserve the compute buffers once, from a worst-case graph */
  struct ggml_cgraph *measure = whisper_build_graph_encoder(wctx);
  if (!ggml_backend_sched_reserve(state->sched, measure)) {
    fprintf(stderr, "%s: failed to reserve the encoder's compute buffers\n", __func__);
    return NULL;
  }
  for (int i = 0; i < state->n_backends; i++) {
    ggml_backend_t b = state->backends[i];
    printf("%s: compute buffer (%s) = %zu bytes\n", __func__, ggml_backend_name(b), ggml_backend_sched_get_buffer_size(state->sched, b));
  }
  return state;
}

static void whisper_compute_mel(struct whisper_state *state, const float *pcm, int n_samples) {
  for (int f = 0; f < N_FRAMES; f++) {
    for (int b = 0; b < N_MEL; b++) {
      float acc = 0.0f;
      for (int s = f; s < n_samples; s += N_FRAMES) acc += pcm[s] * cosf(0.1f * (float)(b + 1) * (float)s);
      state->mel[f * N_MEL + b] = log10f(fabsf(acc) + 1e-3f);
    }
  }
}

static void whisper_set_inputs(struct ggml_cgraph *gf, const struct whisper_state *state) {
  struct ggml_tensor *mel = ggml_graph_get_tensor(gf, "mel");
  ggml_backend_tensor_set(mel, state->mel, 0, ggml_nbytes(mel)); // expect-error: ggml-buffer-not-set
}

/* Runs a graph through the scheduler; allocates it first when the scheduler has not. */
static bool whisper_sched_graph_compute(ggml_backend_sched_t sched, struct ggml_cgraph *gf) {
  if (!ggml_backend_sched_alloc_graph(sched, gf)) return false;
  return ggml_backend_sched_graph_compute(sched, gf) == GGML_STATUS_SUCCESS;
}

static bool whisper_encode_internal(struct whisper_context *wctx) {
  struct whisper_state *state = wctx->state;
  ggml_backend_sched_reset(state->sched);
  struct ggml_cgraph *gf = whisper_build_graph_encoder(wctx);
  whisper_set_inputs(gf, state);
  if (!whisper_sched_graph_compute(state->sched, gf)) return false;
  struct ggml_tensor *probs = ggml_graph_get_tensor(gf, "lang_probs");
  ggml_backend_tensor_get(probs, state->lang_probs, 0, sizeof state->lang_probs);
  return true;
}

int main(void) {
  static const char *langs[N_LANG] = {"en", "de", "fr", "es", "it", "ja"};
  ggml_backend_t gpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
  if (!gpu) {
    fprintf(stderr, "no GPU device\n");
    return 1;
  }
  struct whisper_context wctx;
  memset(&wctx, 0, sizeof wctx);
  if (!whisper_model_load(&wctx.model, gpu)) return 1;
  if (!whisper_init_state(&wctx, gpu)) return 1;

  float pcm[160];
  for (int chunk = 0; chunk < 2; chunk++) {
    for (int i = 0; i < 160; i++) pcm[i] = sinf(0.05f * (float)(i * (chunk + 1)));
    whisper_compute_mel(wctx.state, pcm, 160);
    if (!whisper_encode_internal(&wctx)) {
      fprintf(stderr, "encode failed\n");
      return 1;
    }
    int best = 0;
    for (int i = 1; i < N_LANG; i++)
      if (wctx.state->lang_probs[i] > wctx.state->lang_probs[best]) best = i;
    printf("chunk %d: detected language %s (p = %.3f)\n", chunk, langs[best], (double)wctx.state->lang_probs[best]);
  }

  struct whisper_state *state = wctx.state;
  ggml_backend_sched_free(state->sched);
  ggml_backend_free(state->backends[1]);
  free(state->meta);
  free(state);
  ggml_backend_buffer_free(wctx.model.buffer);
  ggml_free(wctx.model.ctx);
  ggml_backend_free(gpu);
  return 0;
}
