// provenance: blind round g5
// sentence_embed: mean-pooled sentence embeddings; logs statistics of the tensors it uses.
// run-args: --sentence 3,9,14,2,7
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_VOCAB 32
#define N_EMBD 12
#define MAX_TOKENS 16

struct embedder {
    ggml_backend_t gpu;
    struct ggml_context *ctx_w;
    ggml_backend_buffer_t buf_w;
    struct ggml_tensor *tok_embd;
    struct ggml_tensor *pos_embd;
};

/* A tokenised sentence, kept in an ordinary (host-allocated) ggml context. */
struct sentence {
    struct ggml_context *ctx;
    struct ggml_tensor *ids; /* I32 [n] */
    struct ggml_tensor *weights; /* F32 [n], pooling weights */
    int n;
};

static void print_tensor_stats(const char *label, const struct ggml_tensor *t) {
    int n = (int)ggml_nelements(t);
    double sum = 0.0, mx = -1e30;
    for (int i = 0; i < n; i++) {
        double v = ggml_get_f32_1d(t, i); // expect-error: ggml-host-access
        sum += v;
        if (v > mx) mx = v;
    }
    printf("%-16s %-6s n=%-4d mean=%8.4f max=%8.4f\n", label, ggml_type_name(t->type), n, sum / n, mx);
}

static int parse_sentence(const char *s, int *ids, int max) {
    int n = 0;
    while (*s && n < max) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s) break;
        ids[n++] = (int)(v < 0 ? 0 : v % N_VOCAB);
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static int sentence_init(struct sentence *st, const int *ids, int n) {
    struct ggml_init_params ip = { 2 * ggml_tensor_overhead() + 2 * MAX_TOKENS * 4 + 256, NULL, false };
    st->ctx = ggml_init(ip);
    if (!st->ctx) return -1;
    st->n = n;
    st->ids = ggml_new_tensor_1d(st->ctx, GGML_TYPE_I32, n);
    st->weights = ggml_new_tensor_1d(st->ctx, GGML_TYPE_F32, n);
    for (int i = 0; i < n; i++) {
        ggml_set_i32_1d(st->ids, i, ids[i]);
        ggml_set_f32_1d(st->weights, i, 1.0f / (float)n);
    }
    return 0;
}

static int embedder_init(struct embedder *e) {
    e->gpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    if (!e->gpu) {
        fprintf(stderr, "no GPU\n");
        return -1;
    }
    struct ggml_init_params ip = { 2 * ggml_tensor_overhead(), NULL, true };
    e->ctx_w = ggml_init(ip);
    e->tok_embd = ggml_new_tensor_2d(e->ctx_w, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    e->pos_embd = ggml_new_tensor_2d(e->ctx_w, GGML_TYPE_F32, N_EMBD, MAX_TOKENS);
    e->buf_w = ggml_backend_alloc_ctx_tensors(e->ctx_w, e->gpu);
    if (!e->buf_w) return -1;

    float tok[N_EMBD * N_VOCAB], pos[N_EMBD * MAX_TOKENS];
    for (int i = 0; i < N_EMBD * N_VOCAB; i++) tok[i] = sinf((float)i * 0.29f);
    for (int i = 0; i < N_EMBD * MAX_TOKENS; i++) pos[i] = 0.1f * cosf((float)i * 0.5f);
    ggml_backend_tensor_set(e->tok_embd, tok, 0, sizeof tok);
    ggml_backend_tensor_set(e->pos_embd, pos, 0, sizeof pos);
    return 0;
}

static void embed(struct embedder *e, const struct sentence *st, float *out) {
    size_t meta = ggml_tensor_overhead() * 32 + ggml_graph_overhead();
    struct ggml_init_params gp = { meta, NULL, true };
    struct ggml_context *ctx = ggml_init(gp);

    struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, st->n);
    struct ggml_tensor *w = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, st->n, 1);
    ggml_set_input(ids);
    ggml_set_input(w);
    struct ggml_tensor *x = ggml_get_rows(ctx, e->tok_embd, ids); /* [N_EMBD, n] */
    struct ggml_tensor *p = ggml_view_2d(ctx, e->pos_embd, N_EMBD, st->n, e->pos_embd->nb[1], 0);
    x = ggml_add(ctx, x, p);
    struct ggml_tensor *xt = ggml_cont(ctx, ggml_transpose(ctx, x)); /* [n, N_EMBD] */
    struct ggml_tensor *pooled = ggml_mul_mat(ctx, xt, w);          /* [N_EMBD, 1] */
    pooled = ggml_l2_norm(ctx, pooled, 1e-6f);
    ggml_set_output(pooled);

    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, pooled);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(e->gpu));
    ggml_gallocr_alloc_graph(ga, gf);
    ggml_backend_tensor_set(ids, st->ids->data, 0, ggml_nbytes(ids));
    ggml_backend_tensor_set(w, st->weights->data, 0, ggml_nbytes(w));
    ggml_backend_graph_compute(e->gpu, gf);
    ggml_backend_tensor_get(pooled, out, 0, ggml_nbytes(pooled));
    ggml_gallocr_free(ga);
    ggml_free(ctx);
}

int main(int argc, char **argv) {
    const char *text = "1,2,3";
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--sentence")) text = argv[i + 1];

    int ids[MAX_TOKENS];
    int n = parse_sentence(text, ids, MAX_TOKENS);
    if (n == 0) {
        ids[0] = 0;
        n = 1;
    }

    struct embedder emb;
    memset(&emb, 0, sizeof emb);
    if (embedder_init(&emb) != 0) return 1;

    struct sentence st;
    if (sentence_init(&st, ids, n) != 0) return 1;
    printf("input ids       ");
    for (int i = 0; i < st.n; i++) printf(" %d", ggml_get_i32_1d(st.ids, i));
    printf("\n");
    print_tensor_stats("pool weights", st.weights);
    print_tensor_stats("token_embd", emb.tok_embd);

    float out[N_EMBD];
    embed(&emb, &st, out);
    printf("embedding:");
    for (int i = 0; i < N_EMBD; i++) printf(" %.3f", out[i]);
    printf("\n");

    ggml_free(st.ctx);
    ggml_backend_buffer_free(emb.buf_w);
    ggml_free(emb.ctx_w);
    ggml_backend_free(emb.gpu);
    return 0;
}
