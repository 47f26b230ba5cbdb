// run-args: --n-tokens 5 --flash-attn
//
// Prompt prefill through one attention layer with an F16 KV cache on the best device.
// The causal mask is built once as F32 for soft_max_ext; --flash-attn switches the layer to
// ggml_flash_attn_ext with the same mask.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_EMBD 32
#define N_HEAD 4
#define HEAD_DIM (N_EMBD / N_HEAD)
#define N_CTX 32

struct attn_params {
    bool flash_attn;
    int n_tokens;
};

struct attn_layer {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *wq, *wk, *wv, *wo;
    struct ggml_tensor *k_cache, *v_cache; // F16 [HEAD_DIM, N_HEAD, N_CTX]
};

static void parse_args(int argc, char **argv, struct attn_params *p) {
    p->flash_attn = false;
    p->n_tokens = 4;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--flash-attn") == 0 || strcmp(argv[i], "-fa") == 0) {
            p->flash_attn = true;
        } else if (strcmp(argv[i], "--n-tokens") == 0 && i + 1 < argc) {
            p->n_tokens = atoi(argv[++i]);
        }
    }
    if (p->n_tokens < 1) p->n_tokens = 1;
    if (p->n_tokens > N_CTX) p->n_tokens = N_CTX;
}

static void set_weight(struct ggml_tensor *t, float s) {
    int64_t n = ggml_nelements(t);
    float *h = malloc(n * sizeof(float));
    for (int64_t i = 0; i < n; i++) h[i] = s * cosf(0.11f * (float) i);
    ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
    free(h);
}

static int layer_init(struct attn_layer *L, ggml_backend_t backend) {
    struct ggml_init_params ip = { 6 * ggml_tensor_overhead(), NULL, true };
    L->ctx = ggml_init(ip);
    L->wq = ggml_new_tensor_2d(L->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    L->wk = ggml_new_tensor_2d(L->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    L->wv = ggml_new_tensor_2d(L->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    L->wo = ggml_new_tensor_2d(L->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    L->k_cache = ggml_new_tensor_3d(L->ctx, GGML_TYPE_F16, HEAD_DIM, N_HEAD, N_CTX);
    L->v_cache = ggml_new_tensor_3d(L->ctx, GGML_TYPE_F16, HEAD_DIM, N_HEAD, N_CTX);
    L->buf = ggml_backend_alloc_ctx_tensors(L->ctx, backend);
    if (!L->buf) return -1;
    ggml_backend_buffer_clear(L->buf, 0);
    set_weight(L->wq, 0.3f);
    set_weight(L->wk, 0.3f);
    set_weight(L->wv, 0.2f);
    set_weight(L->wo, 0.2f);
    return 0;
}

static struct ggml_tensor *attention(struct ggml_context *ctx, struct ggml_cgraph *gf, const struct attn_layer *L,
                                     struct ggml_tensor *x, struct ggml_tensor *kq_mask, int n_tokens, bool flash) {
    const float scale = 1.0f / sqrtf((float) HEAD_DIM);
    struct ggml_tensor *q = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L->wq, x), HEAD_DIM, N_HEAD, n_tokens);
    struct ggml_tensor *k = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L->wk, x), HEAD_DIM, N_HEAD, n_tokens);
    struct ggml_tensor *v = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L->wv, x), HEAD_DIM, N_HEAD, n_tokens);

    // store into the cache (positions 0..n_tokens-1)
    ggml_build_forward_expand(gf, ggml_cpy(ctx, k, ggml_view_3d(ctx, L->k_cache, HEAD_DIM, N_HEAD, n_tokens, L->k_cache->nb[1], L->k_cache->nb[2], 0)));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, v, ggml_view_3d(ctx, L->v_cache, HEAD_DIM, N_HEAD, n_tokens, L->v_cache->nb[1], L->v_cache->nb[2], 0)));

    struct ggml_tensor *K = ggml_permute(ctx, ggml_view_3d(ctx, L->k_cache, HEAD_DIM, N_HEAD, n_tokens, L->k_cache->nb[1], L->k_cache->nb[2], 0), 0, 2, 1, 3);
    struct ggml_tensor *V = ggml_permute(ctx, ggml_view_3d(ctx, L->v_cache, HEAD_DIM, N_HEAD, n_tokens, L->v_cache->nb[1], L->v_cache->nb[2], 0), 0, 2, 1, 3);
    struct ggml_tensor *Q = ggml_permute(ctx, q, 0, 2, 1, 3); // [HEAD_DIM, n_tokens, N_HEAD]

    struct ggml_tensor *out;
    if (flash) {
        out = ggml_flash_attn_ext(ctx, Q, K, V, kq_mask, scale, 0.0f, 0.0f); // expect-warning: ggml-type-mismatch
        out = ggml_reshape_2d(ctx, out, N_EMBD, n_tokens);
    } else {
        struct ggml_tensor *kq = ggml_mul_mat(ctx, K, Q);                         // [n_kv, n_tokens, N_HEAD]
        kq = ggml_soft_max_ext(ctx, kq, kq_mask, scale, 0.0f);
        struct ggml_tensor *Vt = ggml_cont(ctx, ggml_permute(ctx, V, 1, 0, 2, 3)); // [n_kv, HEAD_DIM, N_HEAD]
        struct ggml_tensor *kqv = ggml_mul_mat(ctx, Vt, kq);                      // [HEAD_DIM, n_tokens, N_HEAD]
        out = ggml_cont(ctx, ggml_permute(ctx, kqv, 0, 2, 1, 3));
        out = ggml_reshape_2d(ctx, out, N_EMBD, n_tokens);
    }
    return ggml_mul_mat(ctx, L->wo, out);
}

