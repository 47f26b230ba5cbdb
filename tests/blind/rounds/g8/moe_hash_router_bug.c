// Mixture-of-experts FFN with hash routing (each token goes to experts chosen by hashing its id,
// as in hash-layer MoE models), two layers, experts stacked in 3-D weight tensors and applied
// with ggml_mul_mat_id. Weights and graph live on the first GPU the registry reports.
// run-args: --tokens 6 --top-k 2
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml.h"

#define N_VOCAB 50
#define N_EMBD 16
#define N_FF 32
#define N_EXPERT 4
#define N_LAYER 2

struct moe_layer {
    struct ggml_tensor *up_exps;   // [N_EMBD, N_FF, N_EXPERT]
    struct ggml_tensor *down_exps; // [N_FF, N_EMBD, N_EXPERT]
};

struct moe_model {
    struct ggml_tensor *tok_embd;
    struct moe_layer layers[N_LAYER];
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    ggml_backend_t backend;
};

struct moe_batch {
    int n_tokens;
    int top_k;
    int32_t tokens[64];
    int64_t routes[64 * N_EXPERT]; // [top_k, n_tokens]
};

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static void hash_route(struct moe_batch *b, int layer) {
    for (int t = 0; t < b->n_tokens; t++) {
        uint64_t h = mix64((uint64_t)b->tokens[t] * 31u + (uint64_t)layer);
        int first = (int)(h % N_EXPERT);
        for (int k = 0; k < b->top_k; k++) b->routes[t * b->top_k + k] = (first + k) % N_EXPERT;
    }
}

static void init_weight(struct ggml_tensor *t, float scale) {
    size_t n = (size_t)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) v[i] = scale * sinf(0.011f * (float)(i * 7 + 3));
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

static int model_load(struct moe_model *m) {
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!dev) dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    m->backend = ggml_backend_dev_init(dev, NULL);
    struct ggml_init_params ip = {ggml_tensor_overhead() * (1 + 2 * N_LAYER), NULL, true};
    m->ctx = ggml_init(ip);
    m->tok_embd = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    for (int il = 0; il < N_LAYER; il++) {
        m->layers[il].up_exps = ggml_new_tensor_3d(m->ctx, GGML_TYPE_F32, N_EMBD, N_FF, N_EXPERT);
        m->layers[il].down_exps = ggml_new_tensor_3d(m->ctx, GGML_TYPE_F32, N_FF, N_EMBD, N_EXPERT);
    }
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, m->backend);
    if (!m->buf) return 1;
    init_weight(m->tok_embd, 1.0f);
    for (int il = 0; il < N_LAYER; il++) {
        init_weight(m->layers[il].up_exps, 0.2f);
        init_weight(m->layers[il].down_exps, 0.2f);
    }
    return 0;
}

// the routing table of one layer as a graph input, same element type as the host table
static struct ggml_tensor *new_route_input(struct ggml_context *ctx, const struct moe_batch *b, int il) {
    struct ggml_tensor *ids = ggml_new_tensor_2d(ctx, GGML_TYPE_I64, b->top_k, b->n_tokens);
    char name[32];
    snprintf(name, sizeof name, "routes.%d", il);
    ggml_set_name(ids, name);
    ggml_set_input(ids);
    return ids;
}

static struct ggml_tensor *build_moe_ffn(struct ggml_context *ctx, const struct moe_layer *L,
                                         struct ggml_tensor *cur, struct ggml_tensor *ids, int top_k) {
    const int64_t n_tokens = cur->ne[1];
    struct ggml_tensor *x = ggml_reshape_3d(ctx, cur, N_EMBD, 1, n_tokens);
    struct ggml_tensor *h = ggml_mul_mat_id(ctx, L->up_exps, x, ids); // expect-error: ggml-type-mismatch
    h = ggml_gelu(ctx, h);                                            // [N_FF, top_k, n_tokens]
    struct ggml_tensor *y = ggml_mul_mat_id(ctx, L->down_exps, h, ids); // [N_EMBD, top_k, n_tokens]
    struct ggml_tensor *acc = NULL;
    for (int k = 0; k < top_k; k++) {
        struct ggml_tensor *slot = ggml_view_2d(ctx, y, N_EMBD, n_tokens, y->nb[2], (size_t)k * y->nb[1]);
        acc = acc ? ggml_add(ctx, acc, slot) : slot;
    }
    return ggml_scale(ctx, acc, 1.0f / (float)top_k);
}

static struct ggml_cgraph *build_graph(struct ggml_context *ctx, const struct moe_model *m,
                                       const struct moe_batch *b) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *tok = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, b->n_tokens);
    ggml_set_name(tok, "tokens");
    ggml_set_input(tok);
    struct ggml_tensor *cur = ggml_get_rows(ctx, m->tok_embd, tok);
    for (int il = 0; il < N_LAYER; il++) {
        struct ggml_tensor *ids = new_route_input(ctx, b, il);
        struct ggml_tensor *ffn = build_moe_ffn(ctx, &m->layers[il], ggml_rms_norm(ctx, cur, 1e-5f), ids, b->top_k);
        cur = ggml_add(ctx, cur, ffn);
    }
    ggml_set_name(cur, "hidden");
    ggml_build_forward_expand(gf, cur);
    return gf;
}

static void set_route_inputs(struct ggml_cgraph *gf, struct moe_batch *b) {
    for (int il = 0; il < N_LAYER; il++) {
        char name[32];
        snprintf(name, sizeof name, "routes.%d", il);
        hash_route(b, il);
        struct ggml_tensor *ids = ggml_graph_get_tensor(gf, name);
        ggml_backend_tensor_set(ids, b->routes, 0, ggml_nbytes(ids));
    }
}

int main(int argc, char **argv) {
    struct moe_batch b = {.n_tokens = 4, .top_k = 1};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--tokens") == 0) b.n_tokens = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--top-k") == 0) b.top_k = atoi(argv[i + 1]);
    }
    if (b.n_tokens < 1 || b.n_tokens > 64) b.n_tokens = 4;
    if (b.top_k < 1 || b.top_k > N_EXPERT) b.top_k = 1;
    for (int t = 0; t < b.n_tokens; t++) b.tokens[t] = (t * 17 + 5) % N_VOCAB;

    struct moe_model m;
    if (model_load(&m)) return 1;
    printf("moe: %d tokens, top-%d of %d experts on %s\n", b.n_tokens, b.top_k, N_EXPERT,
           ggml_backend_name(m.backend));

    struct ggml_init_params gp = {ggml_tensor_overhead() * 128 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(gp);
    struct ggml_cgraph *gf = build_graph(ctx, &m, &b);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.backend));
    if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "tokens"), b.tokens, 0, sizeof(int32_t) * (size_t)b.n_tokens);
    set_route_inputs(gf, &b);
    if (ggml_backend_graph_compute(m.backend, gf) != GGML_STATUS_SUCCESS) return 1;

    struct ggml_tensor *hid = ggml_graph_get_tensor(gf, "hidden");
    float *out = malloc(ggml_nbytes(hid));
    ggml_backend_tensor_get(hid, out, 0, ggml_nbytes(hid));
    for (int t = 0; t < b.n_tokens; t++) printf("moe: token %2d -> h[0] = %+.5f\n", b.tokens[t], out[t * N_EMBD]);
    free(out);

    ggml_gallocr_free(ga);
    ggml_free(ctx);
    ggml_backend_buffer_free(m.buf);
    ggml_free(m.ctx);
    ggml_backend_free(m.backend);
    return 0;
}
