// provenance: blind round g10
// A whisper.cpp-style transcription loop: the encoder and the projection to the vocabulary run
// on the GPU (weights in a GPU buffer, graphs allocated by a gallocr on the GPU's buffer type,
// built in the state's meta buffer), and sampling is done the old way, in a ggml context that
// owns its memory (no_alloc = false): the logits are copied from the GPU straight into that
// context's tensor, and a temperature softmax and an argsort are computed there with
// ggml_graph_compute_with_ctx, their results read through ->data. `--cpu` runs the encoder on
// the CPU backend, where the logits can be read in place.
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

#define N_MEL 16
#define N_STATE 24
#define N_CTX 8
#define N_CTX_MAX 32
#define N_VOCAB 40
#define N_WINDOWS 3
#define TOKEN_EOT 39

struct whisper_model {
  ggml_backend_t backend;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buffer;
  struct ggml_tensor *conv_w;   // [N_MEL, N_STATE]
  struct ggml_tensor *conv_b;   // [N_STATE]
  struct ggml_tensor *pos_embd; // [N_STATE, N_CTX_MAX]
  struct ggml_tensor *ln_w;     // [N_STATE]
  struct ggml_tensor *ln_b;     // [N_STATE]
  struct ggml_tensor *proj;     // [N_STATE, N_VOCAB]
};

struct whisper_state {
  ggml_gallocr_t galloc;
  void *meta;
  size_t meta_size;
  float mel[N_MEL * N_CTX];
  int32_t tokens[N_WINDOWS * N_CTX];
  int n_tokens;
  float sum_logprob;
};

static void fill_tensor(struct ggml_tensor *t, float scale, int salt) {
  const int64_t n = ggml_nelements(t);
  float *tmp = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) tmp[i] = scale * sinf(0.37f * (float)(i + 1) + 0.11f * (float)salt);
  ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
  free(tmp);
}

static bool whisper_model_load(struct whisper_model *model, bool use_cpu) {
  model->backend = use_cpu ? ggml_backend_cpu_init() : ggml_backend_cuda_init(0);
  if (!model->backend) return false;
  struct ggml_init_params params = {ggml_tensor_overhead() * 8, NULL, true};
  model->ctx = ggml_init(params);
  model->conv_w = ggml_new_tensor_2d(model->ctx, GGML_TYPE_F32, N_MEL, N_STATE);
  model->conv_b = ggml_new_tensor_1d(model->ctx, GGML_TYPE_F32, N_STATE);
  model->pos_embd = ggml_new_tensor_2d(model->ctx, GGML_TYPE_F32, N_STATE, N_CTX_MAX);
  model->ln_w = ggml_new_tensor_1d(model->ctx, GGML_TYPE_F32, N_STATE);
  model->ln_b = ggml_new_tensor_1d(model->ctx, GGML_TYPE_F32, N_STATE);
  model->proj = ggml_new_tensor_2d(model->ctx, GGML_TYPE_F32, N_STATE, N_VOCAB);
  ggml_set_name(model->conv_w, "encoder.conv1.weight");
  ggml_set_name(model->proj, "decoder.token_embedding.weight");
  model->buffer = ggml_backend_alloc_ctx_tensors(model->ctx, model->backend);
  if (!model->buffer) return false;
  int salt = 0;
  for (struct ggml_tensor *t = ggml_get_first_tensor(model->ctx); t; t = ggml_get_next_tensor(model->ctx, t))
    fill_tensor(t, t == model->ln_w ? 1.0f : 0.2f, salt++);
  fprintf(stderr, "model: %s buffer, %zu bytes\n", ggml_backend_buffer_name(model->buffer), ggml_backend_buffer_get_size(model->buffer));
  return true;
}

static void whisper_model_free(struct whisper_model *model) {
  ggml_backend_buffer_free(model->buffer);
  ggml_free(model->ctx);
  ggml_backend_free(model->backend);
}

// The encoder graph for one window, in the state's meta buffer (whisper_build_graph_encoder).
static struct ggml_cgraph *build_encoder(const struct whisper_model *model, struct whisper_state *state, struct ggml_context **out_ctx) {
  struct ggml_init_params params = {state->meta_size, state->meta, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);

  struct ggml_tensor *mel = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_MEL, N_CTX);
  ggml_set_name(mel, "mel");
  ggml_set_input(mel);
  struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_CTX);
  ggml_set_name(pos, "positions");
  ggml_set_input(pos);

  struct ggml_tensor *cur = ggml_add(ctx, ggml_mul_mat(ctx, model->conv_w, mel), model->conv_b);
  cur = ggml_gelu(ctx, cur);
  cur = ggml_add(ctx, cur, ggml_get_rows(ctx, model->pos_embd, pos));
  cur = ggml_norm(ctx, cur, 1e-5f);
  cur = ggml_add(ctx, ggml_mul(ctx, cur, model->ln_w), model->ln_b);
  struct ggml_tensor *logits = ggml_mul_mat(ctx, model->proj, cur);
  ggml_set_name(logits, "logits");
  ggml_set_output(logits);
  ggml_build_forward_expand(gf, logits);
  *out_ctx = ctx;
  return gf;
}

