// provenance: blind round g6
// run-args: attn 6
// A tiny rope attention block with two entry points: "attn" runs rotary self-attention over
// a prompt, "logits" runs the output head over a learned soft prompt followed by the input.
// Positions are kept as floats "because they get scaled later"; the converter wrote the soft
// prompt in f16 to save space.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct attn_hparams {
    int n_embd;
    int n_head;
    int n_rot;
    int n_vocab;
    int n_prompt;
};

struct attn_model {
    struct attn_hparams hp;
    struct ggml_tensor *wq;
    struct ggml_tensor *wk;
    struct ggml_tensor *wv;
    struct ggml_tensor *out_w;  /* [n_embd, n_vocab] */
    struct ggml_tensor *prompt; /* f16 [n_embd, n_prompt] */
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
};

static void load_random(struct ggml_tensor *t, unsigned seed) {
    size_t n = (size_t)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    unsigned s = seed;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        v[i] = ((float)((s >> 16) & 0x7fff) / 32768.0f - 0.5f) * 0.2f;
    }
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

static void model_create(struct attn_model *m, ggml_backend_t backend) {
    const struct attn_hparams *hp = &m->hp;
    struct ggml_init_params ip = {ggml_tensor_overhead() * 5, NULL, true};
    m->ctx = ggml_init(ip);
    m->wq = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp->n_embd, hp->n_embd);
    m->wk = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp->n_embd, hp->n_embd);
    m->wv = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp->n_embd, hp->n_embd);
    m->out_w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, hp->n_embd, hp->n_vocab);
    m->prompt = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F16, hp->n_embd, hp->n_prompt);
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
    load_random(m->wq, 1);
    load_random(m->wk, 2);
    load_random(m->wv, 3);
    load_random(m->out_w, 4);
    size_t np = (size_t)ggml_nelements(m->prompt);
    float *pf = malloc(np * sizeof(float));
    ggml_fp16_t *ph = malloc(np * sizeof(ggml_fp16_t));
    for (size_t i = 0; i < np; i++) pf[i] = 0.01f * (float)(i % 17);
    ggml_fp32_to_fp16_row(pf, ph, (int64_t)np);
    ggml_backend_tensor_set(m->prompt, ph, 0, ggml_nbytes(m->prompt));
    free(ph);
    free(pf);
}

static struct ggml_tensor *new_input(struct ggml_context *ctx, enum ggml_type type, int64_t n0, int64_t n1, const char *name) {
    struct ggml_tensor *t = n1 > 0 ? ggml_new_tensor_2d(ctx, type, n0, n1) : ggml_new_tensor_1d(ctx, type, n0);
    ggml_set_name(t, name);
    ggml_set_input(t);
    return t;
}

static struct ggml_cgraph *build_attn(struct ggml_context *ctx, const struct attn_model *m, int n_tok) {
    const struct attn_hparams *hp = &m->hp;
    const int head_dim = hp->n_embd / hp->n_head;
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = new_input(ctx, GGML_TYPE_F32, hp->n_embd, n_tok, "x");
    struct ggml_tensor *pos = new_input(ctx, GGML_TYPE_F32, n_tok, 0, "pos");

    struct ggml_tensor *q = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, m->wq, x), head_dim, hp->n_head, n_tok);
    struct ggml_tensor *k = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, m->wk, x), head_dim, hp->n_head, n_tok);
    struct ggml_tensor *v = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, m->wv, x), head_dim, hp->n_head, n_tok);
    q = ggml_rope(ctx, q, pos, hp->n_rot, 0); // expect-error: ggml-type-mismatch
    k = ggml_rope(ctx, k, pos, hp->n_rot, 0);

    q = ggml_permute(ctx, q, 0, 2, 1, 3);
    k = ggml_permute(ctx, k, 0, 2, 1, 3);
    struct ggml_tensor *kq = ggml_mul_mat(ctx, k, q);
    kq = ggml_soft_max_ext(ctx, kq, NULL, 1.0f / sqrtf((float)head_dim), 0.0f);
    struct ggml_tensor *vt = ggml_cont(ctx, ggml_permute(ctx, v, 1, 2, 0, 3));
    struct ggml_tensor *kqv = ggml_mul_mat(ctx, vt, kq);
    kqv = ggml_permute(ctx, kqv, 0, 2, 1, 3);
    struct ggml_tensor *out = ggml_cont_2d(ctx, kqv, hp->n_embd, n_tok);
    ggml_set_name(out, "attn_out");
    ggml_build_forward_expand(gf, out);
    return gf;
}