static void causal_mask(float *m, int n_kv, int n_tokens) {
    for (int i = 0; i < n_tokens; i++) {
        for (int j = 0; j < n_kv; j++) m[i * n_kv + j] = j <= i ? 0.0f : -INFINITY;
    }
}

int main(int argc, char **argv) {
    struct attn_params params;
    parse_args(argc, argv, &params);
    const int n = params.n_tokens;

    ggml_backend_t backend = ggml_backend_init_best();
    struct attn_layer L;
    if (layer_init(&L, backend) != 0) {
        fprintf(stderr, "layer init failed\n");
        return 1;
    }

    struct ggml_init_params ip = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true };
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, n);
    ggml_set_input(x);
    struct ggml_tensor *kq_mask = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n, n);
    ggml_set_input(kq_mask);
    struct ggml_tensor *y = attention(ctx, gf, &L, x, kq_mask, n, params.flash_attn);
    ggml_set_output(y);
    ggml_build_forward_expand(gf, y);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;

    float *xin = malloc(sizeof(float) * N_EMBD * n);
    float *mask = malloc(sizeof(float) * n * n);
    for (int i = 0; i < N_EMBD * n; i++) xin[i] = 0.1f * sinf((float) i);
    causal_mask(mask, n, n);
    ggml_backend_tensor_set(x, xin, 0, ggml_nbytes(x));
    ggml_backend_tensor_set(kq_mask, mask, 0, ggml_nbytes(kq_mask));
    if (ggml_backend_graph_compute(backend, gf) != GGML_STATUS_SUCCESS) return 1;

    float *yout = malloc(ggml_nbytes(y));
    ggml_backend_tensor_get(y, yout, 0, ggml_nbytes(y));
    printf("%s attention on %s, %d tokens: y[0] = %.5f, y[last] = %.5f\n", params.flash_attn ? "flash" : "plain",
           ggml_backend_name(backend), n, yout[0], yout[N_EMBD * n - 1]);

    free(yout);
    free(mask);
    free(xin);
    ggml_gallocr_free(ga);
    ggml_free(ctx);
    ggml_backend_buffer_free(L.buf);
    ggml_free(L.ctx);
    ggml_backend_free(backend);
    return 0;
}
