// provenance: blind round g10
// run-args: -ngl 4
// Layer offload the llama.cpp way: `-ngl N` puts the last N repeating layers on the GPU and,
// when N exceeds the layer count, the output head as well. Each backend has its own weight
// context and buffer and its own graph allocator; the hidden state goes layer by layer
// through host memory, each layer computed on the backend that holds it.
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
#define N_FF 48
#define N_LAYER 4
#define N_VOCAB 24
#define N_TOKENS 3

enum { SLOT_CPU = 0, SLOT_GPU = 1, N_SLOTS = 2 };

struct backend_slot {
  ggml_backend_t backend;
  struct ggml_context *ctx_w;
  ggml_backend_buffer_t buf_w;
  ggml_gallocr_t galloc;
};

struct llm_layer {
  int slot;
  struct ggml_tensor *attn_norm, *wqkv, *wo, *ffn_norm, *ffn_up, *ffn_down;
};

struct llm_model {
  struct backend_slot slots[N_SLOTS];
  int n_gpu_layers;
  int output_slot;
  struct ggml_tensor *output_norm, *output;
  struct llm_layer layers[N_LAYER];
};

struct llm_params {
  int n_gpu_layers;
  int n_threads;
};

static void parse_args(int argc, char **argv, struct llm_params *p) {
  p->n_gpu_layers = 0;
  p->n_threads = 2;
  for (int i = 1; i < argc; i++) {
    if ((strcmp(argv[i], "-ngl") == 0 || strcmp(argv[i], "--n-gpu-layers") == 0) && i + 1 < argc) {
      p->n_gpu_layers = atoi(argv[++i]);
    } else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
      p->n_threads = atoi(argv[++i]);
    } else {
      fprintf(stderr, "unknown argument: %s\n", argv[i]);
      exit(2);
    }
  }
}

static int slot_for_layer(const struct llm_model *m, int il) {
  const int i_gpu_start = N_LAYER - m->n_gpu_layers;
  return il >= i_gpu_start ? SLOT_GPU : SLOT_CPU;
}

static struct ggml_tensor *new_w(struct ggml_context *ctx, int64_t ne0, int64_t ne1, const char *fmt, int il) {
  struct ggml_tensor *t = ne1 ? ggml_new_tensor_2d(ctx, GGML_TYPE_F32, ne0, ne1) : ggml_new_tensor_1d(ctx, GGML_TYPE_F32, ne0);
  ggml_format_name(t, fmt, il);
  return t;
}

static void model_init(struct llm_model *m, const struct llm_params *p) {
  memset(m, 0, sizeof *m);
  m->n_gpu_layers = p->n_gpu_layers;
  m->slots[SLOT_CPU].backend = ggml_backend_cpu_init();
  ggml_backend_cpu_set_n_threads(m->slots[SLOT_CPU].backend, p->n_threads);
  m->slots[SLOT_GPU].backend = ggml_backend_cuda_init(0);
  for (int s = 0; s < N_SLOTS; s++) {
    struct ggml_init_params params = {ggml_tensor_overhead() * (2 + 6 * N_LAYER), NULL, true};
    m->slots[s].ctx_w = ggml_init(params);
  }
  for (int il = 0; il < N_LAYER; il++) {
    struct llm_layer *l = &m->layers[il];
    l->slot = slot_for_layer(m, il);
    struct ggml_context *ctx = m->slots[l->slot].ctx_w;
    l->attn_norm = new_w(ctx, N_EMBD, 0, "blk.%d.attn_norm.weight", il);
    l->wqkv = new_w(ctx, N_EMBD, N_EMBD, "blk.%d.attn_qkv.weight", il);
    l->wo = new_w(ctx, N_EMBD, N_EMBD, "blk.%d.attn_output.weight", il);
    l->ffn_norm = new_w(ctx, N_EMBD, 0, "blk.%d.ffn_norm.weight", il);
    l->ffn_up = new_w(ctx, N_EMBD, N_FF, "blk.%d.ffn_up.weight", il);
    l->ffn_down = new_w(ctx, N_FF, N_EMBD, "blk.%d.ffn_down.weight", il);
  }
  /* the output head is offloaded only with n_gpu_layers > n_layer, as in llama.cpp */
  m->output_slot = m->n_gpu_layers > N_LAYER ? SLOT_GPU : SLOT_CPU;
  m->output_norm = new_w(m->slots[m->output_slot].ctx_w, N_EMBD, 0, "output_norm.weight", 0);
  m->output = new_w(m->slots[m->output_slot].ctx_w, N_EMBD, N_VOCAB, "output.weight", 0);

  for (int s = 0; s < N_SLOTS; s++) {
    struct backend_slot *slot = &m->slots[s];
    if (ggml_get_first_tensor(slot->ctx_w) != NULL) {
      slot->buf_w = ggml_backend_alloc_ctx_tensors(slot->ctx_w, slot->backend);
      ggml_backend_buffer_set_usage(slot->buf_w, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    }
    slot->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(slot->backend));
  }
}