static void compute_mel(struct whisper_state *state, int window) {
  for (int t = 0; t < N_CTX; t++)
    for (int m = 0; m < N_MEL; m++)
      state->mel[t * N_MEL + m] = logf(1.0f + fabsf(sinf(0.05f * (float)(m + 1) * (float)(t + 1 + window * N_CTX))));
}

// Sampling in a context that owns its memory: every tensor here is host memory.
static int sample_window(struct whisper_state *state, const struct ggml_tensor *logits, float temperature) {
  struct ggml_init_params params = {4 * 1024 * 1024, NULL, false};
  struct ggml_context *sctx = ggml_init(params);
  struct ggml_tensor *host_logits = ggml_new_tensor_2d(sctx, GGML_TYPE_F32, N_VOCAB, N_CTX);

  if (ggml_backend_buffer_is_host(logits->buffer)) {
    memcpy(host_logits->data, logits->data, ggml_nbytes(logits));
  } else {
    ggml_backend_tensor_get(logits, host_logits->data, 0, ggml_nbytes(logits));
  }

  struct ggml_tensor *probs = ggml_soft_max_ext(sctx, host_logits, NULL, 1.0f / temperature, 0.0f);
  struct ggml_tensor *order = ggml_argsort(sctx, probs, GGML_SORT_ORDER_DESC);
  struct ggml_cgraph *gf = ggml_new_graph(sctx);
  ggml_build_forward_expand(gf, order);
  if (ggml_graph_compute_with_ctx(sctx, gf, 2) != GGML_STATUS_SUCCESS) {
    ggml_free(sctx);
    return -1;
  }

  const float *p = (const float *)probs->data;
  const int32_t *ord = (const int32_t *)order->data;
  int emitted = 0;
  for (int t = 0; t < N_CTX; t++) {
    const int32_t best = ord[t * N_VOCAB];
    const float pbest = p[t * N_VOCAB + best];
    const float second = ggml_get_f32_1d(probs, t * N_VOCAB + ord[t * N_VOCAB + 1]);
    state->sum_logprob += logf(pbest);
    if (best == TOKEN_EOT) break;
    if (pbest - second < 1e-4f && t > 0) continue; // ambiguous frame: skip it
    state->tokens[state->n_tokens++] = best;
    emitted++;
  }
  ggml_free(sctx);
  return emitted;
}

static int run_window(const struct whisper_model *model, struct whisper_state *state, int window) {
  struct ggml_context *ctx = NULL;
  struct ggml_cgraph *gf = build_encoder(model, state, &ctx);
  if (!ggml_gallocr_alloc_graph(state->galloc, gf)) {
    ggml_free(ctx);
    return -1;
  }
  compute_mel(state, window);
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "mel"), state->mel, 0, sizeof state->mel);
  int32_t pos[N_CTX];
  for (int i = 0; i < N_CTX; i++) pos[i] = window * N_CTX + i;
  ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "positions"), pos, 0, sizeof pos);

  if (ggml_backend_graph_compute(model->backend, gf) != GGML_STATUS_SUCCESS) {
    ggml_free(ctx);
    return -1;
  }
  const float temperature = window == 0 ? 1.0f : 0.8f;
  const int n = sample_window(state, ggml_graph_get_tensor(gf, "logits"), temperature);
  ggml_free(ctx);
  return n;
}

int main(int argc, char **argv) {
  bool use_cpu = false;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--cpu") == 0) use_cpu = true;

  struct whisper_model model;
  memset(&model, 0, sizeof model);
  if (!whisper_model_load(&model, use_cpu)) {
    fprintf(stderr, "failed to load the model\n");
    return 1;
  }

  struct whisper_state *state = calloc(1, sizeof *state);
  state->meta_size = ggml_tensor_overhead() * 64 + ggml_graph_overhead();
  state->meta = malloc(state->meta_size);
  state->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(model.backend));

  for (int w = 0; w < N_WINDOWS; w++) {
    const int n = run_window(&model, state, w);
    if (n < 0) {
      fprintf(stderr, "window %d failed\n", w);
      return 1;
    }
    printf("window %d: %d tokens\n", w, n);
  }
  printf("transcript:");
  for (int i = 0; i < state->n_tokens; i++) printf(" %d", state->tokens[i]);
  printf("\navg logprob %.4f\n", (double)(state->sum_logprob / (float)(N_WINDOWS * N_CTX)));

  ggml_gallocr_free(state->galloc);
  free(state->meta);
  free(state);
  whisper_model_free(&model);
  return 0;
}
