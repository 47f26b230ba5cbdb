// provenance: blind round g5
// sched_layer_split: layers spread over every GPU the registry lists, run by the scheduler.
// run-args: --layers 4 --tokens 3
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_EMBD 24
#define MAX_LAYERS 8
#define MAX_BACKENDS 8

struct layer {
    struct ggml_tensor *w;
    struct ggml_tensor *norm;
    int dev_index; /* index into ctx.backends */
};

struct run_ctx {
    ggml_backend_t backends[MAX_BACKENDS];
    ggml_backend_buffer_type_t bufts[MAX_BACKENDS];
    int n_backends; /* last one is the CPU */
    int n_gpu;

    struct ggml_context *ctx_layer[MAX_LAYERS];
    ggml_backend_buffer_t buf_layer[MAX_LAYERS];
    struct layer layers[MAX_LAYERS];
    int n_layers;

    ggml_backend_sched_t sched;
};

static int collect_backends(struct run_ctx *rc) {
    rc->n_backends = 0;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        if (ggml_backend_dev_type(dev) != GGML_BACKEND_DEVICE_TYPE_GPU) continue;
        if (rc->n_backends >= MAX_BACKENDS - 1) break;
        ggml_backend_t b = ggml_backend_dev_init(dev, NULL);
        if (!b) continue;
        rc->bufts[rc->n_backends] = ggml_backend_dev_buffer_type(dev);
        rc->backends[rc->n_backends++] = b;
    }
    rc->n_gpu = rc->n_backends;
    ggml_backend_t cpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
    if (!cpu) return -1;
    rc->bufts[rc->n_backends] = ggml_backend_get_default_buffer_type(cpu);
    rc->backends[rc->n_backends++] = cpu;
    return 0;
}

static void upload_layer(struct layer *l, int il) {
    int n = (int)ggml_nelements(l->w);
    float *w = malloc(sizeof(float) * n);
    for (int i = 0; i < n; i++) {
        int r = i / N_EMBD, c = i % N_EMBD;
        w[i] = (r == c ? 0.9f : 0.0f) + 0.01f * sinf((float)(i + il));
    }
    ggml_backend_tensor_set(l->w, w, 0, ggml_nbytes(l->w));
    float g[N_EMBD];
    for (int i = 0; i < N_EMBD; i++) g[i] = 1.0f + 0.01f * (float)il;
    ggml_backend_tensor_set(l->norm, g, 0, sizeof g);
    free(w);
}

static int load_layers(struct run_ctx *rc, int n_layers) {
    rc->n_layers = n_layers;
    for (int il = 0; il < n_layers; il++) {
        /* round-robin over GPUs; with no GPU everything stays on the CPU */
        int di = rc->n_gpu > 0 ? il % rc->n_gpu : rc->n_backends - 1;
        struct ggml_init_params ip = { 2 * ggml_tensor_overhead(), NULL, true };
        rc->ctx_layer[il] = ggml_init(ip);
        struct layer *l = &rc->layers[il];
        l->dev_index = di;
        l->w = ggml_new_tensor_2d(rc->ctx_layer[il], GGML_TYPE_F32, N_EMBD, N_EMBD);
        l->norm = ggml_new_tensor_1d(rc->ctx_layer[il], GGML_TYPE_F32, N_EMBD);
        ggml_format_name(l->w, "blk.%d.w", il);
        ggml_format_name(l->norm, "blk.%d.norm", il);
        rc->buf_layer[il] = ggml_backend_alloc_ctx_tensors_from_buft(rc->ctx_layer[il], rc->bufts[di]);
        if (!rc->buf_layer[il]) {
            fprintf(stderr, "layer %d: allocation on %s failed\n", il,
                    ggml_backend_buft_name(rc->bufts[di]));
            return -1;
        }
        ggml_backend_buffer_set_usage(rc->buf_layer[il], GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
        upload_layer(l, il);
    }
    return 0;
}

static struct ggml_cgraph *build_forward(struct run_ctx *rc, struct ggml_context *ctx, int n_tokens) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *cur = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, n_tokens);
    ggml_set_name(cur, "inp");
    ggml_set_input(cur);
    for (int il = 0; il < rc->n_layers; il++) {
        struct layer *l = &rc->layers[il];
        struct ggml_tensor *h = ggml_rms_norm(ctx, cur, 1e-5f);
        h = ggml_mul(ctx, h, l->norm);
        h = ggml_mul_mat(ctx, l->w, h);
        ggml_format_name(h, "blk.%d.out", il);
        /* keep the residual add next to the layer's weights */
        cur = ggml_add(ctx, cur, h);
        ggml_backend_sched_set_tensor_backend(rc->sched, cur, rc->backends[l->dev_index]);
    }
    cur = ggml_rms_norm(ctx, cur, 1e-5f);
    ggml_set_name(cur, "result");
    ggml_set_output(cur);
    ggml_build_forward_expand(gf, cur);
    return gf;
}

