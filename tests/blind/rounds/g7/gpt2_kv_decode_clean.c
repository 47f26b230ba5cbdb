// run-env: GPT_DEVICE=cuda1
// run-args: 9
//
// Tiny GPT-2 style decoder: weights, KV cache and compute all live on the device picked by
// GPT_DEVICE (cpu | cuda0 | cuda1 | best). Greedy decoding, one token per graph.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_LAYER 2

struct gpt_hparams {
    int n_vocab;
    int n_embd;
    int n_head;
    int n_ctx;
};

struct gpt_layer {
    struct ggml_tensor *ln_g, *ln_b;
    struct ggml_tensor *wq, *wk, *wv, *wo;
    struct ggml_tensor *ff_up, *ff_down;
};

struct gpt_kv {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *k, *v;
};

struct gpt_model {
    struct gpt_hparams hp;
    struct ggml_context *ctx;
    ggml_backend_t backend;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *wte, *wpe, *ln_f_g, *ln_f_b;
    struct gpt_layer layers[N_LAYER];
    struct gpt_kv kv;
};

static ggml_backend_t pick_backend(const char *want) {
    if (want == NULL || strcmp(want, "best") == 0) {
        return ggml_backend_init_best();
    }
    if (strcmp(want, "cpu") == 0) {
        return ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
    }
    char name[32];
    snprintf(name, sizeof name, "CUDA%s", want + 4);
    ggml_backend_dev_t dev = ggml_backend_dev_by_name(name);
    if (dev == NULL) {
        fprintf(stderr, "no device %s, using the best one\n", name);
        return ggml_backend_init_best();
    }
    return ggml_backend_dev_init(dev, NULL);
}

static uint32_t g_seed = 1234;
static float frand(void) {
    g_seed = g_seed * 1664525u + 1013904223u;
    return ((g_seed >> 8) & 0xffff) / 65536.0f - 0.5f;
}

// fill one weight: straight into memory for a host buffer, staged otherwise
static void init_weight(struct ggml_tensor *t, float scale) {
    const int64_t n = ggml_nelements(t);
    if (ggml_backend_buffer_is_host(t->buffer)) {
        float *dst = (float *) t->data;
        for (int64_t i = 0; i < n; i++) dst[i] = scale * frand();
        return;
    }
    float *tmp = malloc(n * sizeof(float));
    for (int64_t i = 0; i < n; i++) tmp[i] = scale * frand();
    ggml_backend_tensor_set(t, tmp, 0, ggml_nbytes(t));
    free(tmp);
}

static int model_init(struct gpt_model *m, const char *device) {
    const struct gpt_hparams hp = m->hp;
    struct ggml_init_params ip = { ggml_tensor_overhead() * (4 + 8 * N_LAYER), NULL, true };
    m->ctx = ggml_init(ip);
    m->wte = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp.n_embd, hp.n_vocab);
    m->wpe = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp.n_embd, hp.n_ctx);
    m->ln_f_g = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, hp.n_embd);
    m->ln_f_b = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, hp.n_embd);
    for (int il = 0; il < N_LAYER; il++) {
        struct gpt_layer *l = &m->layers[il];
        l->ln_g = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, hp.n_embd);
        l->ln_b = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, hp.n_embd);
        l->wq = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp.n_embd, hp.n_embd);
        l->wk = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp.n_embd, hp.n_embd);
        l->wv = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp.n_embd, hp.n_embd);
        l->wo = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp.n_embd, hp.n_embd);
        l->ff_up = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp.n_embd, 4 * hp.n_embd);
        l->ff_down = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, 4 * hp.n_embd, hp.n_embd);
    }

    m->backend = pick_backend(device);
    if (m->backend == NULL) return 1;
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
    if (m->buf == NULL) return 1;
    ggml_backend_buffer_set_usage(m->buf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);

    for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx); t; t = ggml_get_next_tensor(m->ctx, t)) {
        init_weight(t, t->ne[1] == 1 ? 0.1f : 0.5f);
    }

    // the KV cache goes on the same backend as the weights
    struct ggml_init_params kp = { 2 * ggml_tensor_overhead(), NULL, true };
    m->kv.ctx = ggml_init(kp);
    m->kv.k = ggml_new_tensor_1d(m->kv.ctx, GGML_TYPE_F32, (int64_t) hp.n_embd * hp.n_ctx * N_LAYER);
    m->kv.v = ggml_new_tensor_1d(m->kv.ctx, GGML_TYPE_F32, (int64_t) hp.n_embd * hp.n_ctx * N_LAYER);
    m->kv.buf = ggml_backend_alloc_ctx_tensors(m->kv.ctx, m->backend);
    if (m->kv.buf == NULL) return 1;
    ggml_backend_buffer_clear(m->kv.buf, 0);
    return 0;
}