static struct ggml_cgraph *build_logits(struct ggml_context *ctx, const struct attn_model *m, int n_tok) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *h = new_input(ctx, GGML_TYPE_F32, m->hp.n_embd, n_tok, "x");
    struct ggml_tensor *seq = ggml_concat(ctx, m->prompt, h, 1); // expect-error: ggml-type-mismatch
    struct ggml_tensor *logits = ggml_mul_mat(ctx, m->out_w, seq);
    ggml_set_name(logits, "logits");
    ggml_build_forward_expand(gf, logits);
    return gf;
}

static void print_hparams(const struct attn_hparams *hp, const char *mode, int n_tok) {
    printf("mode=%s n_tok=%d n_embd=%d n_head=%d n_rot=%d n_vocab=%d\n", mode, n_tok, hp->n_embd,
           hp->n_head, hp->n_rot, hp->n_vocab);
}

static void summarize(const float *v, int64_t n) {
    double s = 0.0, s2 = 0.0;
    for (int64_t i = 0; i < n; i++) {
        s += v[i];
        s2 += (double)v[i] * v[i];
    }
    double mean = s / (double)n;
    printf("  mean %.6f, rms %.6f over %lld values\n", mean, sqrt(s2 / (double)n), (long long)n);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "attn";
    int n_tok = argc > 2 ? atoi(argv[2]) : 4;
    if (n_tok < 1 || n_tok > 32) n_tok = 4;

    ggml_backend_t backend = ggml_backend_init_best();
    struct attn_model m;
    memset(&m, 0, sizeof m);
    m.hp.n_embd = 32;
    m.hp.n_head = 4;
    m.hp.n_rot = 8;
    m.hp.n_vocab = 40;
    m.hp.n_prompt = 2;
    model_create(&m, backend);
    print_hparams(&m.hp, mode, n_tok);

    struct ggml_init_params gp = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_cgraph *gf = strcmp(mode, "logits") == 0 ? build_logits(ctx0, &m, n_tok) : build_attn(ctx0, &m, n_tok);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);
    float *x = malloc((size_t)(m.hp.n_embd * n_tok) * sizeof(float));
    for (int i = 0; i < m.hp.n_embd * n_tok; i++) x[i] = cosf(0.1f * (float)i);
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "x"), x, 0, (size_t)(m.hp.n_embd * n_tok) * sizeof(float));
    struct ggml_tensor *pos = ggml_graph_get_tensor(gf, "pos");
    if (pos) {
        float p[32];
        for (int i = 0; i < n_tok; i++) p[i] = (float)i;
        ggml_backend_tensor_set(pos, p, 0, (size_t)n_tok * sizeof(float));
    }
    ggml_backend_graph_compute(backend, gf);
    struct ggml_tensor *res = ggml_graph_node(gf, -1);
    float first;
    ggml_backend_tensor_get(res, &first, 0, sizeof first);
    printf("%s: %s[0] = %.5f\n", mode, ggml_get_name(res), first);
    float *all = malloc(ggml_nbytes(res));
    ggml_backend_tensor_get(res, all, 0, ggml_nbytes(res));
    summarize(all, ggml_nelements(res));
    free(all);

    free(x);
    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    ggml_backend_buffer_free(m.buf);
    ggml_free(m.ctx);
    ggml_backend_free(backend);
    return 0;
}
