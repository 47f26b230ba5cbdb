// corpus/ggml/graph_named_input_clean.c — a two-layer gated regressor: its weights are named
// per layer with ggml_format_name ("layer%d.w") and live on the GPU; its input and its gate
// mask live in the GPU's pinned host buffer type, which the host fills in place and the GPU
// reads in a compute. After ggml_gallocr places the graph's nodes on the GPU, the caller finds
// each tensor again by name: the weights through ggml_backend_tensor_set, the pinned mask by
// writing its data directly, the output through ggml_backend_tensor_get. Clean: a lookup by
// name gives the tensor of that name (the pinned mask), not any tensor of the graph.
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#define N_FEAT 4
#define N_LAYER 2

struct model {
    struct ggml_context * wctx, * ictx;
    ggml_backend_buffer_t wbuf, ibuf;
    struct ggml_tensor * w[N_LAYER];
    struct ggml_tensor * x, * mask;
};

static int model_init(struct model * m, ggml_backend_dev_t dev) {
    struct ggml_init_params wp = { N_LAYER * ggml_tensor_overhead(), NULL, true };
    m->wctx = ggml_init(wp);
    for (int il = 0; il < N_LAYER; il++) {
        m->w[il] = ggml_new_tensor_1d(m->wctx, GGML_TYPE_F32, N_FEAT);
        ggml_format_name(m->w[il], "layer%d.w", il);
    }
    m->wbuf = ggml_backend_alloc_ctx_tensors_from_buft(m->wctx, ggml_backend_dev_buffer_type(dev));
    struct ggml_init_params ip = { 2 * ggml_tensor_overhead(), NULL, true };
    m->ictx = ggml_init(ip);
    m->x = ggml_new_tensor_1d(m->ictx, GGML_TYPE_F32, N_FEAT);
    ggml_set_name(m->x, "inp_x");
    m->mask = ggml_new_tensor_1d(m->ictx, GGML_TYPE_F32, N_FEAT);
    ggml_set_name(m->mask, "inp_mask");
    ggml_backend_buffer_type_t pinned = ggml_backend_dev_host_buffer_type(dev);
    if (!pinned) return 0;
    m->ibuf = ggml_backend_alloc_ctx_tensors_from_buft(m->ictx, pinned);
    return m->wbuf && m->ibuf;
}

static struct ggml_cgraph * build_graph(struct ggml_context * ctx, const struct model * m) {
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    struct ggml_tensor * cur = m->x;
    for (int il = 0; il < N_LAYER; il++) cur = ggml_relu(ctx, ggml_mul(ctx, m->w[il], cur));
    cur = ggml_mul(ctx, cur, m->mask);
    ggml_set_name(cur, "out");
    ggml_build_forward_expand(gf, cur);
    return gf;
}

static void load_layer(struct ggml_cgraph * gf, int il, const float * w) {
    char name[32];
    snprintf(name, sizeof name, "layer%d.w", il);
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, name), w, 0, N_FEAT * sizeof(float));
}

int main(void) {
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!dev) return 0;
    ggml_backend_t gpu = ggml_backend_dev_init(dev, NULL);
    struct model m;
    if (!model_init(&m, dev)) return 1;
    struct ggml_init_params gp = { 16 * ggml_tensor_overhead() + ggml_graph_overhead(), NULL, true };
    struct ggml_context * gctx = ggml_init(gp);
    struct ggml_cgraph * gf = build_graph(gctx, &m);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu));
    if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;

    const float w0[N_FEAT] = { 1.0f, 2.0f, 0.5f, -1.0f };
    const float w1[N_FEAT] = { 0.5f, 0.5f, 2.0f, 1.0f };
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "layer0.w"), w0, 0, sizeof w0);
    load_layer(gf, 1, w1);
    const float x[N_FEAT] = { 1.0f, 2.0f, 3.0f, 4.0f };
    const float keep[N_FEAT] = { 1.0f, 0.0f, 1.0f, 1.0f };
    memcpy(ggml_graph_get_tensor(gf, "inp_x")->data, x, sizeof x);
    struct ggml_tensor * mask = ggml_graph_get_tensor(gf, "inp_mask");
    memcpy(mask->data, keep, ggml_nbytes(mask));

    if (ggml_backend_graph_compute(gpu, gf) != GGML_STATUS_SUCCESS) return 1;
    float y[N_FEAT];
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "out"), y, 0, sizeof y);
    printf("out = %.2f %.2f %.2f %.2f\n", y[0], y[1], y[2], y[3]);
    ggml_gallocr_free(ga);
    ggml_free(gctx);
    ggml_backend_buffer_free(m.ibuf);
    ggml_backend_buffer_free(m.wbuf);
    ggml_free(m.ictx);
    ggml_free(m.wctx);
    ggml_backend_free(gpu);
    return 0;
}