static struct ggml_cgraph *build_step(struct gpt_model *m, struct ggml_context *ctx0, int n_past) {
    const struct gpt_hparams hp = m->hp;
    const int hd = hp.n_embd / hp.n_head;
    const int n_kv = n_past + 1;
    const size_t es = sizeof(float);
    struct ggml_cgraph *gf = ggml_new_graph(ctx0);

    struct ggml_tensor *tok = ggml_new_tensor_1d(ctx0, GGML_TYPE_I32, 1);
    ggml_set_name(tok, "inp_tok");
    ggml_set_input(tok);
    struct ggml_tensor *pos = ggml_new_tensor_1d(ctx0, GGML_TYPE_I32, 1);
    ggml_set_name(pos, "inp_pos");
    ggml_set_input(pos);

    struct ggml_tensor *x = ggml_add(ctx0, ggml_get_rows(ctx0, m->wte, tok), ggml_get_rows(ctx0, m->wpe, pos));

    for (int il = 0; il < N_LAYER; il++) {
        const struct gpt_layer *l = &m->layers[il];
        struct ggml_tensor *cur = ggml_norm(ctx0, x, 1e-5f);
        cur = ggml_add(ctx0, ggml_mul(ctx0, cur, l->ln_g), l->ln_b);

        struct ggml_tensor *q = ggml_mul_mat(ctx0, l->wq, cur);
        struct ggml_tensor *k = ggml_mul_mat(ctx0, l->wk, cur);
        struct ggml_tensor *v = ggml_mul_mat(ctx0, l->wv, cur);

        const size_t layer_off = es * (size_t) hp.n_embd * hp.n_ctx * il;
        struct ggml_tensor *k_dst = ggml_view_1d(ctx0, m->kv.k, hp.n_embd, layer_off + es * hp.n_embd * n_past);
        struct ggml_tensor *v_dst = ggml_view_1d(ctx0, m->kv.v, hp.n_embd, layer_off + es * hp.n_embd * n_past);
        ggml_build_forward_expand(gf, ggml_cpy(ctx0, k, k_dst));
        ggml_build_forward_expand(gf, ggml_cpy(ctx0, v, v_dst));

        struct ggml_tensor *K = ggml_view_1d(ctx0, m->kv.k, (int64_t) hp.n_embd * n_kv, layer_off);
        struct ggml_tensor *V = ggml_view_1d(ctx0, m->kv.v, (int64_t) hp.n_embd * n_kv, layer_off);
        K = ggml_permute(ctx0, ggml_reshape_3d(ctx0, K, hd, hp.n_head, n_kv), 0, 2, 1, 3);
        V = ggml_cont(ctx0, ggml_permute(ctx0, ggml_reshape_3d(ctx0, V, hd, hp.n_head, n_kv), 1, 2, 0, 3));
        struct ggml_tensor *Q = ggml_permute(ctx0, ggml_reshape_3d(ctx0, q, hd, hp.n_head, 1), 0, 2, 1, 3);

        struct ggml_tensor *kq = ggml_mul_mat(ctx0, K, Q);
        kq = ggml_soft_max(ctx0, ggml_scale(ctx0, kq, 1.0f / sqrtf((float) hd)));
        struct ggml_tensor *kqv = ggml_mul_mat(ctx0, V, kq);
        kqv = ggml_cont(ctx0, ggml_permute(ctx0, kqv, 0, 2, 1, 3));
        cur = ggml_mul_mat(ctx0, l->wo, ggml_reshape_2d(ctx0, kqv, hp.n_embd, 1));
        x = ggml_add(ctx0, x, cur);

        cur = ggml_gelu(ctx0, ggml_mul_mat(ctx0, l->ff_up, x));
        x = ggml_add(ctx0, x, ggml_mul_mat(ctx0, l->ff_down, cur));
    }

