// Beam search over a small recurrent decoder. All beams advance in one graph: the beams'
// states (columns of one state matrix in device memory) are first reordered by the parents
// chosen at the previous step (ggml_get_rows with the parent ids), then updated and scored;
// the updated states are written back with ggml_cpy. Log-probabilities come back to the host
// in place when the compute buffer is host memory, otherwise through tensor_get.
// run-env: BEAM_DEVICE=CUDA1
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml.h"

#define N_VOCAB 24
#define N_EMBD 16
#define N_BEAM 3
#define MAX_LEN 12

struct decoder {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *emb, *w_state, *head; // [E,V] [E,E] [E,V]
    struct ggml_tensor *state;                // [E, N_BEAM]
};

struct beam {
    int32_t toks[MAX_LEN];
    int len;
    float score;
};

static void fill(struct ggml_tensor *t, float scale, float freq) {
    size_t n = (size_t)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) v[i] = scale * sinf(freq * (float)(i + 2));
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

static void decoder_init(struct decoder *d, ggml_backend_t backend) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 4, NULL, true};
    d->ctx = ggml_init(ip);
    d->emb = ggml_new_tensor_2d(d->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    d->w_state = ggml_new_tensor_2d(d->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    d->head = ggml_new_tensor_2d(d->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    d->state = ggml_new_tensor_2d(d->ctx, GGML_TYPE_F32, N_EMBD, N_BEAM);
    d->buf = ggml_backend_alloc_ctx_tensors(d->ctx, backend);
    fill(d->emb, 1.0f, 0.31f);
    fill(d->w_state, 0.25f, 0.17f);
    fill(d->head, 0.6f, 0.05f);
    ggml_backend_tensor_memset(d->state, 0, 0, ggml_nbytes(d->state));
}

static struct ggml_cgraph *build_step(struct ggml_context *ctx, const struct decoder *d) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *parents = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_BEAM);
    struct ggml_tensor *toks = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_BEAM);
    ggml_set_name(parents, "parents");
    ggml_set_name(toks, "toks");
    ggml_set_input(parents);
    ggml_set_input(toks);
    struct ggml_tensor *prev = ggml_get_rows(ctx, d->state, parents);            // reordered
    struct ggml_tensor *h = ggml_add(ctx, ggml_mul_mat(ctx, d->w_state, prev), ggml_get_rows(ctx, d->emb, toks));
    h = ggml_tanh(ctx, h);
    struct ggml_tensor *lp = ggml_soft_max(ctx, ggml_mul_mat(ctx, d->head, h)); // [V, N_BEAM]
    lp = ggml_log(ctx, lp);
    ggml_set_name(lp, "logprobs");
    ggml_set_output(lp);
    ggml_build_forward_expand(gf, lp);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, h, d->state));
    return gf;
}

static const float *read_logprobs(struct ggml_tensor *lp, float *scratch) {
    if (ggml_backend_buffer_is_host(lp->buffer)) return (const float *)lp->data;
    ggml_backend_tensor_get(lp, scratch, 0, ggml_nbytes(lp));
    return scratch;
}

struct cand {
    float s;
    int b, t;
};

// the N_BEAM best (beam, token) extensions; parents[i] is the beam that candidate i extends
static void select_beams(const struct beam *cur, int n_live, const float *lp, struct beam *next, int32_t *parents) {
    struct cand best[N_BEAM];
    int n = 0;
    for (int b = 0; b < n_live; b++) {
        for (int t = 0; t < N_VOCAB; t++) {
            struct cand c = {cur[b].score + lp[b * N_VOCAB + t], b, t};
            if (n == N_BEAM && c.s <= best[N_BEAM - 1].s) continue;
            int k = n < N_BEAM ? n++ : N_BEAM - 1;
            for (; k > 0 && best[k - 1].s < c.s; k--) best[k] = best[k - 1];
            best[k] = c;
        }
    }
    for (int i = 0; i < N_BEAM; i++) {
        next[i] = cur[best[i].b];
        next[i].toks[next[i].len++] = best[i].t;
        next[i].score = best[i].s;
        parents[i] = best[i].b;
    }
}

int main(int argc, char **argv) {
    int max_len = argc > 1 ? atoi(argv[1]) : 6;
    if (max_len < 2 || max_len > MAX_LEN) max_len = 6;
    const char *name = getenv("BEAM_DEVICE");
    ggml_backend_dev_t dev = name ? ggml_backend_dev_by_name(name) : NULL;
    ggml_backend_t backend = dev ? ggml_backend_dev_init(dev, NULL) : ggml_backend_init_best();

    struct decoder d;
    decoder_init(&d, backend);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));

    struct beam beams[N_BEAM], next[N_BEAM];
    memset(beams, 0, sizeof beams);
    beams[0].toks[0] = 1;
    beams[0].len = 1;
    int n_live = 1;
    int32_t parents[N_BEAM] = {0, 0, 0};
    float scratch[N_VOCAB * N_BEAM];

    while (beams[0].len < max_len) {
        struct ggml_init_params ip = {ggml_tensor_overhead() * 24 + ggml_graph_overhead(), NULL, true};
        struct ggml_context *ctx = ggml_init(ip);
        struct ggml_cgraph *gf = build_step(ctx, &d);
        ggml_gallocr_alloc_graph(ga, gf);
        int32_t toks[N_BEAM];
        for (int b = 0; b < N_BEAM; b++) toks[b] = beams[b < n_live ? b : 0].toks[beams[b < n_live ? b : 0].len - 1];
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "parents"), parents, 0, sizeof parents);
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "toks"), toks, 0, sizeof toks);
        ggml_backend_graph_compute(backend, gf);
        const float *lp = read_logprobs(ggml_graph_get_tensor(gf, "logprobs"), scratch);
        select_beams(beams, n_live, lp, next, parents);
        memcpy(beams, next, sizeof beams);
        n_live = N_BEAM;
        ggml_free(ctx);
    }
    for (int b = 0; b < N_BEAM; b++) {
        printf("beam %d (%.3f):", b, beams[b].score);
        for (int i = 0; i < beams[b].len; i++) printf(" %d", beams[b].toks[i]);
        printf("\n");
    }
    printf("beam: searched on %s\n", ggml_backend_name(backend));

    ggml_gallocr_free(ga);
    ggml_backend_buffer_free(d.buf);
    ggml_free(d.ctx);
    ggml_backend_free(backend);
    return beams[0].score <= 0.0f ? 0 : 2;
}
