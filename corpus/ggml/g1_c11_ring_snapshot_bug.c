// corpus/ggml/g1_c11_ring_snapshot_bug.c — from blind round g1 (c11_ring_snapshot_bug.c, labelled by running it on real ggml and the emulated GPU): a streaming feature extractor keeps the last N_SLOTS frames in a
// ring buffer tensor on the GPU; each step's graph writes the new frame into a view of the
// ring. The checkpoint helper snapshots the ring through ggml_backend_buffer_get_base, and
// the voice-activity check reads the newest frame through its view's data pointer: both are
// host reads of device memory.
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#define N_SAMPLES 32
#define N_MEL     8
#define N_SLOTS   4

struct stream_state {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor * mel_fb;   // [N_SAMPLES, N_MEL]
    struct ggml_tensor * ring;     // [N_MEL, N_SLOTS]
    int head;
    int n_seen;
};

static void state_init(struct stream_state * st, ggml_backend_t backend) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 2, NULL, true };
    st->ctx = ggml_init(p);
    st->mel_fb = ggml_new_tensor_2d(st->ctx, GGML_TYPE_F32, N_SAMPLES, N_MEL);
    st->ring = ggml_new_tensor_2d(st->ctx, GGML_TYPE_F32, N_MEL, N_SLOTS);
    ggml_set_name(st->ring, "ring");
    st->buf = ggml_backend_alloc_ctx_tensors(st->ctx, backend);
    ggml_backend_buffer_clear(st->buf, 0);

    float fb[N_SAMPLES * N_MEL];
    for (int m = 0; m < N_MEL; m++) {
        for (int s = 0; s < N_SAMPLES; s++) {
            float c = (float)(m + 1) * (float) N_SAMPLES / (N_MEL + 1);
            fb[m * N_SAMPLES + s] = fmaxf(0.0f, 1.0f - fabsf((float) s - c) / 4.0f);
        }
    }
    ggml_backend_tensor_set(st->mel_fb, fb, 0, sizeof(fb));
    st->head = 0;
    st->n_seen = 0;
}

static struct ggml_tensor * slot_view(struct ggml_context * ctx, const struct stream_state * st, int slot) {
    return ggml_view_1d(ctx, st->ring, N_MEL, (size_t) slot * st->ring->nb[1]);
}

static void push_frame(struct stream_state * st, ggml_backend_t backend, ggml_gallocr_t ga, const float * samples) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true };
    struct ggml_context * ctx = ggml_init(p);
    struct ggml_tensor * x = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_SAMPLES);
    ggml_set_input(x);
    struct ggml_tensor * power = ggml_sqr(ctx, x);
    struct ggml_tensor * mel = ggml_log(ctx, ggml_scale_bias(ctx, ggml_mul_mat(ctx, st->mel_fb, power), 1.0f, 1e-3f));
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, mel, slot_view(ctx, st, st->head)));
    ggml_gallocr_alloc_graph(ga, gf);
    ggml_backend_tensor_set(x, samples, 0, ggml_nbytes(x));
    ggml_backend_graph_compute(backend, gf);
    ggml_free(ctx);
    st->head = (st->head + 1) % N_SLOTS;
    st->n_seen++;
}

static void checkpoint(const struct stream_state * st, float * out) {
    size_t off = (size_t)((char *) st->ring->data - (char *) ggml_backend_buffer_get_base(st->buf));
    memcpy(out, (char *) ggml_backend_buffer_get_base(st->buf) + off, ggml_nbytes(st->ring)); // expect-error: ggml-host-access
}

static bool voice_active(const struct stream_state * st, struct ggml_context * meta) {
    int newest = (st->head + N_SLOTS - 1) % N_SLOTS;
    struct ggml_tensor * v = slot_view(meta, st, newest);
    float energy = 0.0f;
    for (int i = 0; i < N_MEL; i++) {
        energy += ((const float *) v->data)[i]; // expect-error: ggml-host-access
    }
    return energy / N_MEL > -2.0f;
}

int main(void) {
    ggml_backend_t backend = ggml_backend_cuda_init(0);
    if (!backend) {
        fprintf(stderr, "CUDA required\n");
        return 1;
    }
    struct stream_state st;
    state_init(&st, backend);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));

    struct ggml_init_params mp = { ggml_tensor_overhead() * 8, NULL, true };
    struct ggml_context * meta = ggml_init(mp);
    float samples[N_SAMPLES];
    float snap[N_MEL * N_SLOTS];
    for (int step = 0; step < 6; step++) {
        for (int s = 0; s < N_SAMPLES; s++) {
            samples[s] = (step % 3 == 0 ? 0.01f : 0.8f) * sinf(0.2f * (float)(s * (step + 1)));
        }
        push_frame(&st, backend, ga, samples);
        if (step == 2) {
            checkpoint(&st, snap);
            printf("checkpoint at step %d: ring[0]=%.3f\n", step, snap[0]);
        }
        printf("step %d: voice %s\n", step, voice_active(&st, meta) ? "yes" : "no");
    }

    ggml_free(meta);
    ggml_gallocr_free(ga);
    ggml_backend_buffer_free(st.buf);
    ggml_free(st.ctx);
    ggml_backend_free(backend);
    return 0;
}
