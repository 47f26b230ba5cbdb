// Whisper-style encoder front end: log-mel features of a synthetic tone, two conv1d layers
// with GELU, mean-pooled state. Weights and the mel input live on the first GPU of the
// registry; the input is still written element by element with the CPU accessor.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_MEL 16
#define N_FFT 64
#define HOP 32
#define N_STATE 24

struct whisper_encoder {
    struct ggml_context *ctx_w;   // weights
    struct ggml_context *ctx_in;  // input features
    ggml_backend_buffer_t buf_w, buf_in;
    ggml_backend_t backend;
    struct ggml_tensor *conv1_w, *conv1_b, *conv2_w, *conv2_b;
    struct ggml_tensor *mel;
    int n_frames;
};

struct mel_spec {
    int n_frames;
    float *data; // [n_mel][n_frames]
};

static void compute_mel(const float *pcm, int n_samples, struct mel_spec *out) {
    out->n_frames = (n_samples - N_FFT) / HOP + 1;
    out->data = calloc((size_t) N_MEL * out->n_frames, sizeof(float));
    for (int f = 0; f < out->n_frames; f++) {
        const float *frame = pcm + f * HOP;
        for (int b = 0; b < N_MEL; b++) {
            // two DFT bins per mel band, no window: enough for a test signal
            float power = 0.0f;
            for (int k = 2 * b; k < 2 * b + 2; k++) {
                float re = 0.0f, im = 0.0f;
                for (int n = 0; n < N_FFT; n++) {
                    float ang = -2.0f * 3.14159265f * k * n / N_FFT;
                    re += frame[n] * cosf(ang);
                    im += frame[n] * sinf(ang);
                }
                power += re * re + im * im;
            }
            out->data[b * out->n_frames + f] = log10f(power + 1e-10f);
        }
    }
}

static ggml_backend_dev_t first_gpu(void) {
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        if (ggml_backend_dev_type(dev) == GGML_BACKEND_DEVICE_TYPE_GPU) return dev;
    }
    return NULL;
}

static void fill_const(struct ggml_tensor *t, float v) {
    int64_t n = ggml_nelements(t);
    if (t->type == GGML_TYPE_F16) {
        ggml_fp16_t *h = malloc(n * sizeof(ggml_fp16_t));
        for (int64_t i = 0; i < n; i++) h[i] = ggml_fp32_to_fp16(v * (float) ((i % 5) - 2));
        ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
        free(h);
    } else {
        float *h = malloc(n * sizeof(float));
        for (int64_t i = 0; i < n; i++) h[i] = v;
        ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
        free(h);
    }
}

static int encoder_init(struct whisper_encoder *enc, ggml_backend_dev_t dev, int n_frames) {
    enc->backend = ggml_backend_dev_init(dev, NULL);
    if (!enc->backend) return -1;
    struct ggml_init_params ip = { 8 * ggml_tensor_overhead(), NULL, true };
    enc->ctx_w = ggml_init(ip);
    enc->conv1_w = ggml_new_tensor_3d(enc->ctx_w, GGML_TYPE_F16, 3, N_MEL, N_STATE);
    enc->conv1_b = ggml_new_tensor_2d(enc->ctx_w, GGML_TYPE_F32, 1, N_STATE);
    enc->conv2_w = ggml_new_tensor_3d(enc->ctx_w, GGML_TYPE_F16, 3, N_STATE, N_STATE);
    enc->conv2_b = ggml_new_tensor_2d(enc->ctx_w, GGML_TYPE_F32, 1, N_STATE);
    enc->buf_w = ggml_backend_alloc_ctx_tensors_from_buft(enc->ctx_w, ggml_backend_dev_buffer_type(dev));
    if (!enc->buf_w) return -1;
    fill_const(enc->conv1_w, 0.05f);
    fill_const(enc->conv1_b, 0.01f);
    fill_const(enc->conv2_w, 0.03f);
    fill_const(enc->conv2_b, -0.01f);

    enc->n_frames = n_frames;
    enc->ctx_in = ggml_init(ip);
    enc->mel = ggml_new_tensor_2d(enc->ctx_in, GGML_TYPE_F32, n_frames, N_MEL);
    ggml_set_name(enc->mel, "mel");
    enc->buf_in = ggml_backend_alloc_ctx_tensors_from_buft(enc->ctx_in, ggml_backend_dev_buffer_type(dev));
    return enc->buf_in ? 0 : -1;
}

