// provenance: blind round g6
// run-args: 4
// Single-head attention decoder with a KV cache kept in its own context and buffer.
// The config puts the KV cache "on the second GPU to save memory on the first", but the
// decode graph is still computed on the model's backend (CUDA0).
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lm_config {
    int n_embd;
    int n_vocab;
    int n_ctx;
    int main_gpu;
    int kv_gpu;
};

struct lm_model {
    struct ggml_tensor *tok_embd;
    struct ggml_tensor *wq, *wk, *wv, *wo;
    struct ggml_tensor *lm_head;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
};

struct kv_cache {
    struct ggml_tensor *k;
    struct ggml_tensor *v;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    int n_past;
};

static void fill_tensor(struct ggml_tensor *t, float scale, int seed) {
    int64_t n = ggml_nelements(t);
    float *tmp = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; i++) tmp[i] = scale * (float)(((i * 31 + seed) % 23) - 11) / 11.0f;
    ggml_backend_tensor_set(t, tmp, 0, (size_t)n * sizeof(float));
    free(tmp);
}

static int model_init(struct lm_model *m, const struct lm_config *cfg, ggml_backend_buffer_type_t buft) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 8, NULL, true};
    m->ctx = ggml_init(ip);
    m->tok_embd = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, cfg->n_embd, cfg->n_vocab);
    m->wq = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, cfg->n_embd, cfg->n_embd);
    m->wk = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, cfg->n_embd, cfg->n_embd);
    m->wv = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, cfg->n_embd, cfg->n_embd);
    m->wo = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, cfg->n_embd, cfg->n_embd);
    m->lm_head = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, cfg->n_embd, cfg->n_vocab);
    m->buf = ggml_backend_alloc_ctx_tensors_from_buft(m->ctx, buft);
    if (!m->buf) return 0;
    fill_tensor(m->tok_embd, 0.5f, 1);
    fill_tensor(m->wq, 0.1f, 2);
    fill_tensor(m->wk, 0.1f, 3);
    fill_tensor(m->wv, 0.1f, 4);
    fill_tensor(m->wo, 0.1f, 5);
    fill_tensor(m->lm_head, 0.2f, 6);
    return 1;
}

static int kv_init(struct kv_cache *kv, const struct lm_config *cfg, ggml_backend_buffer_type_t buft) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 2, NULL, true};
    kv->ctx = ggml_init(ip);
    kv->k = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, cfg->n_embd, cfg->n_ctx);
    kv->v = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, cfg->n_ctx, cfg->n_embd);
    ggml_set_name(kv->k, "cache_k");
    ggml_set_name(kv->v, "cache_v");
    kv->buf = ggml_backend_alloc_ctx_tensors_from_buft(kv->ctx, buft);
    if (!kv->buf) return 0;
    ggml_backend_buffer_clear(kv->buf, 0);
    kv->n_past = 0;
    return 1;
}

static struct ggml_cgraph *build_decode(struct ggml_context *ctx, const struct lm_config *cfg,
                                        const struct lm_model *m, const struct kv_cache *kv) {
    const int n_embd = cfg->n_embd;
    const int n_past = kv->n_past;
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *tok = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
    ggml_set_name(tok, "token");
    ggml_set_input(tok);
    struct ggml_tensor *x = ggml_get_rows(ctx, m->tok_embd, tok);

    struct ggml_tensor *q = ggml_mul_mat(ctx, m->wq, x);
    struct ggml_tensor *k = ggml_mul_mat(ctx, m->wk, x);
    struct ggml_tensor *v = ggml_mul_mat(ctx, m->wv, x);

    struct ggml_tensor *k_slot = ggml_view_1d(ctx, kv->k, n_embd, (size_t)n_past * kv->k->nb[1]);
    struct ggml_tensor *v_slot = ggml_view_2d(ctx, kv->v, 1, n_embd, kv->v->nb[1], (size_t)n_past * ggml_element_size(kv->v));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, k, k_slot));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, ggml_transpose(ctx, v), v_slot));

    struct ggml_tensor *K = ggml_view_2d(ctx, kv->k, n_embd, n_past + 1, kv->k->nb[1], 0);
    struct ggml_tensor *V = ggml_view_2d(ctx, kv->v, n_past + 1, n_embd, kv->v->nb[1], 0);
    struct ggml_tensor *kq = ggml_mul_mat(ctx, K, q);
    kq = ggml_soft_max_ext(ctx, kq, NULL, 1.0f / sqrtf((float)n_embd), 0.0f);
    struct ggml_tensor *att = ggml_mul_mat(ctx, V, kq);
    struct ggml_tensor *h = ggml_add(ctx, x, ggml_mul_mat(ctx, m->wo, att));
    struct ggml_tensor *logits = ggml_mul_mat(ctx, m->lm_head, h);
    ggml_set_name(logits, "logits");
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);
    return gf;
}