    x = ggml_norm(ctx0, x, 1e-5f);
    x = ggml_add(ctx0, ggml_mul(ctx0, x, m->ln_f_g), m->ln_f_b);
    struct ggml_tensor *logits = ggml_mul_mat(ctx0, m->wte, x);
    ggml_set_name(logits, "logits");
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);
    return gf;
}

static int decode(struct gpt_model *m, ggml_gallocr_t alloc, int token, int n_past, float *logits_out) {
    size_t sz = ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead();
    struct ggml_init_params ip = { sz, NULL, true };
    struct ggml_context *ctx0 = ggml_init(ip);
    struct ggml_cgraph *gf = build_step(m, ctx0, n_past);
    if (!ggml_gallocr_alloc_graph(alloc, gf)) {
        ggml_free(ctx0);
        return 1;
    }
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_tok"), &token, 0, sizeof(int32_t));
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_pos"), &n_past, 0, sizeof(int32_t));
    if (ggml_backend_graph_compute(m->backend, gf) != GGML_STATUS_SUCCESS) {
        ggml_free(ctx0);
        return 1;
    }
    struct ggml_tensor *logits = ggml_graph_get_tensor(gf, "logits");
    ggml_backend_tensor_get(logits, logits_out, 0, ggml_nbytes(logits));
    ggml_free(ctx0);
    return 0;
}

int main(int argc, char **argv) {
    int n_predict = argc > 1 ? atoi(argv[1]) : 6;
    struct gpt_model model;
    memset(&model, 0, sizeof model);
    model.hp.n_vocab = 48;
    model.hp.n_embd = 16;
    model.hp.n_head = 2;
    model.hp.n_ctx = 16;
    if (n_predict < 1) n_predict = 1;
    if (n_predict >= model.hp.n_ctx) n_predict = model.hp.n_ctx - 1;

    if (model_init(&model, getenv("GPT_DEVICE")) != 0) {
        fprintf(stderr, "model init failed\n");
        return 1;
    }
    if (ggml_backend_is_cpu(model.backend)) {
        ggml_backend_cpu_set_n_threads(model.backend, 2);
    }
    printf("backend: %s\n", ggml_backend_name(model.backend));

    ggml_gallocr_t alloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(model.backend));
    float *logits = malloc(sizeof(float) * model.hp.n_vocab);
    int token = 1;
    for (int n_past = 0; n_past < n_predict; n_past++) {
        if (decode(&model, alloc, token, n_past, logits) != 0) {
            fprintf(stderr, "decode failed at %d\n", n_past);
            return 1;
        }
        int best = 0;
        for (int i = 1; i < model.hp.n_vocab; i++) {
            if (logits[i] > logits[best]) best = i;
        }
        printf("%d ", best);
        token = best;
    }
    printf("\n");

    free(logits);
    ggml_gallocr_free(alloc);
    ggml_backend_buffer_free(model.kv.buf);
    ggml_free(model.kv.ctx);
    ggml_backend_buffer_free(model.buf);
    ggml_free(model.ctx);
    ggml_backend_free(model.backend);
    return 0;
}