// normalise like whisper: clamp to (max - 8), then (x + 4) / 4
static void fill_mel(struct ggml_tensor *dst, const struct mel_spec *mel) {
    float mmax = -1e20f;
    for (int i = 0; i < N_MEL * mel->n_frames; i++) mmax = fmaxf(mmax, mel->data[i]);
    for (int b = 0; b < N_MEL; b++) {
        for (int f = 0; f < mel->n_frames; f++) {
            float v = fmaxf(mel->data[b * mel->n_frames + f], mmax - 8.0f);
            ggml_set_f32_nd(dst, f, b, 0, 0, (v + 4.0f) / 4.0f); // expect-error: ggml-host-access
        }
    }
}

static void encoder_set_input(struct whisper_encoder *enc, const struct mel_spec *mel) {
    fill_mel(enc->mel, mel);
}

static struct ggml_cgraph *build_encoder(struct whisper_encoder *enc, struct ggml_context *ctx0) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx0);
    struct ggml_tensor *cur = ggml_conv_1d_ph(ctx0, enc->conv1_w, enc->mel, 1, 1);
    cur = ggml_gelu(ctx0, ggml_add(ctx0, cur, enc->conv1_b));
    cur = ggml_conv_1d_ph(ctx0, enc->conv2_w, cur, 2, 1);
    cur = ggml_gelu(ctx0, ggml_add(ctx0, cur, enc->conv2_b));
    // [n_ctx, n_state] -> mean over time
    struct ggml_tensor *pooled = ggml_mean(ctx0, cur);
    ggml_set_name(pooled, "pooled");
    ggml_build_forward_expand(gf, pooled);
    return gf;
}

static int run_encoder(struct whisper_encoder *enc, const struct mel_spec *mel, float *state) {
    encoder_set_input(enc, mel);

    struct ggml_init_params ip = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true };
    struct ggml_context *ctx0 = ggml_init(ip);
    struct ggml_cgraph *gf = build_encoder(enc, ctx0);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(enc->backend));
    int rc = -1;
    if (ggml_gallocr_alloc_graph(ga, gf) && ggml_backend_graph_compute(enc->backend, gf) == GGML_STATUS_SUCCESS) {
        struct ggml_tensor *pooled = ggml_graph_get_tensor(gf, "pooled");
        ggml_backend_tensor_get(pooled, state, 0, ggml_nbytes(pooled));
        rc = 0;
    }
    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    return rc;
}

int main(void) {
    const int sr = 4000, n_samples = sr / 4;
    float *pcm = malloc(sizeof(float) * n_samples);
    for (int i = 0; i < n_samples; i++) pcm[i] = 0.5f * sinf(2.0f * 3.14159265f * 440.0f * i / sr);

    struct mel_spec mel;
    compute_mel(pcm, n_samples, &mel);
    printf("mel: %d frames x %d bands\n", mel.n_frames, N_MEL);

    ggml_backend_dev_t dev = first_gpu();
    if (!dev) {
        fprintf(stderr, "no GPU\n");
        return 1;
    }
    struct whisper_encoder enc;
    memset(&enc, 0, sizeof enc);
    if (encoder_init(&enc, dev, mel.n_frames) != 0) {
        fprintf(stderr, "encoder init failed\n");
        return 1;
    }

    float state[N_STATE];
    if (run_encoder(&enc, &mel, state) != 0) {
        fprintf(stderr, "encode failed\n");
        return 1;
    }
    for (int i = 0; i < N_STATE; i++) printf("%.3f ", state[i]);
    printf("\n");

    ggml_backend_buffer_free(enc.buf_in);
    ggml_backend_buffer_free(enc.buf_w);
    ggml_free(enc.ctx_in);
    ggml_free(enc.ctx_w);
    ggml_backend_free(enc.backend);
    free(mel.data);
    free(pcm);
    return 0;
}
