// corpus/ggml/g1_c06_prompt_embed_bug.c — from blind round g1 (c06_prompt_embed_bug.c, labelled by running it on real ggml and the emulated GPU): embeds a prompt, prepends a stored soft prefix and applies rotary
// position embeddings. Three type slips of the sort a port makes: the token ids and the
// positions come from a helper that makes every input F32, and the soft prefix is kept in
// F16 to halve its memory while the embeddings are F32.
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#define N_VOCAB  32
#define HEAD_DIM 8
#define N_HEAD   2
#define N_EMBD   (HEAD_DIM * N_HEAD)
#define N_PREFIX 3

struct embedder {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor * tok_embd;   // F32 [N_EMBD, N_VOCAB]
    struct ggml_tensor * prefix;     // F16 [N_EMBD, N_PREFIX]
};

struct prompt_inputs {
    struct ggml_tensor * ids;
    struct ggml_tensor * pos;
    int n_tokens;
};

static struct ggml_tensor * new_input(struct ggml_context * ctx, int n, const char * name) {
    struct ggml_tensor * t = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, n);
    ggml_set_name(t, name);
    ggml_set_input(t);
    return t;
}

static void embedder_init(struct embedder * em, ggml_backend_t backend) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 4, NULL, true };
    em->ctx = ggml_init(p);
    em->tok_embd = ggml_new_tensor_2d(em->ctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    em->prefix = ggml_new_tensor_2d(em->ctx, GGML_TYPE_F16, N_EMBD, N_PREFIX);
    em->buf = ggml_backend_alloc_ctx_tensors(em->ctx, backend);

    float * w = malloc(sizeof(float) * N_EMBD * N_VOCAB);
    for (int i = 0; i < N_EMBD * N_VOCAB; i++) {
        w[i] = 0.01f * (float)((i * 13) % 29);
    }
    ggml_backend_tensor_set(em->tok_embd, w, 0, ggml_nbytes(em->tok_embd));
    ggml_fp16_t pre[N_EMBD * N_PREFIX];
    for (int i = 0; i < N_EMBD * N_PREFIX; i++) {
        pre[i] = ggml_fp32_to_fp16(0.5f - 0.02f * (float) i);
    }
    ggml_backend_tensor_set(em->prefix, pre, 0, sizeof(pre));
    free(w);
}

static struct ggml_tensor * build_embed(struct ggml_context * ctx, const struct embedder * em, struct prompt_inputs * in) {
    in->ids = new_input(ctx, in->n_tokens, "ids");
    in->pos = new_input(ctx, N_PREFIX + in->n_tokens, "pos");

    struct ggml_tensor * x = ggml_get_rows(ctx, em->tok_embd, in->ids); // expect-error: ggml-type-mismatch
    struct ggml_tensor * seq = ggml_concat(ctx, em->prefix, x, 1); // expect-error: ggml-type-mismatch
    struct ggml_tensor * heads = ggml_reshape_3d(ctx, seq, HEAD_DIM, N_HEAD, N_PREFIX + in->n_tokens);
    struct ggml_tensor * roped = ggml_rope(ctx, heads, in->pos, HEAD_DIM, 0); // expect-error: ggml-type-mismatch
    struct ggml_tensor * out = ggml_cont(ctx, ggml_permute(ctx, roped, 0, 2, 1, 3));
    ggml_set_name(out, "embedded");
    ggml_set_output(out);
    return out;
}

static void set_inputs(struct prompt_inputs * in, const int32_t * tokens) {
    if (in->ids->type == GGML_TYPE_I32) {
        ggml_backend_tensor_set(in->ids, tokens, 0, sizeof(int32_t) * in->n_tokens);
    }
    int32_t pos[64];
    for (int i = 0; i < N_PREFIX + in->n_tokens; i++) {
        pos[i] = i;
    }
    if (in->pos->type == GGML_TYPE_I32) {
        ggml_backend_tensor_set(in->pos, pos, 0, sizeof(int32_t) * (N_PREFIX + in->n_tokens));
    }
}

int main(void) {
    ggml_backend_t backend = ggml_backend_init_best();
    struct embedder em;
    embedder_init(&em, backend);

    const int32_t prompt[] = { 4, 9, 17, 2, 30 };
    struct prompt_inputs in = { NULL, NULL, (int)(sizeof(prompt) / sizeof(prompt[0])) };

    struct ggml_init_params gp = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), NULL, true };
    struct ggml_context * ctx = ggml_init(gp);
    struct ggml_tensor * out = build_embed(ctx, &em, &in);
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, out);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);
    set_inputs(&in, prompt);
    ggml_backend_graph_compute(backend, gf);

    float row[HEAD_DIM];
    for (int h = 0; h < N_HEAD; h++) {
        ggml_backend_tensor_get(out, row, h * out->nb[2], sizeof(row));
        printf("head %d, first position: %.3f %.3f %.3f\n", h, row[0], row[1], row[2]);
    }

    ggml_gallocr_free(ga);
    ggml_free(ctx);
    ggml_backend_buffer_free(em.buf);
    ggml_free(em.ctx);
    ggml_backend_free(backend);
    return 0;
}
