// provenance: blind round g6
// run-args: --lora 0.5
// run-env: LORA_LAZY=1
// Applies a low-rank adapter to a linear layer: y = W x + scale * B (A x). Adapter tensors
// live in their own context; LORA_LAZY=1 postpones the adapter's device allocation "until
// first use" to keep start-up memory low.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D_IN 20
#define D_OUT 12
#define RANK 4

struct base_layer {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *w;
};

struct lora_adapter {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *a;
    struct ggml_tensor *b;
    float scale;
    int lazy;
};

static void fill(float *v, int n, int seed) {
    for (int i = 0; i < n; i++) v[i] = 0.01f * (float)(((i + 1) * (seed + 3)) % 21 - 10);
}

static ggml_backend_t backend_for(const char *name) {
    if (name) {
        ggml_backend_dev_t dev = ggml_backend_dev_by_name(name);
        if (dev) return ggml_backend_dev_init(dev, NULL);
        fprintf(stderr, "device %s not found\n", name);
    }
    return ggml_backend_init_best();
}

static int base_load(struct base_layer *l, ggml_backend_t backend) {
    struct ggml_init_params ip = {ggml_tensor_overhead(), NULL, true};
    l->ctx = ggml_init(ip);
    l->w = ggml_new_tensor_2d(l->ctx, GGML_TYPE_F32, D_IN, D_OUT);
    l->buf = ggml_backend_alloc_ctx_tensors(l->ctx, backend);
    if (!l->buf) return 0;
    float w[D_IN * D_OUT];
    fill(w, D_IN * D_OUT, 1);
    ggml_backend_tensor_set(l->w, w, 0, sizeof w);
    return 1;
}

static int lora_load(struct lora_adapter *ad, ggml_backend_t backend) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 2, NULL, true};
    ad->ctx = ggml_init(ip);
    ad->a = ggml_new_tensor_2d(ad->ctx, GGML_TYPE_F32, D_IN, RANK);
    ad->b = ggml_new_tensor_2d(ad->ctx, GGML_TYPE_F32, RANK, D_OUT);
    ggml_set_name(ad->a, "lora_a");
    ggml_set_name(ad->b, "lora_b");
    if (!ad->lazy) {
        ad->buf = ggml_backend_alloc_ctx_tensors(ad->ctx, backend);
        if (!ad->buf) return 0;
    }
    float a[D_IN * RANK], b[RANK * D_OUT];
    fill(a, D_IN * RANK, 7);
    fill(b, RANK * D_OUT, 9);
    ggml_backend_tensor_set(ad->a, a, 0, sizeof a); // expect-warning: ggml-buffer-not-set
    ggml_backend_tensor_set(ad->b, b, 0, sizeof b);
    return 1;
}

/* host reference of y = W x (+ scale * B A x), column-major like ggml: w[o * D_IN + i] */
static void reference(const float *x, int n_batch, float scale, int use_lora, float *y) {
    float w[D_IN * D_OUT], a[D_IN * RANK], b[RANK * D_OUT];
    fill(w, D_IN * D_OUT, 1);
    fill(a, D_IN * RANK, 7);
    fill(b, RANK * D_OUT, 9);
    for (int n = 0; n < n_batch; n++) {
        float ax[RANK] = {0};
        for (int r = 0; r < RANK; r++)
            for (int i = 0; i < D_IN; i++) ax[r] += a[r * D_IN + i] * x[n * D_IN + i];
        for (int o = 0; o < D_OUT; o++) {
            float acc = 0.0f;
            for (int i = 0; i < D_IN; i++) acc += w[o * D_IN + i] * x[n * D_IN + i];
            if (use_lora) {
                float l = 0.0f;
                for (int r = 0; r < RANK; r++) l += b[o * RANK + r] * ax[r];
                acc += scale * l;
            }
            y[n * D_OUT + o] = acc;
        }
    }
}

static struct ggml_cgraph *forward(struct ggml_context *ctx, const struct base_layer *l,
                                   const struct lora_adapter *ad, int n_batch) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, D_IN, n_batch);
    ggml_set_name(x, "x");
    ggml_set_input(x);
    struct ggml_tensor *y = ggml_mul_mat(ctx, l->w, x);
    if (ad) {
        struct ggml_tensor *ax = ggml_mul_mat(ctx, ad->a, x);
        struct ggml_tensor *bax = ggml_mul_mat(ctx, ad->b, ax);
        y = ggml_add(ctx, y, ggml_scale(ctx, bax, ad->scale));
    }
    ggml_set_name(y, "y");
    ggml_set_output(y);
    ggml_build_forward_expand(gf, y);
    return gf;
}

int main(int argc, char **argv) {
    float lora_scale = 0.0f;
    const char *device = NULL;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--lora") == 0) lora_scale = (float)atof(argv[++i]);
        else if (strcmp(argv[i], "--device") == 0) device = argv[++i];
    }
    ggml_backend_t backend = backend_for(device);
    struct base_layer layer;
    memset(&layer, 0, sizeof layer);
    if (!base_load(&layer, backend)) return 1;

    struct lora_adapter adapter;
    memset(&adapter, 0, sizeof adapter);
    int use_lora = lora_scale != 0.0f;
    if (use_lora) {
        const char *lz = getenv("LORA_LAZY");
        adapter.lazy = lz && strcmp(lz, "1") == 0;
        adapter.scale = lora_scale;
        if (!lora_load(&adapter, backend)) return 1;
    }

    const int n_batch = 2;
    struct ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_cgraph *gf = forward(ctx0, &layer, use_lora ? &adapter : NULL, n_batch);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);
    float x[D_IN * 2];
    fill(x, D_IN * n_batch, 5);
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "x"), x, 0, sizeof x);
    ggml_backend_graph_compute(backend, gf);
    float y[D_OUT * 2];
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "y"), y, 0, sizeof y);
    float ref[D_OUT * 2];
    reference(x, n_batch, lora_scale, use_lora, ref);
    float max_err = 0.0f;
    for (int i = 0; i < D_OUT * n_batch; i++) {
        float d = y[i] - ref[i];
        if (d < 0) d = -d;
        if (d > max_err) max_err = d;
    }
    printf("max error vs host reference: %.3e\n", max_err);
    printf("lora %s scale %.2f: y[0]=%.5f y[%d]=%.5f\n", use_lora ? "on" : "off", lora_scale, y[0], D_OUT, y[D_OUT]);

    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    if (adapter.buf) ggml_backend_buffer_free(adapter.buf);
    if (adapter.ctx) ggml_free(adapter.ctx);
    ggml_backend_buffer_free(layer.buf);
    ggml_free(layer.ctx);
    ggml_backend_free(backend);
    return 0;
}
