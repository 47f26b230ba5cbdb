// provenance: blind round g5
// encoder_output_gpu: audio-style encoder; the output projection can be moved to a second GPU
// to save memory on the first (ENC_SPLIT_OUTPUT), but the graph is still computed on CUDA0.
// run-env: ENC_SPLIT_OUTPUT=1
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_MELS 20
#define N_FRAMES 12
#define N_STATE 32
#define N_CONV 3

struct enc_weights {
    struct ggml_tensor *conv1_w; /* [N_CONV, N_MELS, N_STATE] */
    struct ggml_tensor *conv1_b; /* [1, N_STATE] */
    struct ggml_tensor *ln_w;
    struct ggml_tensor *ln_b;
    struct ggml_tensor *proj_w; /* [N_STATE, N_STATE] */
    struct ggml_tensor *proj_b;
};

struct encoder {
    struct enc_weights w;
    struct ggml_context *ctx_main;
    struct ggml_context *ctx_out;
    ggml_backend_buffer_t buf_main;
    ggml_backend_buffer_t buf_out;
    ggml_backend_t backend;
    bool split_output;
};

static bool env_flag(const char *name) {
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void set_random(struct ggml_tensor *t, unsigned seed) {
    size_t n = (size_t)ggml_nelements(t);
    float *buf = malloc(n * sizeof(float));
    unsigned s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        buf[i] = ((float)((s >> 8) & 0xffff) / 65535.0f - 0.5f) * 0.2f;
    }
    ggml_backend_tensor_set(t, buf, 0, n * sizeof(float));
    free(buf);
}

static int encoder_load(struct encoder *e) {
    e->split_output = env_flag("ENC_SPLIT_OUTPUT");
    e->backend = ggml_backend_cuda_init(0);
    if (!e->backend) return -1;

    struct ggml_init_params ip = { 8 * ggml_tensor_overhead(), NULL, true };
    e->ctx_main = ggml_init(ip);
    e->ctx_out = ggml_init(ip);

    e->w.conv1_w = ggml_new_tensor_3d(e->ctx_main, GGML_TYPE_F32, N_CONV, N_MELS, N_STATE);
    e->w.conv1_b = ggml_new_tensor_2d(e->ctx_main, GGML_TYPE_F32, 1, N_STATE);
    e->w.ln_w = ggml_new_tensor_1d(e->ctx_main, GGML_TYPE_F32, N_STATE);
    e->w.ln_b = ggml_new_tensor_1d(e->ctx_main, GGML_TYPE_F32, N_STATE);
    e->w.proj_w = ggml_new_tensor_2d(e->ctx_out, GGML_TYPE_F32, N_STATE, N_STATE);
    e->w.proj_b = ggml_new_tensor_1d(e->ctx_out, GGML_TYPE_F32, N_STATE);

    e->buf_main = ggml_backend_alloc_ctx_tensors_from_buft(e->ctx_main, ggml_backend_cuda_buffer_type(0));
    ggml_backend_buffer_type_t out_buft;
    if (e->split_output) {
        out_buft = ggml_backend_cuda_buffer_type(1);
    } else {
        out_buft = ggml_backend_cuda_buffer_type(0);
    }
    e->buf_out = ggml_backend_alloc_ctx_tensors_from_buft(e->ctx_out, out_buft);
    if (!e->buf_main || !e->buf_out) return -1;

    set_random(e->w.conv1_w, 1);
    set_random(e->w.conv1_b, 2);
    set_random(e->w.ln_w, 3);
    set_random(e->w.ln_b, 4);
    set_random(e->w.proj_w, 5);
    set_random(e->w.proj_b, 6);
    printf("main weights: %s, output projection: %s\n", ggml_backend_buffer_name(e->buf_main),
           ggml_backend_buffer_name(e->buf_out));
    return 0;
}

static struct ggml_tensor *layer_norm(struct ggml_context *ctx, struct ggml_tensor *x,
                                      struct ggml_tensor *w, struct ggml_tensor *b) {
    x = ggml_norm(ctx, x, 1e-5f);
    return ggml_add(ctx, ggml_mul(ctx, x, w), b);
}

static struct ggml_cgraph *encoder_graph(struct ggml_context *ctx, struct encoder *e) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *mel = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_FRAMES, N_MELS);
    ggml_set_name(mel, "mel");
    ggml_set_input(mel);

    struct ggml_tensor *cur = ggml_conv_1d_ph(ctx, e->w.conv1_w, mel, 1, 1); /* [N_FRAMES, N_STATE] */
    cur = ggml_add(ctx, cur, e->w.conv1_b);
    cur = ggml_gelu(ctx, cur);
    cur = ggml_cont(ctx, ggml_transpose(ctx, cur)); /* [N_STATE, N_FRAMES] */
    cur = layer_norm(ctx, cur, e->w.ln_w, e->w.ln_b);
    cur = ggml_add(ctx, ggml_mul_mat(ctx, e->w.proj_w, cur), e->w.proj_b);
    ggml_set_name(cur, "embd_enc");
    ggml_set_output(cur);
    ggml_build_forward_expand(gf, cur);
    return gf;
}

static void encoder_free(struct encoder *e) {
    if (e->buf_out) ggml_backend_buffer_free(e->buf_out);
    if (e->buf_main) ggml_backend_buffer_free(e->buf_main);
    if (e->ctx_out) ggml_free(e->ctx_out);
    if (e->ctx_main) ggml_free(e->ctx_main);
    if (e->backend) ggml_backend_free(e->backend);
}

static void make_mel(float *mel) {
    for (int m = 0; m < N_MELS; m++)
        for (int f = 0; f < N_FRAMES; f++) mel[m * N_FRAMES + f] = logf(1.0f + (float)((m * 3 + f) % 11));
}

int main(void) {
    struct encoder enc;
    memset(&enc, 0, sizeof enc);
    if (encoder_load(&enc) != 0) {
        fprintf(stderr, "encoder_load failed\n");
        encoder_free(&enc);
        return 1;
    }

    size_t meta = ggml_tensor_overhead() * 128 + ggml_graph_overhead();
    struct ggml_init_params gp = { meta, NULL, true };
    struct ggml_context *ctx = ggml_init(gp);
    struct ggml_cgraph *gf = encoder_graph(ctx, &enc);

    ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(enc.backend));
    if (!ggml_gallocr_alloc_graph(galloc, gf)) {
        fprintf(stderr, "alloc failed\n");
        return 1;
    }

    float mel[N_MELS * N_FRAMES];
    make_mel(mel);
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "mel"), mel, 0, sizeof mel);

    enum ggml_status st = ggml_backend_graph_compute(enc.backend, gf); // expect-warning: ggml-backend-mismatch
    if (st != GGML_STATUS_SUCCESS) {
        fprintf(stderr, "compute failed: %s\n", ggml_status_to_string(st));
    }

    struct ggml_tensor *out = ggml_graph_get_tensor(gf, "embd_enc");
    float *emb = malloc(ggml_nbytes(out));
    ggml_backend_tensor_get(out, emb, 0, ggml_nbytes(out));
    double mean = 0;
    for (int i = 0; i < (int)ggml_nelements(out); i++) mean += emb[i];
    printf("encoder output [%lld x %lld], mean %.5f\n", (long long)out->ne[0], (long long)out->ne[1],
           mean / (double)ggml_nelements(out));

    free(emb);
    ggml_gallocr_free(galloc);
    ggml_free(ctx);
    encoder_free(&enc);
    return 0;
}
