// provenance: blind round g6
// run-args: 6
// A stack of residual FFN layers split across every GPU of the registry (llama.cpp's layer
// split): layer il's weights live in the buffer of device il * n_gpu / n_layer, the scheduler
// (GPUs first, CPU last) places and copies activations between them.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LAYERS 16
#define MAX_BACKENDS 4

struct ffn_layer {
    struct ggml_tensor *norm;
    struct ggml_tensor *up;
    struct ggml_tensor *down;
};

struct ffn_model {
    int n_layer;
    int n_embd;
    int n_ff;
    struct ffn_layer layers[MAX_LAYERS];
    int layer_dev[MAX_LAYERS];
    struct ggml_context *ctx[MAX_BACKENDS];
    ggml_backend_buffer_t buf[MAX_BACKENDS];
};

struct runtime {
    ggml_backend_t backends[MAX_BACKENDS];
    ggml_backend_buffer_type_t bufts[MAX_BACKENDS];
    int n_backends;
    int n_gpu;
    ggml_backend_sched_t sched;
};

static void runtime_init(struct runtime *rt) {
    memset(rt, 0, sizeof *rt);
    for (size_t i = 0; i < ggml_backend_dev_count() && rt->n_backends < MAX_BACKENDS - 1; i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        if (ggml_backend_dev_type(dev) != GGML_BACKEND_DEVICE_TYPE_GPU) continue;
        rt->backends[rt->n_backends] = ggml_backend_dev_init(dev, NULL);
        rt->bufts[rt->n_backends] = ggml_backend_dev_buffer_type(dev);
        rt->n_backends++;
    }
    rt->n_gpu = rt->n_backends;
    ggml_backend_t cpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
    rt->backends[rt->n_backends] = cpu;
    rt->bufts[rt->n_backends] = ggml_backend_get_default_buffer_type(cpu);
    rt->n_backends++;
    rt->sched = ggml_backend_sched_new(rt->backends, rt->bufts, rt->n_backends, 2048, false, true);
}

static void upload(struct ggml_tensor *t, int seed) {
    int64_t n = ggml_nelements(t);
    float *h = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; i++) h[i] = 0.02f * (float)((i * 13 + seed * 7) % 11 - 5);
    ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
    free(h);
}

static int model_load(struct ffn_model *m, const struct runtime *rt) {
    int n_dev = rt->n_gpu > 0 ? rt->n_gpu : 1;
    for (int d = 0; d < n_dev; d++) {
        struct ggml_init_params ip = {ggml_tensor_overhead() * 3 * MAX_LAYERS, NULL, true};
        m->ctx[d] = ggml_init(ip);
    }
    for (int il = 0; il < m->n_layer; il++) {
        int d = il * n_dev / m->n_layer;
        m->layer_dev[il] = d;
        struct ggml_context *c = m->ctx[d];
        m->layers[il].norm = ggml_new_tensor_1d(c, GGML_TYPE_F32, m->n_embd);
        m->layers[il].up = ggml_new_tensor_2d(c, GGML_TYPE_F32, m->n_embd, m->n_ff);
        m->layers[il].down = ggml_new_tensor_2d(c, GGML_TYPE_F32, m->n_ff, m->n_embd);
        char name[GGML_MAX_NAME];
        snprintf(name, sizeof name, "blk.%d.ffn_up", il);
        ggml_set_name(m->layers[il].up, name);
    }
    for (int d = 0; d < n_dev; d++) {
        if (ggml_get_first_tensor(m->ctx[d]) == NULL) continue; // fewer layers than devices
        m->buf[d] = ggml_backend_alloc_ctx_tensors_from_buft(m->ctx[d], rt->bufts[d]);
        if (!m->buf[d]) return 0;
        ggml_backend_buffer_set_usage(m->buf[d], GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
        printf("device %d: %s, %zu bytes\n", d, ggml_backend_buffer_name(m->buf[d]),
               ggml_backend_buffer_get_size(m->buf[d]));
    }
    for (int il = 0; il < m->n_layer; il++) {
        upload(m->layers[il].norm, il);
        upload(m->layers[il].up, il + 100);
        upload(m->layers[il].down, il + 200);
    }
    return 1;
}

static struct ggml_cgraph *build_graph(struct ggml_context *ctx, const struct ffn_model *m,
                                       const struct runtime *rt, int n_tokens) {
    struct ggml_cgraph *gf = ggml_new_graph_custom(ctx, 2048, false);
    struct ggml_tensor *inp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, m->n_embd, n_tokens);
    ggml_set_name(inp, "inp");
    ggml_set_input(inp);
    struct ggml_tensor *cur = inp;
    for (int il = 0; il < m->n_layer; il++) {
        const struct ffn_layer *L = &m->layers[il];
        struct ggml_tensor *h = ggml_rms_norm(ctx, cur, 1e-6f);
        h = ggml_mul(ctx, h, L->norm);
        if (rt->n_gpu > 0) ggml_backend_sched_set_tensor_backend(rt->sched, h, rt->backends[m->layer_dev[il]]);
        h = ggml_mul_mat(ctx, L->up, h);
        h = ggml_silu(ctx, h);
        h = ggml_mul_mat(ctx, L->down, h);
        cur = ggml_add(ctx, cur, h);
    }
    ggml_set_name(cur, "out");
    ggml_set_output(cur);
    ggml_build_forward_expand(gf, cur);
    return gf;
}

int main(int argc, char **argv) {
    struct ffn_model model;
    memset(&model, 0, sizeof model);
    model.n_layer = argc > 1 ? atoi(argv[1]) : 4;
    if (model.n_layer < 1 || model.n_layer > MAX_LAYERS) model.n_layer = 4;
    model.n_embd = 24;
    model.n_ff = 48;
    const int n_tokens = 5;

    struct runtime rt;
    runtime_init(&rt);
    if (!model_load(&model, &rt)) return 1;

    size_t meta = ggml_tensor_overhead() * 2048 + ggml_graph_overhead_custom(2048, false);
    struct ggml_init_params gp = {meta, NULL, true};
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_cgraph *gf = build_graph(ctx0, &model, &rt, n_tokens);
    if (!ggml_backend_sched_alloc_graph(rt.sched, gf)) {
        fprintf(stderr, "sched alloc failed\n");
        return 1;
    }
    printf("splits: %d, copies: %d\n", ggml_backend_sched_get_n_splits(rt.sched),
           ggml_backend_sched_get_n_copies(rt.sched));

    float inp[24 * 5];
    for (int i = 0; i < model.n_embd * n_tokens; i++) inp[i] = (float)(i % 7) * 0.1f - 0.3f;
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp"), inp, 0, sizeof inp);
    if (ggml_backend_sched_graph_compute(rt.sched, gf) != GGML_STATUS_SUCCESS) return 1;

    float out[24 * 5];
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "out"), out, 0, sizeof out);
    double sum = 0;
    for (int i = 0; i < model.n_embd * n_tokens; i++) sum += out[i];
    printf("checksum %.5f\n", sum);

    ggml_free(ctx0);
    ggml_backend_sched_free(rt.sched);
    for (int d = 0; d < MAX_BACKENDS; d++) {
        if (model.buf[d]) ggml_backend_buffer_free(model.buf[d]);
        if (model.ctx[d]) ggml_free(model.ctx[d]);
    }
    for (int b = 0; b < rt.n_backends; b++) ggml_backend_free(rt.backends[b]);
    return 0;
}
