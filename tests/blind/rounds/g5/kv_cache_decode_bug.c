// provenance: blind round g5
// kv_cache_decode: a single-head attention decoder with a device-resident KV cache.
// run-args: --steps 3
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_EMBD 32
#define N_CTX 16

struct kv_cache {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *k; /* [N_EMBD, N_CTX] */
    struct ggml_tensor *v; /* [N_EMBD, N_CTX] */
    struct ggml_tensor *mask_pos; /* per-slot position, filled by the caller */
    int n_used;
};

struct decoder {
    ggml_backend_t backend;
    struct ggml_context *ctx_w;
    ggml_backend_buffer_t buf_w;
    struct ggml_tensor *wq, *wk, *wv, *wo;
    struct kv_cache cache;
};

static ggml_backend_t init_gpu_or_cpu(void) {
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (dev) {
        printf("using %s (%s)\n", ggml_backend_dev_name(dev), ggml_backend_dev_description(dev));
        return ggml_backend_dev_init(dev, NULL);
    }
    return ggml_backend_cpu_init();
}

static int kv_cache_init(struct kv_cache *c, ggml_backend_t backend) {
    struct ggml_init_params ip = { 8 * ggml_tensor_overhead(), NULL, true };
    c->ctx = ggml_init(ip);
    c->k = ggml_new_tensor_2d(c->ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    c->v = ggml_new_tensor_2d(c->ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    ggml_set_name(c->k, "cache_k");
    ggml_set_name(c->v, "cache_v");
    c->buf = ggml_backend_alloc_ctx_tensors(c->ctx, backend);
    if (!c->buf) return -1;
    ggml_backend_buffer_clear(c->buf, 0);
    c->n_used = 0;
    return 0;
}

/* added later for the sliding-window variant */
static void kv_cache_enable_positions(struct kv_cache *c) {
    c->mask_pos = ggml_new_tensor_1d(c->ctx, GGML_TYPE_I32, N_CTX);
    ggml_set_name(c->mask_pos, "cache_pos");
}

static void kv_cache_reset_positions(struct kv_cache *c) {
    int32_t pos[N_CTX];
    for (int i = 0; i < N_CTX; i++) pos[i] = -1;
    ggml_backend_tensor_set(c->mask_pos, pos, 0, sizeof pos); // expect-error: ggml-buffer-not-set
}

static void init_weight(struct ggml_tensor *t, int seed) {
    int n = (int)ggml_nelements(t);
    float *w = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) w[i] = 0.05f * cosf(0.11f * (float)(i * (seed + 1)));
    ggml_backend_tensor_set(t, w, 0, ggml_nbytes(t));
    free(w);
}

static int decoder_init(struct decoder *d) {
    d->backend = init_gpu_or_cpu();
    if (!d->backend) return -1;
    struct ggml_init_params ip = { 4 * ggml_tensor_overhead(), NULL, true };
    d->ctx_w = ggml_init(ip);
    d->wq = ggml_new_tensor_2d(d->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    d->wk = ggml_new_tensor_2d(d->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    d->wv = ggml_new_tensor_2d(d->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    d->wo = ggml_new_tensor_2d(d->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
    d->buf_w = ggml_backend_alloc_ctx_tensors(d->ctx_w, d->backend);
    if (!d->buf_w) return -1;
    init_weight(d->wq, 1);
    init_weight(d->wk, 2);
    init_weight(d->wv, 3);
    init_weight(d->wo, 4);
    if (kv_cache_init(&d->cache, d->backend) != 0) return -1;
    kv_cache_enable_positions(&d->cache);
    kv_cache_reset_positions(&d->cache);
    return 0;
}

/* one token: writes k/v into the cache at slot n_past, attends over slots [0, n_past] */
static struct ggml_cgraph *build_step(struct ggml_context *ctx, struct decoder *d, int n_past) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD);
    ggml_set_name(x, "x");
    ggml_set_input(x);

    struct ggml_tensor *q = ggml_mul_mat(ctx, d->wq, x);
    struct ggml_tensor *k = ggml_mul_mat(ctx, d->wk, x);
    struct ggml_tensor *v = ggml_mul_mat(ctx, d->wv, x);

    struct ggml_tensor *k_slot = ggml_view_1d(ctx, d->cache.k, N_EMBD, n_past * d->cache.k->nb[1]);
    struct ggml_tensor *v_slot = ggml_view_1d(ctx, d->cache.v, N_EMBD, n_past * d->cache.v->nb[1]);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, k, k_slot));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, v, v_slot));

    int n_kv = n_past + 1;
    struct ggml_tensor *K = ggml_view_2d(ctx, d->cache.k, N_EMBD, n_kv, d->cache.k->nb[1], 0);
    struct ggml_tensor *V = ggml_view_2d(ctx, d->cache.v, N_EMBD, n_kv, d->cache.v->nb[1], 0);

    struct ggml_tensor *att = ggml_mul_mat(ctx, K, q); /* [n_kv] */
    att = ggml_soft_max(ctx, ggml_scale(ctx, att, 1.0f / sqrtf((float)N_EMBD)));
    struct ggml_tensor *Vt = ggml_cont(ctx, ggml_transpose(ctx, V)); /* [n_kv, N_EMBD] */
    struct ggml_tensor *ctxv = ggml_mul_mat(ctx, Vt, att);
    struct ggml_tensor *out = ggml_mul_mat(ctx, d->wo, ctxv);
    ggml_set_name(out, "out");
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);
    return gf;
}

static void decoder_free(struct decoder *d) {
    if (d->cache.buf) ggml_backend_buffer_free(d->cache.buf);
    if (d->cache.ctx) ggml_free(d->cache.ctx);
    if (d->buf_w) ggml_backend_buffer_free(d->buf_w);
    if (d->ctx_w) ggml_free(d->ctx_w);
    if (d->backend) ggml_backend_free(d->backend);
}

int main(int argc, char **argv) {
    int steps = 4;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = atoi(argv[++i]);
    }
    if (steps < 1 || steps > N_CTX) steps = 4;

    struct decoder dec;
    memset(&dec, 0, sizeof dec);
    if (decoder_init(&dec) != 0) {
        fprintf(stderr, "init failed\n");
        decoder_free(&dec);
        return 1;
    }

    ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(dec.backend));
    float x[N_EMBD], y[N_EMBD];
    for (int i = 0; i < N_EMBD; i++) x[i] = 0.1f * (float)(i % 5);

    for (int t = 0; t < steps; t++) {
        size_t meta = ggml_tensor_overhead() * 64 + ggml_graph_overhead();
        struct ggml_init_params gp = { meta, NULL, true };
        struct ggml_context *ctx = ggml_init(gp);
        struct ggml_cgraph *gf = build_step(ctx, &dec, dec.cache.n_used);
        ggml_gallocr_alloc_graph(galloc, gf);
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "x"), x, 0, sizeof x);
        ggml_backend_graph_compute(dec.backend, gf);
        ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "out"), y, 0, sizeof y);
        dec.cache.n_used++;
        printf("step %d: y[0]=%.5f y[1]=%.5f\n", t, y[0], y[1]);
        memcpy(x, y, sizeof x);
        ggml_free(ctx);
    }

    ggml_gallocr_free(galloc);
    decoder_free(&dec);
    return 0;
}
