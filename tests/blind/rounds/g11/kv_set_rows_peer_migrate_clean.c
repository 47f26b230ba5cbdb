// A two-GPU server that migrates a sequence: the prompt is prefilled on CUDA0, whose graph
// gathers token embeddings with ggml_get_rows (I32 token ids) and scatters the new K rows into
// the cache with ggml_set_rows (I64 cell indices, as llama.cpp's kv_idxs); the cache is then
// copied to CUDA1's cache with ggml_backend_tensor_copy (a peer copy), and decoding continues
// on CUDA1 with CUDA1's own copy of the weights.
// Tricky but correct: I32 and I64 index tensors side by side, each where its op wants it; a
// device-to-device copy between GPUs; per-device structs selected through an array index.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_VOCAB 32
#define N_EMBD 16
#define N_CELLS 16
#define N_PROMPT 5

struct replica {
    ggml_backend_t backend;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *tok_embd, *wk, *cache_k;
    ggml_gallocr_t galloc;
};

static void replica_init(struct replica *r, int device) {
    r->backend = ggml_backend_cuda_init(device);
    struct ggml_init_params ip = {ggml_tensor_overhead() * 3, NULL, true};
    r->ctx = ggml_init(ip);
    r->tok_embd = ggml_new_tensor_2d(r->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    r->wk = ggml_new_tensor_2d(r->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    r->cache_k = ggml_new_tensor_2d(r->ctx, GGML_TYPE_F32, N_EMBD, N_CELLS);
    r->buf = ggml_backend_alloc_ctx_tensors(r->ctx, r->backend);
    ggml_backend_buffer_clear(r->buf, 0);
    r->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(r->backend));
}

static void replica_free(struct replica *r) {
    ggml_gallocr_free(r->galloc);
    ggml_backend_buffer_free(r->buf);
    ggml_free(r->ctx);
    ggml_backend_free(r->backend);
}

static void load_weights(struct replica *r) {
    float e[N_EMBD * N_VOCAB], w[N_EMBD * N_EMBD];
    for (int i = 0; i < N_EMBD * N_VOCAB; i++) e[i] = (float)(i % 29) / 29.0f;
    for (int i = 0; i < N_EMBD * N_EMBD; i++) w[i] = (i % (N_EMBD + 1)) == 0 ? 1.0f : 0.01f;
    ggml_backend_tensor_set(r->tok_embd, e, 0, sizeof e);
    ggml_backend_tensor_set(r->wk, w, 0, sizeof w);
}

/* writes the K rows of n tokens into cells[0..n) of r's cache */
static void store_tokens(struct replica *r, const int32_t *tokens, const int64_t *cells, int n) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n);
    struct ggml_tensor *idx = ggml_new_tensor_1d(ctx, GGML_TYPE_I64, n);
    ggml_set_input(ids);
    ggml_set_input(idx);
    struct ggml_tensor *x = ggml_get_rows(ctx, r->tok_embd, ids);
    struct ggml_tensor *k = ggml_mul_mat(ctx, r->wk, x);
    ggml_build_forward_expand(gf, ggml_set_rows(ctx, r->cache_k, k, idx));
    ggml_gallocr_alloc_graph(r->galloc, gf);
    ggml_backend_tensor_set(ids, tokens, 0, ggml_nbytes(ids));
    ggml_backend_tensor_set(idx, cells, 0, ggml_nbytes(idx));
    ggml_backend_graph_compute(r->backend, gf);
    ggml_free(ctx);
}

/* attention scores of one query token against the first n_kv cells */
static float score(struct replica *r, int32_t token, int n_kv) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
    ggml_set_input(ids);
    struct ggml_tensor *q = ggml_get_rows(ctx, r->tok_embd, ids);
    struct ggml_tensor *kv = ggml_view_2d(ctx, r->cache_k, N_EMBD, n_kv, r->cache_k->nb[1], 0);
    struct ggml_tensor *kq = ggml_soft_max(ctx, ggml_mul_mat(ctx, kv, q));
    ggml_set_output(kq);
    ggml_build_forward_expand(gf, kq);
    ggml_gallocr_alloc_graph(r->galloc, gf);
    ggml_backend_tensor_set(ids, &token, 0, sizeof token);
    ggml_backend_graph_compute(r->backend, gf);
    float p[N_CELLS];
    ggml_backend_tensor_get(kq, p, 0, (size_t)n_kv * sizeof(float));
    float best = 0.0f;
    for (int i = 0; i < n_kv; i++)
        if (p[i] > best) best = p[i];
    ggml_free(ctx);
    return best;
}

int main(int argc, char **argv) {
    (void)argv;
    if (ggml_backend_cuda_get_device_count() < 2) return 1;
    struct replica reps[2];
    for (int d = 0; d < 2; d++) {
        replica_init(&reps[d], d);
        load_weights(&reps[d]);
    }

    const int32_t prompt[N_PROMPT] = {4, 8, 15, 16, 23};
    int64_t cells[N_PROMPT];
    for (int i = 0; i < N_PROMPT; i++) cells[i] = i;
    int src = 0, dst = 1;
    if (argc > 1) { /* migrate the other way */
        src = 1;
        dst = 0;
    }
    store_tokens(&reps[src], prompt, cells, N_PROMPT);
    printf("before migration: %.4f\n", score(&reps[src], 15, N_PROMPT));

    ggml_backend_synchronize(reps[src].backend);
    ggml_backend_tensor_copy(reps[src].cache_k, reps[dst].cache_k);

    int n_kv = N_PROMPT;
    for (int32_t tok = 30; tok > 26; tok--) {
        int64_t cell = n_kv;
        store_tokens(&reps[dst], &tok, &cell, 1);
        n_kv++;
        printf("decode %d on CUDA%d: %.4f\n", tok, dst, score(&reps[dst], tok, n_kv));
    }

    for (int d = 0; d < 2; d++) replica_free(&reps[d]);
    return 0;
}
