// whisper.cpp-style front end in two stages: the mel filterbank (its filters kept in a CPU
// buffer) is computed on the CPU backend, then the encoder stem (two projection layers whose
// weights live in a GPU buffer) is computed from the mel.
// The mistake: the stem's graph is allocated with the GPU gallocr but handed to
// run_graph() with the state's CPU backend (copied from the mel stage), so the CPU kernels
// read GPU memory: the weights and the GPU-allocated inputs.
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

#define N_FFT_BINS 32
#define N_MEL 16
#define N_FRAMES 24
#define N_STATE 32

struct whisper_model {
    struct ggml_context *ctx_gpu;
    struct ggml_context *ctx_cpu;
    ggml_backend_buffer_t buf_gpu;
    ggml_backend_buffer_t buf_cpu;
    struct ggml_tensor *mel_filters; /* CPU */
    struct ggml_tensor *stem0_w, *stem0_b, *stem1_w, *stem1_b; /* GPU */
};

struct whisper_state {
    ggml_backend_t backend_gpu;
    ggml_backend_t backend_cpu;
    ggml_gallocr_t alloc_gpu;
    ggml_gallocr_t alloc_cpu;
    float mel[N_MEL * N_FRAMES];
};

static struct ggml_context *new_meta_ctx(size_t n_tensors, size_t graph) {
    struct ggml_init_params ip = {
        .mem_size = ggml_tensor_overhead() * n_tensors + (graph ? ggml_graph_overhead() : 0),
        .mem_buffer = NULL,
        .no_alloc = true,
    };
    return ggml_init(ip);
}

static void fill_tensor(struct ggml_tensor *t, float scale) {
    int64_t n = ggml_nelements(t);
    float *tmp = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; i++) tmp[i] = scale * (float)((i * 7 + 3) % 11 - 5) / 11.0f;
    ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
    free(tmp);
}

static void model_load(struct whisper_model *m, struct whisper_state *s) {
    m->ctx_cpu = new_meta_ctx(1, 0);
    m->mel_filters = ggml_new_tensor_2d(m->ctx_cpu, GGML_TYPE_F32, N_FFT_BINS, N_MEL);
    ggml_set_name(m->mel_filters, "mel_filters");
    m->buf_cpu = ggml_backend_alloc_ctx_tensors(m->ctx_cpu, s->backend_cpu);

    m->ctx_gpu = new_meta_ctx(4, 0);
    m->stem0_w = ggml_new_tensor_2d(m->ctx_gpu, GGML_TYPE_F32, N_MEL, N_STATE);
    m->stem0_b = ggml_new_tensor_1d(m->ctx_gpu, GGML_TYPE_F32, N_STATE);
    m->stem1_w = ggml_new_tensor_2d(m->ctx_gpu, GGML_TYPE_F32, N_STATE, N_STATE);
    m->stem1_b = ggml_new_tensor_1d(m->ctx_gpu, GGML_TYPE_F32, N_STATE);
    m->buf_gpu = ggml_backend_alloc_ctx_tensors(m->ctx_gpu, s->backend_gpu);
    ggml_backend_buffer_set_usage(m->buf_gpu, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);

    fill_tensor(m->mel_filters, 1.0f);
    fill_tensor(m->stem0_w, 0.5f);
    fill_tensor(m->stem0_b, 0.1f);
    fill_tensor(m->stem1_w, 0.25f);
    fill_tensor(m->stem1_b, 0.1f);
}

static void run_graph(ggml_gallocr_t alloc, ggml_backend_t backend, struct ggml_cgraph *gf,
                      const char *inp_name, const float *inp, size_t inp_size) {
    if (!ggml_gallocr_alloc_graph(alloc, gf)) {
        fprintf(stderr, "failed to allocate graph\n");
        exit(1);
    }
    struct ggml_tensor *in = ggml_graph_get_tensor(gf, inp_name);
    ggml_backend_tensor_set(in, inp, 0, inp_size);
    ggml_backend_graph_compute(backend, gf); // expect-error: ggml-backend-mismatch
}

static void compute_mel(struct whisper_model *m, struct whisper_state *s, const float *spec) {
    struct ggml_context *ctx = new_meta_ctx(16, 1);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *power = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_FFT_BINS, N_FRAMES);
    ggml_set_name(power, "power");
    ggml_set_input(power);
    struct ggml_tensor *mel = ggml_mul_mat(ctx, m->mel_filters, power);
    mel = ggml_log(ctx, ggml_clamp(ctx, mel, 1e-6f, 1e6f));
    ggml_set_name(mel, "mel");
    ggml_set_output(mel);
    ggml_build_forward_expand(gf, mel);

    run_graph(s->alloc_cpu, s->backend_cpu, gf, "power", spec,
              sizeof(float) * N_FFT_BINS * N_FRAMES);
    /* the mel is in a CPU buffer: read it in place */
    memcpy(s->mel, ggml_graph_get_tensor(gf, "mel")->data, sizeof s->mel);
    ggml_free(ctx);
}

static float encode_stem(struct whisper_model *m, struct whisper_state *s) {
    struct ggml_context *ctx = new_meta_ctx(32, 1);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *mel = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_MEL, N_FRAMES);
    ggml_set_name(mel, "mel_in");
    ggml_set_input(mel);
    struct ggml_tensor *cur = ggml_add(ctx, ggml_mul_mat(ctx, m->stem0_w, mel), m->stem0_b);
    cur = ggml_gelu(ctx, cur);
    cur = ggml_add(ctx, ggml_mul_mat(ctx, m->stem1_w, cur), m->stem1_b);
    cur = ggml_gelu(ctx, cur);
    ggml_set_name(cur, "stem_out");
    ggml_set_output(cur);
    ggml_build_forward_expand(gf, cur);

    /* same helper as the mel stage: */
    run_graph(s->alloc_gpu, s->backend_cpu, gf, "mel_in", s->mel, sizeof s->mel);

    float out[N_STATE * N_FRAMES];
    ggml_backend_tensor_get(cur, out, 0, sizeof out);
    float sum = 0.0f;
    for (int i = 0; i < N_STATE * N_FRAMES; i++) sum += out[i];
    ggml_free(ctx);
    return sum;
}

int main(void) {
    struct whisper_state s;
    memset(&s, 0, sizeof s);
    s.backend_gpu = ggml_backend_cuda_init(0);
    s.backend_cpu = ggml_backend_cpu_init();
    if (!s.backend_gpu || !s.backend_cpu) return 1;
    ggml_backend_cpu_set_n_threads(s.backend_cpu, 1);
    s.alloc_gpu = ggml_gallocr_new(ggml_backend_get_default_buffer_type(s.backend_gpu));
    s.alloc_cpu = ggml_gallocr_new(ggml_backend_get_default_buffer_type(s.backend_cpu));

    struct whisper_model m;
    model_load(&m, &s);

    float spec[N_FFT_BINS * N_FRAMES];
    for (int i = 0; i < N_FFT_BINS * N_FRAMES; i++) spec[i] = 0.01f + (float)(i % 13) / 13.0f;
    compute_mel(&m, &s, spec);
    float sum = encode_stem(&m, &s);
    printf("stem checksum %.4f\n", sum);

    ggml_gallocr_free(s.alloc_gpu);
    ggml_gallocr_free(s.alloc_cpu);
    ggml_backend_buffer_free(m.buf_gpu);
    ggml_backend_buffer_free(m.buf_cpu);
    ggml_free(m.ctx_gpu);
    ggml_free(m.ctx_cpu);
    ggml_backend_free(s.backend_gpu);
    ggml_backend_free(s.backend_cpu);
    return 0;
}
