// corpus/ggml/graph_lookup_branch_inputs_clean.c — a batch decoder whose graph builder makes a
// token-id input or an embedding input, whichever the batch carries (like the gpt-2 examples'
// batched main), and a scratch tensor it never puts in the graph. After ggml_gallocr places the
// graph on the GPU, the caller finds its input again by name and fills it with
// ggml_backend_tensor_set. A lookup in a graph can only return what the graph holds: the
// scratch tensor, never allocated, is not a candidate.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#define N_EMBD 4
#define N_VOCAB 6

struct batch {
    const int32_t * token; /* token ids, or NULL when embd is given */
    const float * embd;
    int n;
};

static struct ggml_cgraph * build_graph(struct ggml_context * ctx, struct ggml_tensor * wte,
                                        const struct batch * b) {
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    struct ggml_tensor * scratch = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD);
    ggml_set_name(scratch, "scratch"); /* kept for debugging, never computed */
    struct ggml_tensor * cur;
    if (b->token) {
        struct ggml_tensor * ids = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, b->n);
        ggml_set_name(ids, "inp_tokens");
        ggml_set_input(ids);
        cur = ggml_get_rows(ctx, wte, ids);
    } else {
        cur = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, b->n);
        ggml_set_name(cur, "embd");
        ggml_set_input(cur);
    }
    struct ggml_tensor * out = ggml_scale(ctx, ggml_relu(ctx, cur), 0.5f);
    ggml_set_name(out, "out");
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);
    return gf;
}

static int decode(ggml_backend_t gpu, ggml_gallocr_t ga, struct ggml_tensor * wte,
                  const struct batch * b, float * result) {
    struct ggml_init_params p = { 32 * ggml_tensor_overhead() + ggml_graph_overhead(), NULL, true };
    struct ggml_context * ctx = ggml_init(p);
    struct ggml_cgraph * gf = build_graph(ctx, wte, b);
    if (!ggml_gallocr_alloc_graph(ga, gf)) return -1;
    if (b->token) {
        struct ggml_tensor * ids = ggml_graph_get_tensor(gf, "inp_tokens");
        ggml_backend_tensor_set(ids, b->token, 0, (size_t) b->n * sizeof(int32_t));
    } else {
        struct ggml_tensor * e = ggml_graph_get_tensor(gf, "embd");
        ggml_backend_tensor_set(e, b->embd, 0, (size_t) b->n * N_EMBD * sizeof(float));
    }
    ggml_backend_graph_compute(gpu, gf);
    struct ggml_tensor * out = ggml_graph_get_tensor(gf, "out");
    ggml_backend_tensor_get(out, result, 0, ggml_nbytes(out));
    ggml_free(ctx);
    return 0;
}

int main(void) {
    ggml_backend_t gpu = ggml_backend_cuda_init(0);
    if (!gpu) return 1;
    struct ggml_init_params wp = { 4 * ggml_tensor_overhead(), NULL, true };
    struct ggml_context * wctx = ggml_init(wp);
    struct ggml_tensor * wte = ggml_new_tensor_2d(wctx, GGML_TYPE_F32, N_EMBD, N_VOCAB);
    ggml_backend_buffer_t wbuf = ggml_backend_alloc_ctx_tensors(wctx, gpu);
    float w[N_EMBD * N_VOCAB];
    for (int i = 0; i < N_EMBD * N_VOCAB; i++) w[i] = (float) (i % 5) - 1.0f;
    ggml_backend_tensor_set(wte, w, 0, sizeof(w));

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu));
    const int32_t ids[2] = { 1, 4 };
    const float embd[2 * N_EMBD] = { 0.5f, -1.0f, 2.0f, 0.0f, 1.0f, 1.0f, -2.0f, 3.0f };
    struct batch by_token = { ids, NULL, 2 }, by_embd = { NULL, embd, 2 };
    float r[2 * N_EMBD];
    if (decode(gpu, ga, wte, &by_token, r) != 0) return 1;
    printf("token batch: %.2f %.2f\n", r[0], r[N_EMBD]);
    if (decode(gpu, ga, wte, &by_embd, r) != 0) return 1;
    printf("embedding batch: %.2f %.2f\n", r[0], r[N_EMBD]);

    ggml_gallocr_free(ga);
    ggml_backend_buffer_free(wbuf);
    ggml_free(wctx);
    ggml_backend_free(gpu);
    return 0;
}
