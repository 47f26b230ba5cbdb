// corpus/ggml/g1_c04_sched_regressor_clean.c — from blind round g1 (c04_sched_regressor_clean.c, labelled by running it on real ggml and the emulated GPU): a regression head run by the backend scheduler over the GPU
// and the CPU. The weights live in the GPU's buffer; the inputs live in a small CPU buffer
// of their own, so the host fills them in place (ggml_set_f32_1d on host memory is fine).
// The scheduler copies what crosses devices; outputs are read with ggml_backend_tensor_get,
// and the debug callback only dereferences node data that is in host memory.
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#define N_FEAT  12
#define N_HID   20
#define N_BATCH 4

struct head {
    struct ggml_context * ctx_w;
    ggml_backend_buffer_t buf_w;
    struct ggml_tensor * ln_g;
    struct ggml_tensor * w1;
    struct ggml_tensor * w2;   // [N_HID, 1]
};

struct inputs {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor * x;    // [N_FEAT, N_BATCH]
};

static int g_nodes_seen = 0;

static bool debug_cb(struct ggml_tensor * t, bool ask, void * user) {
    (void) user;
    if (ask) {
        return strcmp(ggml_get_name(t), "hidden") == 0;
    }
    float first;
    if (t->buffer && ggml_backend_buffer_is_host(t->buffer)) {
        first = ((const float *) t->data)[0];
    } else {
        ggml_backend_tensor_get(t, &first, 0, sizeof(first));
    }
    g_nodes_seen++;
    printf("  [cb] %s[0] = %.4f\n", ggml_get_name(t), first);
    return true;
}

static void head_init(struct head * h, ggml_backend_t gpu) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 4, NULL, true };
    h->ctx_w = ggml_init(p);
    h->ln_g = ggml_new_tensor_1d(h->ctx_w, GGML_TYPE_F32, N_FEAT);
    h->w1 = ggml_new_tensor_2d(h->ctx_w, GGML_TYPE_F32, N_FEAT, N_HID);
    h->w2 = ggml_new_tensor_2d(h->ctx_w, GGML_TYPE_F32, N_HID, 1);
    h->buf_w = ggml_backend_alloc_ctx_tensors_from_buft(h->ctx_w, ggml_backend_get_default_buffer_type(gpu));
    ggml_backend_buffer_set_usage(h->buf_w, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);

    float g[N_FEAT], w1[N_FEAT * N_HID], w2[N_HID];
    for (int i = 0; i < N_FEAT; i++) g[i] = 1.0f;
    for (int i = 0; i < N_FEAT * N_HID; i++) w1[i] = 0.05f * (float)((i * 7) % 11 - 5);
    for (int i = 0; i < N_HID; i++) w2[i] = 0.1f * (float)(i % 3 - 1);
    ggml_backend_tensor_set(h->ln_g, g, 0, sizeof(g));
    ggml_backend_tensor_set(h->w1, w1, 0, sizeof(w1));
    ggml_backend_tensor_set(h->w2, w2, 0, sizeof(w2));
}

static void inputs_init(struct inputs * in) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 2, NULL, true };
    in->ctx = ggml_init(p);
    in->x = ggml_new_tensor_2d(in->ctx, GGML_TYPE_F32, N_FEAT, N_BATCH);
    ggml_set_name(in->x, "x");
    in->buf = ggml_backend_alloc_ctx_tensors_from_buft(in->ctx, ggml_backend_cpu_buffer_type());
}

static void inputs_fill(struct inputs * in, int batch_index) {
    for (int i = 0; i < N_FEAT * N_BATCH; i++) {
        ggml_set_f32_1d(in->x, i, sinf(0.1f * (float)(i + 31 * batch_index)));
    }
}

static struct ggml_cgraph * build(struct ggml_context * ctx, const struct head * h, struct ggml_tensor * x) {
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    struct ggml_tensor * n = ggml_mul(ctx, ggml_norm(ctx, x, 1e-5f), h->ln_g);
    struct ggml_tensor * hid = ggml_gelu(ctx, ggml_mul_mat(ctx, h->w1, n));
    ggml_set_name(hid, "hidden");
    struct ggml_tensor * y = ggml_mul_mat(ctx, h->w2, hid);   // [1, N_BATCH]
    ggml_set_name(y, "y");
    ggml_set_output(y);
    ggml_build_forward_expand(gf, y);
    return gf;
}

int main(void) {
    ggml_backend_t gpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    ggml_backend_t cpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
    if (!cpu) {
        return 1;
    }
    if (!gpu) {
        fprintf(stderr, "no GPU: the CPU does everything\n");
        gpu = ggml_backend_cpu_init();
    }

    struct head h;
    struct inputs in;
    head_init(&h, gpu);
    inputs_init(&in);

    ggml_backend_t backends[2] = { gpu, cpu };
    ggml_backend_sched_t sched = ggml_backend_sched_new(backends, NULL, 2, GGML_DEFAULT_GRAPH_SIZE, false, true);
    ggml_backend_sched_set_eval_callback(sched, debug_cb, NULL);

    for (int b = 0; b < 3; b++) {
        struct ggml_init_params p = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true };
        struct ggml_context * ctx = ggml_init(p);
        inputs_fill(&in, b);
        struct ggml_cgraph * gf = build(ctx, &h, in.x);
        ggml_backend_sched_reset(sched);
        if (!ggml_backend_sched_alloc_graph(sched, gf)) {
            fprintf(stderr, "sched alloc failed\n");
            return 1;
        }
        ggml_backend_sched_graph_compute(sched, gf);
        float y[N_BATCH];
        ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "y"), y, 0, sizeof(y));
        printf("batch %d: %.4f %.4f %.4f %.4f (splits %d)\n", b, y[0], y[1], y[2], y[3], ggml_backend_sched_get_n_splits(sched));
        ggml_free(ctx);
    }
    printf("callback saw %d nodes\n", g_nodes_seen);

    ggml_backend_sched_free(sched);
    ggml_backend_buffer_free(in.buf);
    ggml_backend_buffer_free(h.buf_w);
    ggml_free(in.ctx);
    ggml_free(h.ctx_w);
    ggml_backend_free(cpu);
    ggml_backend_free(gpu);
    return 0;
}