/* debug: prints the first cached key rows (--dump-kv) */
static void dump_kv(const struct kv_cache *kv, int n_rows, int n_embd) {
    const float *k = (const float *)kv->k->data;
    for (int r = 0; r < n_rows; r++) {
        printf("k[%d]:", r);
        for (int c = 0; c < 4 && c < n_embd; c++) printf(" %.4f", k[r * n_embd + c]); // expect-error: ggml-host-access
        printf("\n");
    }
}

static int argmax(const float *v, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) if (v[i] > v[best]) best = i;
    return best;
}

int main(int argc, char **argv) {
    struct lm_config cfg = {32, 50, 16, 0, 1};
    int n_gen = argc > 1 ? atoi(argv[1]) : 4;
    int debug_kv = argc > 2 && strcmp(argv[2], "--dump-kv") == 0;
    if (n_gen <= 0 || n_gen > cfg.n_ctx) n_gen = 4;
    if (ggml_backend_cuda_get_device_count() < 2) {
        fprintf(stderr, "need two gpus\n");
        return 1;
    }
    ggml_backend_t backend = ggml_backend_cuda_init(cfg.main_gpu);

    struct lm_model model;
    struct kv_cache kv;
    memset(&model, 0, sizeof model);
    memset(&kv, 0, sizeof kv);
    if (!model_init(&model, &cfg, ggml_backend_cuda_buffer_type(cfg.main_gpu))) return 1;
    if (!kv_init(&kv, &cfg, ggml_backend_cuda_buffer_type(cfg.kv_gpu))) return 1;

    if (debug_kv) dump_kv(&kv, 2, cfg.n_embd);
    ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    size_t meta = ggml_tensor_overhead() * 256 + ggml_graph_overhead();
    int32_t token = 3;
    float *logits = malloc((size_t)cfg.n_vocab * sizeof(float));
    for (int step = 0; step < n_gen; step++) {
        struct ggml_init_params gp = {meta, NULL, true};
        struct ggml_context *ctx0 = ggml_init(gp);
        struct ggml_cgraph *gf = build_decode(ctx0, &cfg, &model, &kv);
        if (!ggml_gallocr_alloc_graph(galloc, gf)) return 1;
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "token"), &token, 0, sizeof token);
        ggml_backend_graph_compute(backend, gf); // expect-error: ggml-backend-mismatch
        ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "logits"), logits, 0, (size_t)cfg.n_vocab * sizeof(float));
        token = argmax(logits, cfg.n_vocab);
        printf("step %d: token %d\n", step, token);
        kv.n_past++;
        ggml_free(ctx0);
    }
    free(logits);
    ggml_gallocr_free(galloc);
    ggml_backend_buffer_free(kv.buf);
    ggml_free(kv.ctx);
    ggml_backend_buffer_free(model.buf);
    ggml_free(model.ctx);
    ggml_backend_free(backend);
    return 0;
}
