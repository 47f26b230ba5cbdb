// provenance: blind round g6
// run-env: LM_EMBD_GPU=1
// Sentence encoder: token embeddings can be placed on another GPU through LM_EMBD_GPU
// ("the table is big"); the encoder layers live on the main GPU, and the whole graph is
// computed with one gallocr on the main GPU's backend.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct enc_params {
    int n_vocab;
    int n_embd;
    int n_layer;
    int main_gpu;
    int embd_gpu;
};

struct enc_layer {
    struct ggml_tensor *attn_norm;
    struct ggml_tensor *w_in;
    struct ggml_tensor *w_out;
};

struct encoder {
    struct enc_params p;
    struct ggml_tensor *tok_embd;
    struct enc_layer layers[4];
    struct ggml_context *ctx_embd;
    struct ggml_context *ctx_layers;
    ggml_backend_buffer_t buf_embd;
    ggml_backend_buffer_t buf_layers;
};

static int env_int(const char *name, int def) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : def;
}

static void init_tensor_data(struct ggml_tensor *t, float amp) {
    size_t n = (size_t)ggml_nelements(t);
    float *h = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) h[i] = amp * (float)((int)(i % 29) - 14) / 14.0f;
    ggml_backend_tensor_set(t, h, 0, n * sizeof(float));
    free(h);
}

static int encoder_init(struct encoder *e) {
    const struct enc_params *p = &e->p;
    struct ggml_init_params ip1 = {ggml_tensor_overhead(), NULL, true};
    e->ctx_embd = ggml_init(ip1);
    e->tok_embd = ggml_new_tensor_2d(e->ctx_embd, GGML_TYPE_F32, p->n_embd, p->n_vocab);
    ggml_set_name(e->tok_embd, "token_embd.weight");
    e->buf_embd = ggml_backend_alloc_ctx_tensors_from_buft(e->ctx_embd, ggml_backend_cuda_buffer_type(p->embd_gpu));

    struct ggml_init_params ip2 = {ggml_tensor_overhead() * 3 * 4, NULL, true};
    e->ctx_layers = ggml_init(ip2);
    for (int il = 0; il < p->n_layer; il++) {
        e->layers[il].attn_norm = ggml_new_tensor_1d(e->ctx_layers, GGML_TYPE_F32, p->n_embd);
        e->layers[il].w_in = ggml_new_tensor_2d(e->ctx_layers, GGML_TYPE_F32, p->n_embd, 2 * p->n_embd);
        e->layers[il].w_out = ggml_new_tensor_2d(e->ctx_layers, GGML_TYPE_F32, 2 * p->n_embd, p->n_embd);
    }
    e->buf_layers = ggml_backend_alloc_ctx_tensors_from_buft(e->ctx_layers, ggml_backend_cuda_buffer_type(p->main_gpu));
    if (!e->buf_embd || !e->buf_layers) return 0;

    init_tensor_data(e->tok_embd, 1.0f);
    for (int il = 0; il < p->n_layer; il++) {
        init_tensor_data(e->layers[il].attn_norm, 1.0f);
        init_tensor_data(e->layers[il].w_in, 0.1f);
        init_tensor_data(e->layers[il].w_out, 0.1f);
    }
    return 1;
}

static struct ggml_cgraph *encode_graph(struct ggml_context *ctx, const struct encoder *e, int n_tok) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, n_tok);
    ggml_set_name(ids, "ids");
    ggml_set_input(ids);
    struct ggml_tensor *cur = ggml_get_rows(ctx, e->tok_embd, ids);
    for (int il = 0; il < e->p.n_layer; il++) {
        const struct enc_layer *L = &e->layers[il];
        struct ggml_tensor *h = ggml_mul(ctx, ggml_norm(ctx, cur, 1e-5f), L->attn_norm);
        h = ggml_gelu(ctx, ggml_mul_mat(ctx, L->w_in, h));
        cur = ggml_add(ctx, cur, ggml_mul_mat(ctx, L->w_out, h));
    }
    struct ggml_tensor *pooled = ggml_sum_rows(ctx, ggml_cont(ctx, ggml_transpose(ctx, cur)));
    ggml_set_name(pooled, "pooled");
    ggml_set_output(pooled);
    ggml_build_forward_expand(gf, pooled);
    return gf;
}

