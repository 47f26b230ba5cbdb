// corpus/ggml/graph_named_input_bug.c — a tiny regressor whose weights and inputs live in one
// context, allocated on the GPU in one go (like the simple-backend example). Its graph is
// built afterwards, and the builder adds one more input there — a per-feature mask, made after
// ggml_backend_alloc_ctx_tensors, so it never gets a buffer. The caller fills the inputs by
// looking them up in the graph by name: "inp_x" and the weight "w" are in the GPU buffer (a
// lookup by name finds that tensor, not any of the graph's), "inp_mask" is in none.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#define N_FEAT 4

struct regressor {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor * w;
    struct ggml_tensor * x;
};

static int regressor_init(struct regressor * r, ggml_backend_t backend) {
    struct ggml_init_params p = { 16 * ggml_tensor_overhead() + ggml_graph_overhead(), NULL, true };
    r->ctx = ggml_init(p);
    r->w = ggml_new_tensor_1d(r->ctx, GGML_TYPE_F32, N_FEAT);
    ggml_set_name(r->w, "w");
    r->x = ggml_new_tensor_1d(r->ctx, GGML_TYPE_F32, N_FEAT);
    ggml_set_name(r->x, "inp_x");
    r->buf = ggml_backend_alloc_ctx_tensors(r->ctx, backend);
    return r->buf != NULL;
}

static struct ggml_cgraph * build_graph(struct regressor * r) {
    struct ggml_cgraph * gf = ggml_new_graph(r->ctx);
    struct ggml_tensor * mask = ggml_new_tensor_1d(r->ctx, GGML_TYPE_F32, N_FEAT);
    ggml_set_name(mask, "inp_mask");
    ggml_set_input(mask);
    struct ggml_tensor * y = ggml_mul(r->ctx, ggml_mul(r->ctx, r->x, r->w), mask);
    ggml_set_name(y, "y");
    ggml_build_forward_expand(gf, y);
    return gf;
}

static void set_input(struct ggml_cgraph * gf, const char * name, const float * src) {
    struct ggml_tensor * t = ggml_graph_get_tensor(gf, name);
    ggml_backend_tensor_set(t, src, 0, N_FEAT * sizeof(float)); // expect-error: ggml-buffer-not-set
}

int main(void) {
    ggml_backend_t gpu = ggml_backend_cuda_init(0);
    if (!gpu) return 1;
    struct regressor r;
    if (!regressor_init(&r, gpu)) return 1;
    struct ggml_cgraph * gf = build_graph(&r);
    const float w[N_FEAT] = { 0.5f, -1.0f, 2.0f, 1.0f };
    const float x[N_FEAT] = { 1.0f, 2.0f, 3.0f, 4.0f };
    const float keep[N_FEAT] = { 1.0f, 1.0f, 0.0f, 1.0f };
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "w"), w, 0, sizeof w);
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_x"), x, 0, sizeof x);
    set_input(gf, "inp_mask", keep);
    ggml_backend_graph_compute(gpu, gf);
    float y[N_FEAT];
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "y"), y, 0, sizeof y);
    printf("y = %.1f %.1f %.1f %.1f\n", y[0], y[1], y[2], y[3]);
    ggml_backend_buffer_free(r.buf);
    ggml_free(r.ctx);
    ggml_backend_free(gpu);
    return 0;
}
