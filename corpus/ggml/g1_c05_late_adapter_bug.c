// corpus/ggml/g1_c05_late_adapter_bug.c — from blind round g1 (c05_late_adapter_bug.c, labelled by running it on real ggml and the emulated GPU): an encoder whose optional adapter tensors were added to the
// weight context after the context had already been allocated on the device, so they have
// no buffer; and a running-statistics tensor made in a context nobody allocates.
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#define D_IN   10
#define D_OUT  6
#define RANK   2

struct encoder {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    ggml_backend_t backend;
    struct ggml_tensor * proj;      // [D_IN, D_OUT]
    struct ggml_tensor * bias;      // [D_OUT]
    struct ggml_tensor * lora_a;    // [D_IN, RANK]
    struct ggml_tensor * lora_b;    // [RANK, D_OUT]
    struct ggml_context * ctx_stats;
    struct ggml_tensor * running_mean;
};

static void fill(float * p, int n, float scale, int salt) {
    for (int i = 0; i < n; i++) {
        p[i] = scale * sinf(0.7f * (float)(i + salt));
    }
}

static void encoder_init(struct encoder * e, ggml_backend_t backend) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 8, NULL, true };
    e->ctx = ggml_init(p);
    e->backend = backend;
    e->proj = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, D_IN, D_OUT);
    e->bias = ggml_new_tensor_1d(e->ctx, GGML_TYPE_F32, D_OUT);
    e->buf = ggml_backend_alloc_ctx_tensors(e->ctx, backend);

    float w[D_IN * D_OUT], b[D_OUT];
    fill(w, D_IN * D_OUT, 0.3f, 0);
    fill(b, D_OUT, 0.1f, 5);
    ggml_backend_tensor_set(e->proj, w, 0, sizeof(w));
    ggml_backend_tensor_set(e->bias, b, 0, sizeof(b));

    struct ggml_init_params ps = { ggml_tensor_overhead(), NULL, true };
    e->ctx_stats = ggml_init(ps);
    e->running_mean = ggml_new_tensor_1d(e->ctx_stats, GGML_TYPE_F32, D_OUT);
    ggml_set_name(e->running_mean, "running_mean");
}

// called after encoder_init when an adapter file is given
static void encoder_add_adapter(struct encoder * e) {
    e->lora_a = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, D_IN, RANK);
    e->lora_b = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, RANK, D_OUT);
    ggml_set_name(e->lora_a, "adapter.a");
    ggml_set_name(e->lora_b, "adapter.b");
    float a[D_IN * RANK], b[RANK * D_OUT];
    fill(a, D_IN * RANK, 0.05f, 11);
    fill(b, RANK * D_OUT, 0.05f, 17);
    ggml_backend_tensor_set(e->lora_a, a, 0, sizeof(a)); // expect-error: ggml-buffer-not-set
    ggml_backend_tensor_set(e->lora_b, b, 0, sizeof(b));
}

static void stats_reset(struct encoder * e) {
    ggml_backend_tensor_memset(e->running_mean, 0, 0, ggml_nbytes(e->running_mean)); // expect-error: ggml-buffer-not-set
}

static struct ggml_tensor * encode(struct ggml_context * ctx, const struct encoder * e, struct ggml_tensor * x) {
    struct ggml_tensor * y = ggml_mul_mat(ctx, e->proj, x);
    if (e->lora_a) {
        struct ggml_tensor * low = ggml_mul_mat(ctx, e->lora_a, x);         // [RANK, n]
        y = ggml_add(ctx, y, ggml_mul_mat(ctx, e->lora_b, low));
    }
    return ggml_tanh(ctx, ggml_add(ctx, y, e->bias));
}

int main(int argc, char ** argv) {
    (void) argv;
    ggml_backend_t backend = ggml_backend_init_best();
    printf("backend: %s\n", ggml_backend_name(backend));

    struct encoder enc;
    memset(&enc, 0, sizeof(enc));
    encoder_init(&enc, backend);
    encoder_add_adapter(&enc);
    stats_reset(&enc);

    const int n_tok = argc > 2 ? 2 : 5;
    struct ggml_init_params gp = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true };
    struct ggml_context * ctx = ggml_init(gp);
    struct ggml_tensor * x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, D_IN, n_tok);
    ggml_set_input(x);
    struct ggml_tensor * y = encode(ctx, &enc, x);
    ggml_set_output(y);
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, y);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);
    float xin[D_IN * 5];
    fill(xin, D_IN * n_tok, 1.0f, 3);
    ggml_backend_tensor_set(x, xin, 0, ggml_nbytes(x));
    ggml_backend_graph_compute(backend, gf);

    float out[D_OUT * 5];
    ggml_backend_tensor_get(y, out, 0, ggml_nbytes(y));
    for (int t = 0; t < n_tok; t++) {
        printf("token %d:", t);
        for (int j = 0; j < D_OUT; j++) {
            printf(" %+.3f", out[t * D_OUT + j]);
        }
        printf("\n");
    }

    ggml_gallocr_free(ga);
    ggml_free(ctx);
    ggml_backend_buffer_free(enc.buf);
    ggml_free(enc.ctx_stats);
    ggml_free(enc.ctx);
    ggml_backend_free(backend);
    return 0;
}
