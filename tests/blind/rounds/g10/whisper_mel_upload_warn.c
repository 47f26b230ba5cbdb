// provenance: blind round g10
// run-env: WHISPER_BACKEND=gpu
// A whisper-style streaming front end: the backend list comes from the environment
// (WHISPER_BACKEND=gpu puts the GPU first, the CPU is always last), the mel spectrogram of
// each audio window lives in a persistent tensor allocated on the first backend, and a small
// encoder runs over it through ggml_backend_sched. Uploading the mel takes a memcpy fast path
// when the state believes the mel is in host memory.
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

#define N_MEL 10
#define N_CTX 8
#define N_STATE 12
#define N_WINDOWS 3
#define HOP 20

struct stream_model {
  struct ggml_context *ctx;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *proj_w, *proj_b, *out_w;
};

struct stream_state {
  ggml_backend_t backends[2];
  int n_backends;
  ggml_backend_sched_t sched;
  struct ggml_context *ctx_mel;
  ggml_backend_buffer_t buf_mel;
  struct ggml_tensor *mel;
  bool mel_is_host;
  float host_mel[N_MEL * N_CTX];
};

static bool env_wants_gpu(void) {
  const char *v = getenv("WHISPER_BACKEND");
  return v != NULL && (strcmp(v, "gpu") == 0 || strcmp(v, "cuda") == 0);
}

static void init_backends(struct stream_state *st) {
  st->n_backends = 0;
  if (env_wants_gpu()) {
    ggml_backend_t gpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    if (gpu) st->backends[st->n_backends++] = gpu;
  }
  st->backends[st->n_backends++] = ggml_backend_cpu_init();
}

static void model_init(struct stream_model *m, ggml_backend_t backend) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 3, NULL, true};
  m->ctx = ggml_init(params);
  m->proj_w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_MEL, N_STATE);
  m->proj_b = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_STATE);
  m->out_w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_STATE, 2);
  m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
  ggml_backend_buffer_set_usage(m->buf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  float w[N_MEL * N_STATE];
  for (int i = 0; i < N_MEL * N_STATE; i++) w[i] = 0.1f * cosf((float)i);
  ggml_backend_tensor_set(m->proj_w, w, 0, ggml_nbytes(m->proj_w));
  ggml_backend_tensor_set(m->proj_b, w, 0, ggml_nbytes(m->proj_b));
  ggml_backend_tensor_set(m->out_w, w + N_STATE, 0, ggml_nbytes(m->out_w));
}

static void state_init(struct stream_state *st) {
  memset(st, 0, sizeof *st);
  init_backends(st);
  st->sched = ggml_backend_sched_new(st->backends, NULL, st->n_backends, GGML_DEFAULT_GRAPH_SIZE, false, true);

  struct ggml_init_params params = {ggml_tensor_overhead(), NULL, true};
  st->ctx_mel = ggml_init(params);
  st->mel = ggml_new_tensor_2d(st->ctx_mel, GGML_TYPE_F32, N_MEL, N_CTX);
  ggml_set_name(st->mel, "mel");
  st->buf_mel = ggml_backend_alloc_ctx_tensors(st->ctx_mel, st->backends[0]);

  /* the host fallback backend is always last in the list */
  ggml_backend_t host = st->backends[st->n_backends - 1];
  st->mel_is_host = ggml_backend_buft_is_host(ggml_backend_get_default_buffer_type(host));
  printf("mel in %s, host fast path %s\n", ggml_backend_buffer_name(st->buf_mel), st->mel_is_host ? "on" : "off");
}

static void compute_window_mel(struct stream_state *st, const float *pcm, int offset) {
  for (int t = 0; t < N_CTX; t++) {
    for (int b = 0; b < N_MEL; b++) {
      float acc = 0.0f;
      for (int k = 0; k < HOP; k++) acc += pcm[offset + t * HOP / 2 + k] * sinf(0.2f * (float)((b + 1) * k));
      st->host_mel[t * N_MEL + b] = logf(1.0f + acc * acc);
    }
  }
}

static void upload_mel(struct stream_state *st) {
  const size_t n = sizeof st->host_mel;
  if (st->mel_is_host) {
    memcpy(st->mel->data, st->host_mel, n); // expect-warning: ggml-host-access
  } else {
    ggml_backend_tensor_set(st->mel, st->host_mel, 0, n);
  }
}

static struct ggml_cgraph *build_encoder(struct ggml_context *ctx, const struct stream_model *m, struct ggml_tensor *mel) {
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *cur = ggml_add(ctx, ggml_mul_mat(ctx, m->proj_w, mel), m->proj_b);
  cur = ggml_gelu(ctx, cur);
  cur = ggml_mul_mat(ctx, m->out_w, cur); /* [2, N_CTX]: speech / no speech per frame */
  cur = ggml_soft_max(ctx, ggml_cont(ctx, cur));
  ggml_set_name(cur, "vad_probs");
  ggml_set_output(cur);
  ggml_build_forward_expand(gf, cur);
  return gf;
}

static float run_window(struct stream_state *st, const struct stream_model *m) {
  struct ggml_init_params params = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_cgraph *gf = build_encoder(ctx, m, st->mel);
  ggml_backend_sched_reset(st->sched);
  if (!ggml_backend_sched_alloc_graph(st->sched, gf)) {
    fprintf(stderr, "alloc failed\n");
    exit(1);
  }
  ggml_backend_sched_graph_compute(st->sched, gf);
  float probs[2 * N_CTX];
  ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "vad_probs"), probs, 0, sizeof probs);
  ggml_free(ctx);
  float speech = 0.0f;
  for (int t = 0; t < N_CTX; t++) speech += probs[2 * t];
  return speech / N_CTX;
}

int main(void) {
  static struct stream_state st;
  static struct stream_model model;
  state_init(&st);
  model_init(&model, st.backends[0]);

  float pcm[N_WINDOWS * N_CTX * HOP + HOP * N_CTX];
  const int n_pcm = (int)(sizeof pcm / sizeof pcm[0]);
  for (int i = 0; i < n_pcm; i++) pcm[i] = 0.5f * sinf(0.031f * (float)i) + 0.1f * cosf(0.7f * (float)i);

  for (int w = 0; w < N_WINDOWS; w++) {
    compute_window_mel(&st, pcm, w * N_CTX * HOP / 2);
    upload_mel(&st);
    const float p = run_window(&st, &model);
    printf("window %d: p(speech) = %.3f%s\n", w, (double)p, p > 0.5f ? " [speech]" : "");
  }

  ggml_backend_sched_free(st.sched);
  ggml_backend_buffer_free(st.buf_mel);
  ggml_free(st.ctx_mel);
  ggml_backend_buffer_free(model.buf);
  ggml_free(model.ctx);
  for (int i = 0; i < st.n_backends; i++) ggml_backend_free(st.backends[i]);
  return 0;
}