static void release(struct run_ctx *rc) {
    if (rc->sched) ggml_backend_sched_free(rc->sched);
    for (int il = 0; il < rc->n_layers; il++) {
        if (rc->buf_layer[il]) ggml_backend_buffer_free(rc->buf_layer[il]);
        if (rc->ctx_layer[il]) ggml_free(rc->ctx_layer[il]);
    }
    for (int i = 0; i < rc->n_backends; i++) ggml_backend_free(rc->backends[i]);
}

int main(int argc, char **argv) {
    int n_layers = 3, n_tokens = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--layers")) n_layers = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--tokens")) n_tokens = atoi(argv[i + 1]);
    }
    if (n_layers < 1 || n_layers > MAX_LAYERS) n_layers = 3;
    if (n_tokens < 1 || n_tokens > 32) n_tokens = 2;

    struct run_ctx rc;
    memset(&rc, 0, sizeof rc);
    if (collect_backends(&rc) != 0 || load_layers(&rc, n_layers) != 0) {
        release(&rc);
        return 1;
    }
    printf("%d backends (%d GPU)\n", rc.n_backends, rc.n_gpu);

    rc.sched = ggml_backend_sched_new(rc.backends, rc.bufts, rc.n_backends, GGML_DEFAULT_GRAPH_SIZE, false, true);

    size_t meta = ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead();
    struct ggml_init_params gp = { meta, NULL, true };

    /* measure with the largest batch, then run */
    struct ggml_context *ctx_m = ggml_init(gp);
    if (!ggml_backend_sched_reserve(rc.sched, build_forward(&rc, ctx_m, n_tokens))) {
        fprintf(stderr, "reserve failed\n");
        ggml_free(ctx_m);
        release(&rc);
        return 1;
    }
    ggml_free(ctx_m);
    ggml_backend_sched_reset(rc.sched);

    struct ggml_context *ctx = ggml_init(gp);
    struct ggml_cgraph *gf = build_forward(&rc, ctx, n_tokens);
    ggml_backend_sched_alloc_graph(rc.sched, gf);

    float *x = malloc(sizeof(float) * N_EMBD * n_tokens);
    for (int i = 0; i < N_EMBD * n_tokens; i++) x[i] = (float)(i % 7) - 3.0f;
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp"), x, 0, sizeof(float) * N_EMBD * n_tokens);

    if (ggml_backend_sched_graph_compute(rc.sched, gf) != GGML_STATUS_SUCCESS) {
        fprintf(stderr, "compute failed\n");
    }
    printf("splits: %d, copies: %d\n", ggml_backend_sched_get_n_splits(rc.sched),
           ggml_backend_sched_get_n_copies(rc.sched));

    struct ggml_tensor *res = ggml_graph_get_tensor(gf, "result");
    ggml_backend_tensor_get(res, x, 0, ggml_nbytes(res));
    for (int t = 0; t < n_tokens; t++) {
        double ss = 0;
        for (int i = 0; i < N_EMBD; i++) ss += x[t * N_EMBD + i] * x[t * N_EMBD + i];
        printf("token %d: rms %.4f first %.4f\n", t, sqrt(ss / N_EMBD), x[t * N_EMBD]);
    }

    free(x);
    ggml_free(ctx);
    release(&rc);
    return 0;
}
