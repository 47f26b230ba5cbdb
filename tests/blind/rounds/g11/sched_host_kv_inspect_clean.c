// llama.cpp --no-kv-offload done right: the attention weights are in a GPU buffer, the K/V
// cache in a CPU buffer, and each decode graph goes through ggml_backend_sched over {CUDA0,
// CPU}, which runs the cache writes (ggml_cpy into one-row views) and the attention over the
// cache on the CPU and the projections on the GPU. After each step a debug helper reads the
// newest K row straight from the cache's ->data, guarded by ggml_backend_buffer_is_host, and
// falls back to ggml_backend_tensor_get otherwise; the output goes through tensor_get too.
// Tricky but correct: host reads of ->data (of host memory only), views of the cache made per
// step, and weights on a device the cache is not on.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define N_EMBD 16
#define N_CTX 12

struct attn_weights {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *wq, *wk, *wv;
};

struct kv_cache {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *k, *v;
    int head;
};

static struct ggml_context *meta(int n, bool graph) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * (size_t)n + (graph ? ggml_graph_overhead() : 0), NULL, true};
    return ggml_init(ip);
}

static void weights_init(struct attn_weights *w, ggml_backend_t gpu) {
    w->ctx = meta(3, false);
    w->wq = ggml_new_tensor_2d(w->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    w->wk = ggml_new_tensor_2d(w->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    w->wv = ggml_new_tensor_2d(w->ctx, GGML_TYPE_F32, N_EMBD, N_EMBD);
    w->buf = ggml_backend_alloc_ctx_tensors(w->ctx, gpu);
    float tmp[N_EMBD * N_EMBD];
    struct ggml_tensor *all[3] = {w->wq, w->wk, w->wv};
    for (int t = 0; t < 3; t++) {
        for (int i = 0; i < N_EMBD * N_EMBD; i++) tmp[i] = (float)((i * (t + 3)) % 11 - 5) / 20.0f;
        ggml_backend_tensor_set(all[t], tmp, 0, sizeof tmp);
    }
}

static void kv_init(struct kv_cache *kv, ggml_backend_t cpu) {
    kv->ctx = meta(2, false);
    kv->k = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    kv->v = ggml_new_tensor_2d(kv->ctx, GGML_TYPE_F32, N_EMBD, N_CTX);
    kv->buf = ggml_backend_alloc_ctx_tensors(kv->ctx, cpu);
    ggml_backend_buffer_clear(kv->buf, 0);
    kv->head = 0;
}

static float kv_row_norm(const struct kv_cache *kv, int row) {
    float tmp[N_EMBD];
    const float *p;
    if (ggml_backend_buffer_is_host(kv->buf)) {
        p = (const float *)((const char *)kv->k->data + (size_t)row * kv->k->nb[1]);
    } else {
        ggml_backend_tensor_get(kv->k, tmp, (size_t)row * kv->k->nb[1], sizeof tmp);
        p = tmp;
    }
    float s = 0.0f;
    for (int i = 0; i < N_EMBD; i++) s += p[i] * p[i];
    return s;
}

static struct ggml_cgraph *build_step(struct ggml_context *ctx, const struct attn_weights *w,
                                      struct kv_cache *kv) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_EMBD, 1);
    ggml_set_name(x, "inp_embd");
    ggml_set_input(x);
    struct ggml_tensor *k_row = ggml_view_2d(ctx, kv->k, N_EMBD, 1, kv->k->nb[1], (size_t)kv->head * kv->k->nb[1]);
    struct ggml_tensor *v_row = ggml_view_2d(ctx, kv->v, N_EMBD, 1, kv->v->nb[1], (size_t)kv->head * kv->v->nb[1]);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, ggml_mul_mat(ctx, w->wk, x), k_row));
    ggml_build_forward_expand(gf, ggml_cpy(ctx, ggml_mul_mat(ctx, w->wv, x), v_row));

    const int n_kv = kv->head + 1;
    struct ggml_tensor *k = ggml_view_2d(ctx, kv->k, N_EMBD, n_kv, kv->k->nb[1], 0);
    struct ggml_tensor *v = ggml_view_2d(ctx, kv->v, N_EMBD, n_kv, kv->v->nb[1], 0);
    struct ggml_tensor *q = ggml_mul_mat(ctx, w->wq, x);
    struct ggml_tensor *kq = ggml_soft_max(ctx, ggml_scale(ctx, ggml_mul_mat(ctx, k, q), 0.25f));
    struct ggml_tensor *out = ggml_mul_mat(ctx, ggml_cont(ctx, ggml_transpose(ctx, v)), kq);
    ggml_set_name(out, "attn_out");
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);
    return gf;
}

int main(void) {
    ggml_backend_t gpu = ggml_backend_cuda_init(0);
    ggml_backend_t cpu = ggml_backend_cpu_init();
    if (!gpu || !cpu) return 1;
    ggml_backend_cpu_set_n_threads(cpu, 1);

    struct attn_weights w;
    struct kv_cache kv;
    weights_init(&w, gpu);
    kv_init(&kv, cpu);

    ggml_backend_t backends[2] = {gpu, cpu};
    ggml_backend_sched_t sched = ggml_backend_sched_new(backends, NULL, 2, GGML_DEFAULT_GRAPH_SIZE, false, true);

    float x[N_EMBD], out[N_EMBD];
    float total = 0.0f;
    for (int step = 0; step < 8; step++) {
        struct ggml_context *ctx = meta(64, true);
        struct ggml_cgraph *gf = build_step(ctx, &w, &kv);
        ggml_backend_sched_reset(sched);
        if (!ggml_backend_sched_alloc_graph(sched, gf)) return 1;
        for (int i = 0; i < N_EMBD; i++) x[i] = (float)((i + 2 * step) % 5) / 5.0f;
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_embd"), x, 0, sizeof x);
        if (ggml_backend_sched_graph_compute(sched, gf) != GGML_STATUS_SUCCESS) return 1;
        ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "attn_out"), out, 0, sizeof out);
        total += out[0] + kv_row_norm(&kv, kv.head);
        kv.head++;
        ggml_free(ctx);
    }
    printf("8 steps, checksum %.4f\n", total);

    ggml_backend_sched_free(sched);
    ggml_backend_buffer_free(kv.buf);
    ggml_backend_buffer_free(w.buf);
    ggml_free(kv.ctx);
    ggml_free(w.ctx);
    ggml_backend_free(cpu);
    ggml_backend_free(gpu);
    return 0;
}
