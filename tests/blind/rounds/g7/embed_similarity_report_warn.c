// run-env: EMBD_BACKEND=gpu
//
// Sentence embeddings (mean-pooled token embeddings, projection, L2 norm) and their cosine
// similarity matrix. EMBD_BACKEND picks cpu (default) or gpu; the report walks the similarity
// matrix through its data pointer.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_VOCAB 50
#define N_EMBD 24
#define N_OUT 16
#define SEQ_LEN 6

struct embedder {
    ggml_backend_t backend;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *tok_embd;
    struct ggml_tensor *proj;
};

struct sim_result {
    struct ggml_context *ctx;
    ggml_gallocr_t alloc;
    struct ggml_tensor *sim; // [n_sent, n_sent]
    int n_sent;
};

static const char *k_sentences[] = {
    "the cat sat on the mat",
    "a cat is sitting on a mat",
    "stock prices fell sharply today",
    "markets dropped this afternoon",
    "the dog chased the ball",
};

static int32_t hash_word(const char *w, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t) w[i]) * 16777619u;
    return (int32_t) (h % N_VOCAB);
}

static void tokenize(const char *text, int32_t *out) {
    int n = 0;
    const char *p = text;
    while (*p && n < SEQ_LEN) {
        while (*p == ' ') p++;
        const char *s = p;
        while (*p && *p != ' ') p++;
        if (p > s) out[n++] = hash_word(s, (size_t) (p - s));
    }
    while (n < SEQ_LEN) out[n++] = 0;
}

static ggml_backend_t backend_from_env(void) {
    const char *want = getenv("EMBD_BACKEND");
    if (want && strcmp(want, "gpu") == 0) {
        ggml_backend_t be = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
        if (be) return be;
        fprintf(stderr, "no GPU, falling back to the CPU\n");
    }
    return ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
}

static int embedder_init(struct embedder *e) {
    e->backend = backend_from_env();
    struct ggml_init_params ip = { 2 * ggml_tensor_overhead(), NULL, true };
    e->ctx = ggml_init(ip);
    e->tok_embd = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    e->proj = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, N_EMBD, N_OUT);
    e->buf = ggml_backend_alloc_ctx_tensors(e->ctx, e->backend);
    if (!e->buf) return -1;

    float *h = malloc(sizeof(float) * N_EMBD * N_VOCAB);
    for (int i = 0; i < N_EMBD * N_VOCAB; i++) h[i] = (float) ((i * 7919) % 101) / 101.0f - 0.5f;
    ggml_backend_tensor_set(e->tok_embd, h, 0, ggml_nbytes(e->tok_embd));
    for (int i = 0; i < N_EMBD * N_OUT; i++) h[i] = (i % (N_EMBD + 1) == 0) ? 1.0f : 0.05f;
    ggml_backend_tensor_set(e->proj, h, 0, ggml_nbytes(e->proj));
    free(h);
    return 0;
}

static int compute_similarity(struct embedder *e, const int32_t *tokens, int n_sent, struct sim_result *res) {
    struct ggml_init_params ip = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true };
    res->ctx = ggml_init(ip);
    res->n_sent = n_sent;
    struct ggml_context *ctx = res->ctx;
    struct ggml_cgraph *gf = ggml_new_graph(ctx);

    struct ggml_tensor *inp = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, SEQ_LEN * n_sent);
    ggml_set_input(inp);
    struct ggml_tensor *x = ggml_get_rows(ctx, e->tok_embd, inp);                  // [E, L*S]
    x = ggml_reshape_3d(ctx, x, N_EMBD, SEQ_LEN, n_sent);
    x = ggml_cont(ctx, ggml_permute(ctx, x, 1, 0, 2, 3));                          // [L, E, S]
    x = ggml_reshape_2d(ctx, ggml_mean(ctx, x), N_EMBD, n_sent);                   // [E, S]
    x = ggml_l2_norm(ctx, ggml_mul_mat(ctx, e->proj, x), 1e-6f);                   // [O, S]
    res->sim = ggml_mul_mat(ctx, x, x);                                            // [S, S]
    ggml_set_output(res->sim);
    ggml_build_forward_expand(gf, res->sim);

    res->alloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(e->backend));
    if (!ggml_gallocr_alloc_graph(res->alloc, gf)) return -1;
    ggml_backend_tensor_set(inp, tokens, 0, ggml_nbytes(inp));
    if (ggml_backend_is_cpu(e->backend)) ggml_backend_cpu_set_n_threads(e->backend, 1);
    return ggml_backend_graph_compute(e->backend, gf) == GGML_STATUS_SUCCESS ? 0 : -1;
}

static void print_nearest(const struct sim_result *res) {
    for (int i = 0; i < res->n_sent; i++) {
        const float *row = (const float *) res->sim->data + (size_t) i * res->sim->ne[0];
        int best = -1;
        float best_v = -2.0f;
        for (int j = 0; j < res->n_sent; j++) {
            if (j == i) continue;
            if (row[j] > best_v) { // expect-warning: ggml-host-access
                best_v = row[j];
                best = j;
            }
        }
        printf("%-36s -> %-36s (%.3f)\n", k_sentences[i], k_sentences[best], best_v);
    }
}

int main(void) {
    const int n_sent = (int) (sizeof k_sentences / sizeof k_sentences[0]);
    int32_t *tokens = malloc(sizeof(int32_t) * SEQ_LEN * n_sent);
    for (int s = 0; s < n_sent; s++) tokenize(k_sentences[s], tokens + s * SEQ_LEN);

    struct embedder e;
    memset(&e, 0, sizeof e);
    if (embedder_init(&e) != 0) {
        fprintf(stderr, "init failed\n");
        return 1;
    }
    printf("backend %s\n", ggml_backend_name(e.backend));

    struct sim_result res;
    memset(&res, 0, sizeof res);
    if (compute_similarity(&e, tokens, n_sent, &res) != 0) {
        fprintf(stderr, "compute failed\n");
        return 1;
    }
    print_nearest(&res);

    ggml_gallocr_free(res.alloc);
    ggml_free(res.ctx);
    ggml_backend_buffer_free(e.buf);
    ggml_free(e.ctx);
    ggml_backend_free(e.backend);
    free(tokens);
    return 0;
}
