// provenance: blind round g9
// A recurrent (RWKV/Mamba-like) cell whose state lives on CUDA0 across steps, fed through
// pinned host buffers (ggml_backend_cuda_host_buffer_type): each step's input is written
// straight into the pinned tensor, the graph on the GPU reads it there, and results and
// state snapshots come back into pinned tensors with ggml_backend_tensor_copy and are read
// directly on the host. A speculative rollback restores the state from a snapshot.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_IN 16
#define N_STATE 32
#define N_OUT 8
#define N_STEPS 8

struct rnn_model {
  ggml_backend_t gpu;
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *w_s, *w_x, *b, *w_out;
};

struct rnn_state {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *s; /* [N_STATE] on the device */
};

/* pinned host memory the GPU can read and ggml_backend_tensor_copy can fill */
struct staging {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *x, *y, *snap;
};

static void fill(struct ggml_tensor *t, float scale, uint32_t seed) {
  int64_t n = ggml_nelements(t);
  float *v = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    v[i] = ((float)(seed >> 16) / 65536.0f - 0.5f) * scale;
  }
  ggml_backend_tensor_set(t, v, 0, ggml_nbytes(t));
  free(v);
}

static struct ggml_context *ctx_for(int n) {
  struct ggml_init_params p = {ggml_tensor_overhead() * (size_t)n, NULL, true};
  return ggml_init(p);
}

static int model_init(struct rnn_model *m) {
  m->gpu = ggml_backend_cuda_init(0);
  if (!m->gpu) return 0;
  m->ctx = ctx_for(4);
  m->w_s = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_STATE, N_STATE);
  m->w_x = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_IN, N_STATE);
  m->b = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_STATE);
  m->w_out = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_STATE, N_OUT);
  m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->gpu);
  if (!m->buf) return 0;
  fill(m->w_s, 0.5f, 1);
  fill(m->w_x, 0.8f, 2);
  fill(m->b, 0.1f, 3);
  fill(m->w_out, 0.6f, 4);
  return 1;
}

static int state_init(struct rnn_state *st, ggml_backend_t gpu) {
  st->ctx = ctx_for(1);
  st->s = ggml_new_tensor_1d(st->ctx, GGML_TYPE_F32, N_STATE);
  ggml_set_name(st->s, "rnn_state");
  st->buf = ggml_backend_alloc_ctx_tensors(st->ctx, gpu);
  if (!st->buf) return 0;
  ggml_backend_buffer_clear(st->buf, 0);
  return 1;
}

static int staging_init(struct staging *sg) {
  sg->ctx = ctx_for(3);
  sg->x = ggml_new_tensor_1d(sg->ctx, GGML_TYPE_F32, N_IN);
  sg->y = ggml_new_tensor_1d(sg->ctx, GGML_TYPE_F32, N_OUT);
  sg->snap = ggml_new_tensor_1d(sg->ctx, GGML_TYPE_F32, N_STATE);
  ggml_set_name(sg->x, "x_pinned");
  sg->buf = ggml_backend_alloc_ctx_tensors_from_buft(sg->ctx, ggml_backend_cuda_host_buffer_type());
  return sg->buf != NULL && ggml_backend_buffer_is_host(sg->buf);
}

/* the host view of a tensor, or NULL when its memory is not the host's */
static float *host_f32(struct ggml_tensor *t) {
  ggml_backend_buffer_t b = t->view_src ? t->view_src->buffer : t->buffer;
  if (!b || !ggml_backend_buffer_is_host(b) || t->type != GGML_TYPE_F32) return NULL;
  return (float *)t->data;
}

static void make_input(struct staging *sg, int step) {
  float *x = host_f32(sg->x);
  if (x) {
    for (int i = 0; i < N_IN; i++) x[i] = sinf(0.5f * (float)step + 0.3f * (float)i);
  } else {
    float tmp[N_IN];
    for (int i = 0; i < N_IN; i++) tmp[i] = sinf(0.5f * (float)step + 0.3f * (float)i);
    ggml_backend_tensor_set(sg->x, tmp, 0, sizeof tmp);
  }
}

/* s <- tanh(W_s s + W_x x + b); y = W_out s; y ends up in the pinned sg->y */
static int step(struct rnn_model *m, struct rnn_state *st, struct staging *sg, ggml_gallocr_t galloc) {
  struct ggml_init_params p = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *pre = ggml_add(ctx, ggml_mul_mat(ctx, m->w_s, st->s), ggml_mul_mat(ctx, m->w_x, sg->x));
  struct ggml_tensor *s_new = ggml_tanh(ctx, ggml_add(ctx, pre, m->b));
  struct ggml_tensor *y = ggml_mul_mat(ctx, m->w_out, s_new);
  ggml_set_output(y);
  ggml_build_forward_expand(gf, y);
  ggml_build_forward_expand(gf, ggml_cpy(ctx, s_new, st->s));
  int ok = ggml_gallocr_alloc_graph(galloc, gf) && ggml_backend_graph_compute(m->gpu, gf) == GGML_STATUS_SUCCESS;
  if (ok) ggml_backend_tensor_copy(y, sg->y);
  ggml_free(ctx);
  return ok;
}

static float checksum(struct ggml_tensor *t) {
  const float *v = host_f32(t);
  float tmp[N_STATE];
  if (!v) {
    ggml_backend_tensor_get(t, tmp, 0, ggml_nbytes(t));
    v = tmp;
  }
  float s = 0.0f;
  for (int64_t i = 0; i < ggml_nelements(t); i++) s += v[i] * (float)(i + 1);
  return s;
}

int main(void) {
  struct rnn_model m;
  struct rnn_state st;
  struct staging sg;
  if (!model_init(&m) || !state_init(&st, m.gpu) || !staging_init(&sg)) return 1;
  ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.gpu));

  float first_pass[N_STEPS][N_OUT];
  int snap_step = -1;
  for (int t = 0; t < N_STEPS; t++) {
    if (t % 3 == 0) {
      ggml_backend_tensor_copy(st.s, sg.snap);
      snap_step = t;
    }
    make_input(&sg, t);
    if (!step(&m, &st, &sg, galloc)) return 1;
    memcpy(first_pass[t], sg.y->data, sizeof first_pass[t]);
    printf("t=%d y0=% .5f state=% .5f snap=% .5f\n", t, (double)host_f32(sg.y)[0], (double)checksum(st.s), (double)checksum(sg.snap));
  }

  /* rejected draft: roll back to the last snapshot and replay */
  ggml_backend_tensor_copy(sg.snap, st.s);
  int mismatches = 0;
  for (int t = snap_step; t < N_STEPS; t++) {
    make_input(&sg, t);
    if (!step(&m, &st, &sg, galloc)) return 1;
    const float *y = host_f32(sg.y);
    for (int i = 0; i < N_OUT; i++) mismatches += fabsf(y[i] - first_pass[t][i]) > 1e-5f;
  }
  printf("replay from step %d: %d mismatches\n", snap_step, mismatches);

  ggml_gallocr_free(galloc);
  ggml_backend_buffer_free(sg.buf);
  ggml_free(sg.ctx);
  ggml_backend_buffer_free(st.buf);
  ggml_free(st.ctx);
  ggml_backend_buffer_free(m.buf);
  ggml_free(m.ctx);
  ggml_backend_free(m.gpu);
  return mismatches == 0 ? 0 : 2;
}
