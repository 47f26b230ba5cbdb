// Speculative decoding: a small draft model proposes n_draft tokens greedily, the target model
// scores the whole draft in one batch and keeps the longest agreeing prefix. The target runs on
// GPU 0 and the draft on GPU 1; both use the same vocabulary, so the draft borrows the target's
// token embedding table instead of holding a second copy.
// run-args: --n-predict 8 --n-draft 3
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_VOCAB 40
#define N_EMBD 16
#define MAX_CTX 64

struct spec_params {
    int target_gpu;
    int draft_gpu;
    int n_predict;
    int n_draft;
};

struct lm {
    const char *name;
    int n_vocab;
    int n_layer;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    ggml_backend_t backend;
    ggml_gallocr_t galloc;
    struct ggml_tensor *tok_embd;   // [N_EMBD, n_vocab]
    struct ggml_tensor *ffn[4];     // [N_EMBD, N_EMBD]
    struct ggml_tensor *output;     // [N_EMBD, n_vocab]
};

static void fill(struct ggml_tensor *t, float scale, int seed) {
    size_t n = (size_t)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) v[i] = scale * sinf(0.173f * (float)(i + 1) + (float)seed);
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

// shared: a model whose token embeddings the new one may borrow (same vocabulary)
static int lm_load(struct lm *m, const char *name, ggml_backend_t backend, int n_layer, const struct lm *shared) {
    m->name = name;
    m->n_vocab = N_VOCAB;
    m->n_layer = n_layer;
    m->backend = backend;
    struct ggml_init_params ip = {ggml_tensor_overhead() * 8, NULL, true};
    m->ctx = ggml_init(ip);
    int borrow = shared && shared->n_vocab == m->n_vocab;
    m->tok_embd = borrow ? shared->tok_embd : ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    for (int il = 0; il < n_layer; il++) m->ffn[il] = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    m->output = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
    if (!m->buf) return 1;
    if (!borrow) fill(m->tok_embd, 1.0f, 1);
    for (int il = 0; il < n_layer; il++) fill(m->ffn[il], 0.3f, 10 + il);
    fill(m->output, 0.4f, 2);
    m->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    return 0;
}

static void lm_free(struct lm *m) {
    ggml_gallocr_free(m->galloc);
    ggml_backend_buffer_free(m->buf);
    ggml_free(m->ctx);
}

// logits for the last n tokens of toks[0..n_past+n), written to out [n, n_vocab]
static int lm_eval(struct lm *m, const int32_t *toks, int n, float *out) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *inp = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n);
    ggml_set_input(inp);
    struct ggml_tensor *cur = ggml_get_rows(ctx, m->tok_embd, inp);
    for (int il = 0; il < m->n_layer; il++) cur = ggml_add(ctx, cur, ggml_gelu(ctx, ggml_mul_mat(ctx, m->ffn[il], cur)));
    struct ggml_tensor *logits = ggml_mul_mat(ctx, m->output, ggml_rms_norm(ctx, cur, 1e-6f));
    ggml_set_output(logits);
    ggml_build_forward_expand(gf, logits);
    if (!ggml_gallocr_alloc_graph(m->galloc, gf)) return 1;
    ggml_backend_tensor_set(inp, toks, 0, sizeof(int32_t) * (size_t)n);
    enum ggml_status st = ggml_backend_graph_compute(m->backend, gf); // expect-error: ggml-backend-mismatch
    if (st == GGML_STATUS_SUCCESS) ggml_backend_tensor_get(logits, out, 0, ggml_nbytes(logits));
    ggml_free(ctx);
    return st != GGML_STATUS_SUCCESS;
}

static int32_t greedy(const float *logits, int n_vocab) {
    int32_t best = 0;
    for (int i = 1; i < n_vocab; i++)
        if (logits[i] > logits[best]) best = i;
    return best;
}

static int draft_propose(struct lm *draft, int32_t last, int n_draft, int32_t *proposal) {
    float logits[N_VOCAB];
    int32_t tok = last;
    for (int i = 0; i < n_draft; i++) {
        if (lm_eval(draft, &tok, 1, logits)) return 1;
        tok = greedy(logits, N_VOCAB);
        proposal[i] = tok;
    }
    return 0;
}

// returns how many draft tokens the target accepts, and its own next token in *next
static int target_verify(struct lm *target, int32_t last, const int32_t *proposal, int n_draft, int32_t *next) {
    int32_t batch[MAX_CTX];
    batch[0] = last;
    memcpy(batch + 1, proposal, sizeof(int32_t) * (size_t)n_draft);
    float *logits = malloc(sizeof(float) * N_VOCAB * (size_t)(n_draft + 1));
    if (lm_eval(target, batch, n_draft + 1, logits)) return -1;
    int n_accept = 0;
    while (n_accept < n_draft && greedy(logits + n_accept * N_VOCAB, N_VOCAB) == proposal[n_accept]) n_accept++;
    *next = greedy(logits + n_accept * N_VOCAB, N_VOCAB);
    free(logits);
    return n_accept;
}

int main(int argc, char **argv) {
    struct spec_params p = {.target_gpu = 0, .draft_gpu = 1, .n_predict = 6, .n_draft = 4};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--n-predict") == 0) p.n_predict = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--n-draft") == 0) p.n_draft = atoi(argv[i + 1]);
    }
    if (p.n_draft < 1 || p.n_draft > 8) p.n_draft = 4;
    if (p.n_predict < 1 || p.n_predict > 32) p.n_predict = 6;

    struct lm target, draft;
    if (lm_load(&target, "target", ggml_backend_cuda_init(p.target_gpu), 3, NULL)) return 1;
    if (lm_load(&draft, "draft", ggml_backend_cuda_init(p.draft_gpu), 1, &target)) return 1;

    int32_t out[MAX_CTX];
    int n_out = 0, n_drafted = 0, n_accepted = 0;
    int32_t last = 7;
    while (n_out < p.n_predict) {
        int32_t proposal[8], next = 0;
        if (draft_propose(&draft, last, p.n_draft, proposal)) return 1;
        int n_acc = target_verify(&target, last, proposal, p.n_draft, &next);
        if (n_acc < 0) return 1;
        n_drafted += p.n_draft;
        n_accepted += n_acc;
        for (int i = 0; i < n_acc && n_out < p.n_predict; i++) out[n_out++] = proposal[i];
        if (n_out < p.n_predict) out[n_out++] = next;
        last = out[n_out - 1];
    }
    printf("spec: ");
    for (int i = 0; i < n_out; i++) printf("%d ", out[i]);
    printf("\nspec: accepted %d of %d drafted tokens\n", n_accepted, n_drafted);

    ggml_backend_t tb = target.backend, db = draft.backend;
    lm_free(&draft);
    lm_free(&target);
    ggml_backend_free(db);
    ggml_backend_free(tb);
    return 0;
}
