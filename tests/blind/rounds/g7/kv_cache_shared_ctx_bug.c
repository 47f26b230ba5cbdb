// run-args: 3 12
//
// Chat session over a small decoder: the KV cache tensors are created in the model's context
// ("it has spare room") after the model's weights were allocated. The first sequence reset
// writes into a view of the cache.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LAYERS 8

struct kv_cache {
    int n_ctx;
    int n_used;
    struct ggml_tensor *k[MAX_LAYERS];
    struct ggml_tensor *v[MAX_LAYERS];
};

struct model {
    int n_layer, n_embd, n_vocab;
    struct ggml_context *ctx;
    ggml_backend_t backend;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *tok_embd;
    struct ggml_tensor *wk[MAX_LAYERS], *wv[MAX_LAYERS];
    struct kv_cache kv;
};

struct session {
    struct model *m;
    struct ggml_context *scratch; // views and small graphs
    int32_t history[64];
    int n_history;
};

static int model_init(struct model *m, int n_layer) {
    m->n_layer = n_layer;
    m->n_embd = 16;
    m->n_vocab = 40;
    // room for the weights plus the cache we add later
    struct ggml_init_params ip = { ggml_tensor_overhead() * (1 + 4 * MAX_LAYERS), NULL, true };
    m->ctx = ggml_init(ip);
    m->tok_embd = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, m->n_embd, m->n_vocab);
    for (int il = 0; il < n_layer; il++) {
        m->wk[il] = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, m->n_embd, m->n_embd);
        m->wv[il] = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, m->n_embd, m->n_embd);
    }
    m->backend = ggml_backend_init_best();
    if (!m->backend) return -1;
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
    if (!m->buf) return -1;
    ggml_backend_buffer_clear(m->buf, 0);
    return 0;
}

static void kv_cache_init(struct kv_cache *kv, struct ggml_context *ctx, const struct model *m, int n_ctx) {
    kv->n_ctx = n_ctx;
    kv->n_used = 0;
    for (int il = 0; il < m->n_layer; il++) {
        kv->k[il] = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, m->n_embd, n_ctx);
        kv->v[il] = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, m->n_embd, n_ctx);
        char name[32];
        snprintf(name, sizeof name, "cache_k_l%d", il);
        ggml_set_name(kv->k[il], name);
        snprintf(name, sizeof name, "cache_v_l%d", il);
        ggml_set_name(kv->v[il], name);
    }
}

static void zero_rows(struct ggml_context *scratch, struct ggml_tensor *t, int p0, int p1) {
    struct ggml_tensor *rows = ggml_view_2d(scratch, t, t->ne[0], p1 - p0, t->nb[1], (size_t) p0 * t->nb[1]);
    size_t n = ggml_nbytes(rows);
    void *zeros = calloc(1, n);
    ggml_backend_tensor_set(rows, zeros, 0, n); // expect-error: ggml-buffer-not-set
    free(zeros);
}

// drop positions [p0, p1) of the sequence from every layer
static void kv_seq_rm(struct session *s, int p0, int p1) {
    struct kv_cache *kv = &s->m->kv;
    if (p1 < 0 || p1 > kv->n_ctx) p1 = kv->n_ctx;
    if (p0 >= p1) return;
    for (int il = 0; il < s->m->n_layer; il++) {
        zero_rows(s->scratch, kv->k[il], p0, p1);
        zero_rows(s->scratch, kv->v[il], p0, p1);
    }
    if (kv->n_used > p0) kv->n_used = p0;
}

static void session_start(struct session *s, struct model *m) {
    s->m = m;
    struct ggml_init_params ip = { ggml_tensor_overhead() * 256 + ggml_graph_overhead(), NULL, true };
    s->scratch = ggml_init(ip);
    s->n_history = 0;
    kv_seq_rm(s, 0, -1);
}

static int session_feed(struct session *s, const int32_t *tokens, int n) {
    struct model *m = s->m;
    struct kv_cache *kv = &m->kv;
    if (kv->n_used + n > kv->n_ctx) return -1;
    struct ggml_init_params ip = { ggml_tensor_overhead() * 128 + ggml_graph_overhead(), NULL, true };
    struct ggml_context *ctx0 = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx0);
    struct ggml_tensor *inp = ggml_new_tensor_1d(ctx0, GGML_TYPE_I32, n);
    ggml_set_input(inp);
    struct ggml_tensor *x = ggml_get_rows(ctx0, m->tok_embd, inp);
    for (int il = 0; il < m->n_layer; il++) {
        struct ggml_tensor *k = ggml_mul_mat(ctx0, m->wk[il], x);
        struct ggml_tensor *v = ggml_mul_mat(ctx0, m->wv[il], x);
        size_t off = (size_t) kv->n_used * kv->k[il]->nb[1];
        ggml_build_forward_expand(gf, ggml_cpy(ctx0, k, ggml_view_2d(ctx0, kv->k[il], m->n_embd, n, kv->k[il]->nb[1], off)));
        ggml_build_forward_expand(gf, ggml_cpy(ctx0, v, ggml_view_2d(ctx0, kv->v[il], m->n_embd, n, kv->v[il]->nb[1], off)));
        x = ggml_add(ctx0, x, v);
    }
    ggml_build_forward_expand(gf, x);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m->backend));
    int rc = -1;
    if (ggml_gallocr_alloc_graph(ga, gf)) {
        ggml_backend_tensor_set(inp, tokens, 0, sizeof(int32_t) * n);
        if (ggml_backend_graph_compute(m->backend, gf) == GGML_STATUS_SUCCESS) rc = 0;
    }
    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    if (rc == 0) {
        kv->n_used += n;
        for (int i = 0; i < n && s->n_history < 64; i++) s->history[s->n_history++] = tokens[i];
    }
    return rc;
}

int main(int argc, char **argv) {
    int n_layer = argc > 1 ? atoi(argv[1]) : 2;
    int n_ctx = argc > 2 ? atoi(argv[2]) : 32;
    if (n_layer < 1) n_layer = 1;
    if (n_layer > MAX_LAYERS) n_layer = MAX_LAYERS;
    if (n_ctx < 8) n_ctx = 8;

    struct model m;
    memset(&m, 0, sizeof m);
    if (model_init(&m, n_layer) != 0) {
        fprintf(stderr, "model init failed\n");
        return 1;
    }
    kv_cache_init(&m.kv, m.ctx, &m, n_ctx);

    struct session s;
    session_start(&s, &m);
    const int32_t prompt[5] = { 1, 7, 3, 9, 2 };
    for (int turn = 0; turn < 3; turn++) {
        if (session_feed(&s, prompt, 5) != 0) {
            printf("context full after %d turns, trimming\n", turn);
            kv_seq_rm(&s, 0, -1);
        }
    }
    printf("history %d tokens, cache %d/%d\n", s.n_history, m.kv.n_used, m.kv.n_ctx);

    ggml_free(s.scratch);
    ggml_backend_buffer_free(m.buf);
    ggml_free(m.ctx);
    ggml_backend_free(m.backend);
    return 0;
}