static void model_load_weights(struct llm_model *m) {
  int k = 0;
  for (int s = 0; s < N_SLOTS; s++) {
    struct ggml_context *ctx = m->slots[s].ctx_w;
    for (struct ggml_tensor *t = ggml_get_first_tensor(ctx); t; t = ggml_get_next_tensor(ctx, t)) {
      const int64_t n = ggml_nelements(t);
      float *tmp = malloc((size_t)n * sizeof(float));
      for (int64_t i = 0; i < n; i++) tmp[i] = ggml_n_dims(t) == 1 ? 1.0f : 0.05f * sinf((float)(i + 7 * k));
      ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
      free(tmp);
      k++;
    }
  }
}

static struct ggml_context *graph_ctx(void) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true};
  return ggml_init(params);
}

static struct ggml_tensor *new_input(struct ggml_context *ctx) {
  struct ggml_tensor *inp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, N_TOKENS);
  ggml_set_name(inp, "inp_hidden");
  ggml_set_input(inp);
  return inp;
}

static void run_layer(struct llm_model *m, int il, float *hidden) {
  const struct llm_layer *l = &m->layers[il];
  struct backend_slot *slot = &m->slots[l->slot];
  struct ggml_context *ctx = graph_ctx();
  struct ggml_tensor *x = new_input(ctx);
  struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), l->attn_norm);
  cur = ggml_mul_mat(ctx, l->wo, ggml_tanh(ctx, ggml_mul_mat(ctx, l->wqkv, cur)));
  struct ggml_tensor *h = ggml_add(ctx, x, cur);
  cur = ggml_mul(ctx, ggml_rms_norm(ctx, h, 1e-5f), l->ffn_norm);
  cur = ggml_mul_mat(ctx, l->ffn_down, ggml_silu(ctx, ggml_mul_mat(ctx, l->ffn_up, cur)));
  struct ggml_tensor *out = ggml_add(ctx, h, cur);
  ggml_set_output(out);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, out);
  ggml_gallocr_alloc_graph(slot->galloc, gf);
  ggml_backend_tensor_set(x, hidden, 0, ggml_nbytes(x));
  ggml_backend_graph_compute(slot->backend, gf);
  ggml_backend_tensor_get(out, hidden, 0, ggml_nbytes(out));
  ggml_free(ctx);
}

/* The head runs right after the last layer, on the backend the last layer ran on. */
static void compute_output(struct llm_model *m, const float *hidden, float *logits) {
  struct backend_slot *slot = &m->slots[m->layers[N_LAYER - 1].slot];
  struct ggml_context *ctx = graph_ctx();
  struct ggml_tensor *x = new_input(ctx);
  struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), m->output_norm);
  struct ggml_tensor *out = ggml_mul_mat(ctx, m->output, cur);
  ggml_set_output(out);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  ggml_build_forward_expand(gf, out);
  ggml_gallocr_alloc_graph(slot->galloc, gf);
  ggml_backend_tensor_set(x, hidden, 0, ggml_nbytes(x));
  ggml_backend_graph_compute(slot->backend, gf); // expect-warning: ggml-backend-mismatch
  ggml_backend_tensor_get(out, logits, 0, ggml_nbytes(out));
  ggml_free(ctx);
}

int main(int argc, char **argv) {
  struct llm_params params;
  parse_args(argc, argv, &params);
  if (params.n_gpu_layers < 0) params.n_gpu_layers = 0;

  static struct llm_model model;
  model_init(&model, &params);
  model_load_weights(&model);
  printf("offloaded %d/%d layers, output on %s\n", params.n_gpu_layers > N_LAYER ? N_LAYER : params.n_gpu_layers, N_LAYER,
         ggml_backend_name(model.slots[model.output_slot].backend));

  float hidden[N_EMBD * N_TOKENS];
  float logits[N_VOCAB * N_TOKENS];
  for (int i = 0; i < N_EMBD * N_TOKENS; i++) hidden[i] = 0.1f * (float)(i % 7) - 0.3f;

  for (int il = 0; il < N_LAYER; il++) run_layer(&model, il, hidden);
  compute_output(&model, hidden, logits);

  for (int t = 0; t < N_TOKENS; t++) {
    int best = 0;
    for (int v = 1; v < N_VOCAB; v++)
      if (logits[t * N_VOCAB + v] > logits[t * N_VOCAB + best]) best = v;
    printf("token %d -> %d (%.4f)\n", t, best, (double)logits[t * N_VOCAB + best]);
  }

  for (int s = 0; s < N_SLOTS; s++) {
    ggml_gallocr_free(model.slots[s].galloc);
    if (model.slots[s].buf_w) ggml_backend_buffer_free(model.slots[s].buf_w);
    ggml_free(model.slots[s].ctx_w);
    ggml_backend_free(model.slots[s].backend);
  }
  return 0;
}
