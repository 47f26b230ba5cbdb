// Streaming audio front end (whisper-stream style): PCM frames arrive one by one into a ring
// of frames kept in a backend tensor; a cheap energy VAD decides whether a window of frames is
// speech, and speech windows are turned into filterbank features by a graph that reads the
// window straight out of the ring through a view. The ring lives in pinned host memory;
// STREAM_RING=device keeps it in device memory instead, to skip the upload.
// run-env: STREAM_RING=device
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"

#define FRAME 32    // samples per frame
#define N_RING 16   // frames in the ring
#define WINDOW 4    // frames per feature window
#define N_MEL 8

struct stream {
    ggml_backend_dev_t dev;
    ggml_backend_t backend;
    struct ggml_context *ctx;
    ggml_backend_buffer_t ring_buf, model_buf;
    struct ggml_tensor *ring;     // [FRAME, N_RING]
    struct ggml_tensor *filters;  // [FRAME, N_MEL]
    ggml_gallocr_t galloc;
    int head;                     // frames written so far
};

static ggml_backend_buffer_type_t ring_buffer_type(ggml_backend_dev_t dev) {
    const char *where = getenv("STREAM_RING");
    if (where && strcmp(where, "device") == 0) return ggml_backend_dev_buffer_type(dev);
    ggml_backend_buffer_type_t host = ggml_backend_dev_host_buffer_type(dev);
    return host ? host : ggml_backend_cpu_buffer_type();
}

static int stream_open(struct stream *s) {
    s->dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!s->dev) s->dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    s->backend = ggml_backend_dev_init(s->dev, NULL);
    struct ggml_init_params ip = {ggml_tensor_overhead() * 2, NULL, true};
    s->ctx = ggml_init(ip);
    s->ring = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, FRAME, N_RING);
    s->filters = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, FRAME, N_MEL);
    ggml_set_name(s->ring, "pcm_ring");
    s->ring_buf = ggml_backend_buft_alloc_buffer(ring_buffer_type(s->dev), ggml_nbytes(s->ring) + 256);
    s->model_buf = ggml_backend_alloc_buffer(s->backend, ggml_nbytes(s->filters) + 256);
    struct ggml_tallocr ta = ggml_tallocr_new(s->ring_buf);
    struct ggml_tallocr tb = ggml_tallocr_new(s->model_buf);
    if (ggml_tallocr_alloc(&ta, s->ring) != GGML_STATUS_SUCCESS) return 1;
    if (ggml_tallocr_alloc(&tb, s->filters) != GGML_STATUS_SUCCESS) return 1;
    float fb[FRAME * N_MEL];
    for (int m = 0; m < N_MEL; m++)
        for (int i = 0; i < FRAME; i++)
            fb[m * FRAME + i] = expf(-0.5f * powf(((float)i - 4.0f * (float)m) / 3.0f, 2.0f));
    ggml_backend_tensor_set(s->filters, fb, 0, sizeof fb);
    ggml_backend_buffer_clear(s->ring_buf, 0);
    s->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(s->backend));
    s->head = 0;
    return 0;
}

static void ring_push(struct stream *s, const float *pcm) {
    size_t off = (size_t)(s->head % N_RING) * s->ring->nb[1];
    if (ggml_backend_buffer_is_host(s->ring_buf)) memcpy((char *)s->ring->data + off, pcm, FRAME * sizeof(float));
    else ggml_backend_tensor_set(s->ring, pcm, off, FRAME * sizeof(float));
    s->head++;
}

// mean energy of the WINDOW frames ending at the newest one
static float vad_energy(const struct stream *s) {
    int first = (s->head - WINDOW) % N_RING;
    const float *pcm = (const float *)s->ring->data + (size_t)first * FRAME;
    double e = 0.0;
    for (int i = 0; i < WINDOW * FRAME; i++) e += (double)pcm[i] * pcm[i]; // expect-warning: ggml-host-access
    return (float)(e / (WINDOW * FRAME));
}

static int window_features(struct stream *s, float *mel) {
    int first = (s->head - WINDOW) % N_RING;
    struct ggml_init_params ip = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *win = ggml_view_2d(ctx, s->ring, FRAME, WINDOW, s->ring->nb[1], (size_t)first * s->ring->nb[1]);
    struct ggml_tensor *pw = ggml_sqr(ctx, win);
    struct ggml_tensor *bands = ggml_mul_mat(ctx, s->filters, pw);        // [N_MEL, WINDOW]
    struct ggml_tensor *logmel = ggml_log(ctx, ggml_scale_bias(ctx, bands, 1.0f, 1e-6f));
    ggml_set_output(logmel);
    ggml_build_forward_expand(gf, logmel);
    ggml_gallocr_alloc_graph(s->galloc, gf);
    int ok = ggml_backend_graph_compute(s->backend, gf) == GGML_STATUS_SUCCESS;
    if (ok) ggml_backend_tensor_get(logmel, mel, 0, ggml_nbytes(logmel));
    ggml_free(ctx);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int n_frames = argc > 1 ? atoi(argv[1]) : 24;
    float threshold = 1e-3f;
    if (n_frames < WINDOW || n_frames > 4096) n_frames = 24;
    struct stream s;
    if (stream_open(&s)) return 1;
    printf("stream: %s, ring in %s\n", ggml_backend_dev_name(s.dev), ggml_backend_buffer_name(s.ring_buf));

    int n_speech = 0, n_windows = 0;
    float mel[N_MEL * WINDOW];
    for (int f = 0; f < n_frames; f++) {
        float pcm[FRAME];
        float amp = (f / 6) % 2 ? 0.3f : 0.001f; // speech and silence in turns
        for (int i = 0; i < FRAME; i++) pcm[i] = amp * sinf(0.4f * (float)(f * FRAME + i));
        ring_push(&s, pcm);
        if (s.head % WINDOW != 0) continue;
        n_windows++;
        float e = vad_energy(&s);
        if (e < threshold) continue;
        if (window_features(&s, mel)) return 1;
        n_speech++;
        printf("stream: window %d speech, energy %.4f, mel[0] %.3f\n", n_windows, e, mel[0]);
    }
    printf("stream: %d of %d windows were speech\n", n_speech, n_windows);

    ggml_gallocr_free(s.galloc);
    ggml_backend_buffer_free(s.ring_buf);
    ggml_backend_buffer_free(s.model_buf);
    ggml_free(s.ctx);
    ggml_backend_free(s.backend);
    return 0;
}