static void print_placement(const struct encoder *e) {
    printf("token_embd.weight -> %s (%zu bytes)\n", ggml_backend_buffer_name(e->buf_embd),
           ggml_backend_buffer_get_size(e->buf_embd));
    printf("%d layers        -> %s (%zu bytes)\n", e->p.n_layer, ggml_backend_buffer_name(e->buf_layers),
           ggml_backend_buffer_get_size(e->buf_layers));
}

static float cosine(const float *a, const float *b, int n) {
    double ab = 0, aa = 0, bb = 0;
    for (int i = 0; i < n; i++) {
        ab += (double)a[i] * b[i];
        aa += (double)a[i] * a[i];
        bb += (double)b[i] * b[i];
    }
    return (aa > 0 && bb > 0) ? (float)(ab / sqrt(aa * bb)) : 0.0f;
}

static void tokenize(const char *s, int32_t *ids, int *n, int n_vocab) {
    *n = 0;
    for (const char *c = s; *c && *n < 32; c++) ids[(*n)++] = ((unsigned char)*c * 7) % n_vocab;
}

int main(void) {
    struct encoder enc;
    memset(&enc, 0, sizeof enc);
    enc.p.n_vocab = 96;
    enc.p.n_embd = 16;
    enc.p.n_layer = 3;
    enc.p.main_gpu = env_int("LM_MAIN_GPU", 0);
    enc.p.embd_gpu = env_int("LM_EMBD_GPU", enc.p.main_gpu);
    int n_dev = ggml_backend_cuda_get_device_count();
    if (enc.p.main_gpu < 0 || enc.p.main_gpu >= n_dev || enc.p.embd_gpu < 0 || enc.p.embd_gpu >= n_dev) {
        fprintf(stderr, "bad gpu index (have %d)\n", n_dev);
        return 1;
    }
    if (!encoder_init(&enc)) return 1;
    ggml_backend_t backend = ggml_backend_cuda_init(enc.p.main_gpu);
    print_placement(&enc);
    float embs[2][16];

    const char *sentences[2] = {"static analysis of tensors", "devices and buffers"};
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_cuda_buffer_type(enc.p.main_gpu));
    for (int s = 0; s < 2; s++) {
        int32_t ids[32];
        int n_tok = 0;
        tokenize(sentences[s], ids, &n_tok, enc.p.n_vocab);
        struct ggml_init_params gp = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true};
        struct ggml_context *ctx0 = ggml_init(gp);
        struct ggml_cgraph *gf = encode_graph(ctx0, &enc, n_tok);
        ggml_gallocr_alloc_graph(ga, gf);
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "ids"), ids, 0, (size_t)n_tok * sizeof(int32_t));
        ggml_backend_graph_compute(backend, gf); // expect-warning: ggml-backend-mismatch
        float emb[16];
        ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "pooled"), emb, 0, sizeof emb);
        printf("sentence %d: [%.3f %.3f %.3f ...]\n", s, emb[0], emb[1], emb[2]);
        memcpy(embs[s], emb, sizeof emb);
        ggml_free(ctx0);
    }
    printf("cosine(sentence 0, sentence 1) = %.4f\n", cosine(embs[0], embs[1], enc.p.n_embd));
    ggml_gallocr_free(ga);
    ggml_backend_free(backend);
    ggml_backend_buffer_free(enc.buf_layers);
    ggml_backend_buffer_free(enc.buf_embd);
    ggml_free(enc.ctx_layers);
    ggml_free(enc.ctx_embd);
    return 0;
}
