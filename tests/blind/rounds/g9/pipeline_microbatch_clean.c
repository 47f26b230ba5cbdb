// provenance: blind round g9
// Pipeline parallelism over the two emulated GPUs: the blocks of a residual MLP stack are
// cut into stages (two by default, one with --single-gpu), each stage owns its weights, a
// persistent input and output activation on its own device and a gallocr; microbatches flow
// stage to stage through device-to-device ggml_backend_tensor_copy, and only the last
// stage's output is read back to the host.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_EMBD 32
#define N_FF 96
#define N_LAYER 6
#define MAX_STAGES 2
#define MICRO_BATCH 4
#define N_MICRO 3

struct layer {
  int stage;
  struct ggml_tensor *norm, *up, *down;
};

struct stage {
  ggml_backend_t backend;
  struct ggml_context *ctx_w, *ctx_io;
  ggml_backend_buffer_t buf_w, buf_io;
  struct ggml_tensor *in, *out;
  ggml_gallocr_t galloc;
  int n_layers;
};

struct pipeline {
  int n_stages;
  struct stage st[MAX_STAGES];
  struct layer layers[N_LAYER];
};

static int parse_stages(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--single-gpu") == 0) return 1;
  return MAX_STAGES;
}

static void randomize(struct ggml_tensor *t, uint32_t seed) {
  int64_t n = ggml_nelements(t);
  float *f = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    f[i] = ((float)(seed % 20000) / 20000.0f - 0.5f) * 0.25f;
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

static int pipeline_init(struct pipeline *pp, int n_stages) {
  memset(pp, 0, sizeof *pp);
  pp->n_stages = n_stages;
  for (int s = 0; s < n_stages; s++) {
    struct stage *st = &pp->st[s];
    st->backend = ggml_backend_cuda_init(s);
    if (!st->backend) return 0;
    struct ggml_init_params pw = {ggml_tensor_overhead() * 3 * N_LAYER, NULL, true};
    struct ggml_init_params pio = {ggml_tensor_overhead() * 2, NULL, true};
    st->ctx_w = ggml_init(pw);
    st->ctx_io = ggml_init(pio);
    st->in = ggml_new_tensor_2d(st->ctx_io, GGML_TYPE_F32, N_EMBD, MICRO_BATCH);
    st->out = ggml_new_tensor_2d(st->ctx_io, GGML_TYPE_F32, N_EMBD, MICRO_BATCH);
    ggml_format_name(st->in, "stage%d.in", s);
    ggml_format_name(st->out, "stage%d.out", s);
  }
  /* contiguous blocks: stage s gets layers [s*N/n, (s+1)*N/n) */
  for (int il = 0; il < N_LAYER; il++) {
    struct layer *l = &pp->layers[il];
    l->stage = il * n_stages / N_LAYER;
    struct stage *st = &pp->st[l->stage];
    l->norm = ggml_new_tensor_1d(st->ctx_w, GGML_TYPE_F32, N_EMBD);
    l->up = ggml_new_tensor_2d(st->ctx_w, GGML_TYPE_F16, N_EMBD, N_FF);
    l->down = ggml_new_tensor_2d(st->ctx_w, GGML_TYPE_F16, N_FF, N_EMBD);
    st->n_layers++;
  }
  for (int s = 0; s < n_stages; s++) {
    struct stage *st = &pp->st[s];
    st->buf_w = ggml_backend_alloc_ctx_tensors(st->ctx_w, st->backend);
    st->buf_io = ggml_backend_alloc_ctx_tensors(st->ctx_io, st->backend);
    if (!st->buf_w || !st->buf_io) return 0;
    st->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(st->backend));
  }
  for (int il = 0; il < N_LAYER; il++) {
    randomize(pp->layers[il].norm, 100u + (uint32_t)il);
    randomize(pp->layers[il].up, 200u + (uint32_t)il);
    randomize(pp->layers[il].down, 300u + (uint32_t)il);
  }
  return 1;
}

/* runs stage s on whatever is in its input, leaving the result in its output */
static int stage_forward(struct pipeline *pp, int s) {
  struct stage *st = &pp->st[s];
  struct ggml_init_params p = {ggml_tensor_overhead() * 128 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *x = st->in;
  for (int il = 0; il < N_LAYER; il++) {
    const struct layer *l = &pp->layers[il];
    if (l->stage != s) continue;
    struct ggml_tensor *h = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-5f), l->norm);
    h = ggml_mul_mat(ctx, l->down, ggml_gelu(ctx, ggml_mul_mat(ctx, l->up, h)));
    x = ggml_add(ctx, x, h);
  }
  ggml_build_forward_expand(gf, ggml_cpy(ctx, x, st->out));
  int ok = ggml_gallocr_alloc_graph(st->galloc, gf) && ggml_backend_graph_compute(st->backend, gf) == GGML_STATUS_SUCCESS;
  ggml_free(ctx);
  return ok;
}

/* one microbatch through every stage; out: N_EMBD * MICRO_BATCH floats */
static int pipeline_run(struct pipeline *pp, const float *in, float *out) {
  ggml_backend_tensor_set(pp->st[0].in, in, 0, ggml_nbytes(pp->st[0].in));
  for (int s = 0; s < pp->n_stages; s++) {
    if (!stage_forward(pp, s)) return 0;
    if (s + 1 < pp->n_stages) ggml_backend_tensor_copy(pp->st[s].out, pp->st[s + 1].in);
  }
  struct stage *last = &pp->st[pp->n_stages - 1];
  ggml_backend_tensor_get(last->out, out, 0, ggml_nbytes(last->out));
  return 1;
}

static void pipeline_free(struct pipeline *pp) {
  for (int s = 0; s < pp->n_stages; s++) {
    struct stage *st = &pp->st[s];
    ggml_gallocr_free(st->galloc);
    ggml_backend_buffer_free(st->buf_io);
    ggml_backend_buffer_free(st->buf_w);
    ggml_free(st->ctx_io);
    ggml_free(st->ctx_w);
    ggml_backend_free(st->backend);
  }
}

int main(int argc, char **argv) {
  struct pipeline pp;
  if (!pipeline_init(&pp, parse_stages(argc, argv))) return 1;
  for (int s = 0; s < pp.n_stages; s++)
    printf("stage %d on %s: %d layers\n", s, ggml_backend_name(pp.st[s].backend), pp.st[s].n_layers);

  float in[N_EMBD * MICRO_BATCH], out[N_EMBD * MICRO_BATCH];
  for (int mb = 0; mb < N_MICRO; mb++) {
    for (int i = 0; i < N_EMBD * MICRO_BATCH; i++) in[i] = cosf(0.2f * (float)(i + 31 * mb));
    if (!pipeline_run(&pp, in, out)) return 1;
    double norm = 0.0;
    for (int i = 0; i < N_EMBD * MICRO_BATCH; i++) norm += (double)out[i] * out[i];
    printf("microbatch %d: |out| = %.5f\n", mb, sqrt(norm));
  }
  pipeline_free(&pp);
  return 0;
}
