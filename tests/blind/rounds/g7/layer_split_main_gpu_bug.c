// run-args: 4
//
// Layer split of a residual SwiGLU stack over every GPU in the registry: each device gets its
// own context and weight buffer (llama.cpp's "ctx per buffer type"). The forward pass is then
// allocated and computed on the main GPU alone, without the scheduler.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEV 4
#define MAX_LAYER 16
#define N_EMBD 32
#define N_FF 64

struct device_slot {
    ggml_backend_dev_t dev;
    ggml_backend_t backend;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    int n_layers;
};

struct ffn_layer {
    int slot;
    struct ggml_tensor *norm, *w_gate, *w_up, *w_down;
};

struct split_model {
    struct device_slot slots[MAX_DEV];
    int n_slots;
    int main_slot;
    struct ffn_layer layers[MAX_LAYER];
    int n_layer;
};

static int collect_gpus(struct split_model *sm) {
    sm->n_slots = 0;
    for (size_t i = 0; i < ggml_backend_dev_count() && sm->n_slots < MAX_DEV; i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        switch (ggml_backend_dev_type(dev)) {
            case GGML_BACKEND_DEVICE_TYPE_GPU:
            case GGML_BACKEND_DEVICE_TYPE_IGPU:
                sm->slots[sm->n_slots].dev = dev;
                sm->slots[sm->n_slots].backend = ggml_backend_dev_init(dev, NULL);
                sm->n_slots++;
                break;
            case GGML_BACKEND_DEVICE_TYPE_CPU:
            case GGML_BACKEND_DEVICE_TYPE_ACCEL:
            default:
                break;
        }
    }
    return sm->n_slots;
}

static void fill(struct ggml_tensor *t, float base) {
    int64_t n = ggml_nelements(t);
    float *h = malloc(sizeof(float) * n);
    for (int64_t i = 0; i < n; i++) h[i] = base * sinf(0.37f * (float) i);
    ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
    free(h);
}

static int load_split(struct split_model *sm, int n_layer) {
    sm->n_layer = n_layer;
    for (int s = 0; s < sm->n_slots; s++) {
        struct ggml_init_params ip = { ggml_tensor_overhead() * 4 * MAX_LAYER, NULL, true };
        sm->slots[s].ctx = ggml_init(ip);
        sm->slots[s].n_layers = 0;
    }
    for (int il = 0; il < n_layer; il++) {
        struct ffn_layer *L = &sm->layers[il];
        L->slot = il * sm->n_slots / n_layer;
        struct ggml_context *ctx = sm->slots[L->slot].ctx;
        L->norm = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, N_EMBD);
        L->w_gate = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, N_FF);
        L->w_up = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, N_FF);
        L->w_down = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_FF, N_EMBD);
        sm->slots[L->slot].n_layers++;
    }
    for (int s = 0; s < sm->n_slots; s++) {
        struct device_slot *ds = &sm->slots[s];
        if (ds->n_layers == 0) continue;
        ds->buf = ggml_backend_alloc_ctx_tensors_from_buft(ds->ctx, ggml_backend_dev_buffer_type(ds->dev));
        if (!ds->buf) return -1;
        ggml_backend_buffer_set_usage(ds->buf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
        printf("%s: %d layers, %zu bytes\n", ggml_backend_dev_name(ds->dev), ds->n_layers,
               ggml_backend_buffer_get_size(ds->buf));
    }
    for (int il = 0; il < n_layer; il++) {
        fill(sm->layers[il].norm, 1.0f);
        fill(sm->layers[il].w_gate, 0.2f);
        fill(sm->layers[il].w_up, 0.2f);
        fill(sm->layers[il].w_down, 0.1f);
    }
    return 0;
}

static struct ggml_tensor *ffn_block(struct ggml_context *ctx, const struct ffn_layer *L, struct ggml_tensor *x) {
    struct ggml_tensor *h = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-6f), L->norm);
    struct ggml_tensor *g = ggml_silu(ctx, ggml_mul_mat(ctx, L->w_gate, h));
    struct ggml_tensor *u = ggml_mul_mat(ctx, L->w_up, h);
    return ggml_add(ctx, x, ggml_mul_mat(ctx, L->w_down, ggml_mul(ctx, g, u)));
}

static int forward(struct split_model *sm, const float *in, float *out, int n_tokens) {
    struct ggml_init_params ip = { ggml_tensor_overhead() * 32 * MAX_LAYER + ggml_graph_overhead(), NULL, true };
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, n_tokens);
    ggml_set_input(x);
    struct ggml_tensor *cur = x;
    for (int il = 0; il < sm->n_layer; il++) {
        cur = ffn_block(ctx, &sm->layers[il], cur);
    }
    ggml_set_output(cur);
    ggml_build_forward_expand(gf, cur);

    ggml_backend_t main_be = sm->slots[sm->main_slot].backend;
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(main_be));
    int rc = -1;
    if (ggml_gallocr_alloc_graph(ga, gf)) {
        ggml_backend_tensor_set(x, in, 0, ggml_nbytes(x));
        enum ggml_status st = ggml_backend_graph_compute(main_be, gf); // expect-error: ggml-backend-mismatch
        if (st == GGML_STATUS_SUCCESS) {
            ggml_backend_tensor_get(cur, out, 0, ggml_nbytes(cur));
            rc = 0;
        }
    }
    ggml_gallocr_free(ga);
    ggml_free(ctx);
    return rc;
}

int main(int argc, char **argv) {
    int n_layer = argc > 1 ? atoi(argv[1]) : 4;
    if (n_layer < 2) n_layer = 2;
    if (n_layer > MAX_LAYER) n_layer = MAX_LAYER;

    struct split_model sm;
    memset(&sm, 0, sizeof sm);
    if (collect_gpus(&sm) < 2) {
        fprintf(stderr, "layer split needs two GPUs\n");
        return 1;
    }
    sm.main_slot = 0;
    if (load_split(&sm, n_layer) != 0) {
        fprintf(stderr, "weight allocation failed\n");
        return 1;
    }

    const int n_tokens = 3;
    float in[N_EMBD * 3], out[N_EMBD * 3];
    for (int i = 0; i < N_EMBD * n_tokens; i++) in[i] = 0.01f * (float) (i % 17);
    if (forward(&sm, in, out, n_tokens) != 0) {
        fprintf(stderr, "forward failed\n");
        return 1;
    }
    printf("out[0..3] = %.4f %.4f %.4f\n", out[0], out[1], out[2]);

    for (int s = 0; s < sm.n_slots; s++) {
        if (sm.slots[s].buf) ggml_backend_buffer_free(sm.slots[s].buf);
        ggml_free(sm.slots[s].ctx);
        ggml_backend_free(sm.slots[s].backend);
    }
    return 0;
}
