// ggml examples/gpt-2 style loading: the weights are described in a no_alloc context, one GPU
// buffer is sized by hand (sum of ggml_nbytes plus alignment padding) and each tensor is
// placed with ggml_tallocr_alloc; the file's contents are first decoded into a host staging
// context that owns its memory (no_alloc = false), filled through ->data, and uploaded with
// ggml_backend_tensor_set. The forward pass runs on the GPU with a gallocr; the result comes
// back with ggml_backend_tensor_get into another host-context tensor, which a CPU-only
// graph (ggml_graph_compute_with_ctx) turns into probabilities read through ->data.
// Tricky but correct: ->data is written and read only on tensors of host contexts, which
// share their names with the GPU weights.
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

#define N_EMBD 32
#define N_VOCAB 24
#define N_TOK 4

struct gpt2_model {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buffer;
    struct ggml_tensor *wte, *ln_g, *ln_b, *fc_w, *fc_b;
};

static struct ggml_tensor *describe(struct ggml_context *ctx, const char *name, int64_t ne0, int64_t ne1) {
    struct ggml_tensor *t = ne1 > 0 ? ggml_new_tensor_2d(ctx, GGML_TYPE_F32, ne0, ne1)
                                    : ggml_new_tensor_1d(ctx, GGML_TYPE_F32, ne0);
    ggml_set_name(t, name);
    return t;
}

static void describe_model(struct ggml_context *ctx, struct ggml_tensor **t) {
    t[0] = describe(ctx, "model/wte", N_EMBD, N_VOCAB);
    t[1] = describe(ctx, "model/ln_f/g", N_EMBD, 0);
    t[2] = describe(ctx, "model/ln_f/b", N_EMBD, 0);
    t[3] = describe(ctx, "model/h0/mlp/c_fc/w", N_EMBD, N_EMBD);
    t[4] = describe(ctx, "model/h0/mlp/c_fc/b", N_EMBD, 0);
}

/* "reads the file": fills the staging tensors in host memory */
static void decode_file(struct ggml_context *staging) {
    int k = 0;
    for (struct ggml_tensor *t = ggml_get_first_tensor(staging); t; t = ggml_get_next_tensor(staging, t), k++) {
        float *dst = (float *)t->data;
        for (int64_t i = 0; i < ggml_nelements(t); i++) dst[i] = (float)((i * 5 + k) % 13 - 6) / 26.0f;
    }
}

static bool model_load(struct gpt2_model *m, ggml_backend_t backend) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 5, NULL, true};
    m->ctx = ggml_init(ip);
    struct ggml_tensor *t[5];
    describe_model(m->ctx, t);
    m->wte = t[0], m->ln_g = t[1], m->ln_b = t[2], m->fc_w = t[3], m->fc_b = t[4];

    size_t align = ggml_backend_get_alignment(backend);
    size_t size = 0;
    for (int i = 0; i < 5; i++) size += GGML_PAD(ggml_nbytes(t[i]), align);
    m->buffer = ggml_backend_alloc_buffer(backend, size);
    struct ggml_tallocr talloc = ggml_tallocr_new(m->buffer);
    for (int i = 0; i < 5; i++)
        if (ggml_tallocr_alloc(&talloc, t[i]) != GGML_STATUS_SUCCESS) return false;

    struct ggml_init_params sp = {ggml_tensor_overhead() * 5 + size + 1024, NULL, false};
    struct ggml_context *staging = ggml_init(sp);
    struct ggml_tensor *s[5];
    describe_model(staging, s);
    decode_file(staging);
    for (int i = 0; i < 5; i++) {
        struct ggml_tensor *dst = ggml_get_tensor(m->ctx, ggml_get_name(s[i]));
        if (!dst || ggml_nbytes(dst) != ggml_nbytes(s[i])) return false;
        ggml_backend_tensor_set(dst, s[i]->data, 0, ggml_nbytes(s[i]));
    }
    ggml_free(staging);
    return true;
}

static void forward(struct gpt2_model *m, ggml_backend_t backend, const int32_t *toks, struct ggml_tensor *host_logits) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_TOK);
    ggml_set_input(ids);
    struct ggml_tensor *x = ggml_get_rows(ctx, m->wte, ids);
    x = ggml_add(ctx, x, ggml_gelu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, m->fc_w, x), m->fc_b)));
    x = ggml_add(ctx, ggml_mul(ctx, ggml_norm(ctx, x, 1e-5f), m->ln_g), m->ln_b);
    struct ggml_tensor *logits = ggml_mul_mat(ctx, m->wte, x);
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);
    ggml_backend_tensor_set(ids, toks, 0, ggml_nbytes(ids));
    ggml_backend_graph_compute(backend, gf);
    ggml_backend_tensor_get(logits, host_logits->data, 0, ggml_nbytes(logits));
    ggml_gallocr_free(ga);
    ggml_free(ctx);
}

int main(void) {
    ggml_backend_t backend = ggml_backend_cuda_init(0);
    if (!backend) return 1;
    struct gpt2_model model;
    if (!model_load(&model, backend)) {
        fprintf(stderr, "failed to load model\n");
        return 1;
    }

    struct ggml_init_params hp = {16 * 1024 * 1024, NULL, false};
    struct ggml_context *host = ggml_init(hp);
    struct ggml_tensor *logits = ggml_new_tensor_2d(host, GGML_TYPE_F32, N_VOCAB, N_TOK);
    const int32_t toks[N_TOK] = {2, 11, 5, 17};
    forward(&model, backend, toks, logits);

    struct ggml_cgraph *gf = ggml_new_graph(host);
    struct ggml_tensor *probs = ggml_soft_max(host, logits);
    ggml_build_forward_expand(gf, probs);
    ggml_graph_compute_with_ctx(host, gf, 1);

    const float *p = (const float *)probs->data;
    for (int t = 0; t < N_TOK; t++) {
        int best = 0;
        for (int i = 1; i < N_VOCAB; i++)
            if (p[t * N_VOCAB + i] > p[t * N_VOCAB + best]) best = i;
        printf("token %d -> %d (p=%.3f)\n", toks[t], best, p[t * N_VOCAB + best]);
    }

    ggml_free(host);
    ggml_backend_buffer_free(model.buffer);
    ggml_free(model.ctx);
    ggml_backend_free(backend);
    return 0;
}
