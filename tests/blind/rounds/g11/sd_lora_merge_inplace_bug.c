// stable-diffusion.cpp-style LoRA application: the UNet's attention projections are loaded
// into a GPU buffer; a LoRA file's low-rank pairs (lora_up, lora_down) are loaded into a CPU
// buffer; each pair is matched to its model tensor by name (ggml_get_tensor) and merged,
// W += scale * up x down, then a UNet block is evaluated on the GPU.
// The mistake: the merge takes its in-place fast path when the LoRA buffer is host memory
// (it always is), and then writes through the model tensor's ->data, which is GPU memory.
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

#define DIM 32
#define RANK 4
#define N_PROJ 3

static const char *const k_proj_names[N_PROJ] = {
    "unet.attn1.to_q.weight", "unet.attn1.to_k.weight", "unet.attn1.to_v.weight"};

struct unet_model {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    ggml_backend_t backend;
};

struct lora_adapter {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    float scale;
};

static struct ggml_context *meta_ctx(int n) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * (size_t)n + ggml_graph_overhead(), NULL, true};
    return ggml_init(ip);
}

static void upload_pattern(struct ggml_tensor *t, int seed) {
    int64_t n = ggml_nelements(t);
    float *v = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) v[i] = (float)((i * 31 + seed) % 17 - 8) / 64.0f;
    ggml_backend_tensor_set(t, v, 0, ggml_nbytes(t));
    free(v);
}

static void unet_load(struct unet_model *m, ggml_backend_t backend) {
    m->backend = backend;
    m->ctx = meta_ctx(N_PROJ);
    for (int i = 0; i < N_PROJ; i++) {
        struct ggml_tensor *w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, DIM, DIM);
        ggml_set_name(w, k_proj_names[i]);
    }
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
    int seed = 1;
    for (struct ggml_tensor *t = ggml_get_first_tensor(m->ctx); t; t = ggml_get_next_tensor(m->ctx, t))
        upload_pattern(t, seed++);
}

static void lora_load(struct lora_adapter *a, ggml_backend_t cpu, float scale) {
    a->scale = scale;
    a->ctx = meta_ctx(2 * N_PROJ);
    for (int i = 0; i < N_PROJ; i++) {
        struct ggml_tensor *up = ggml_new_tensor_2d(a->ctx, GGML_TYPE_F32, RANK, DIM);
        struct ggml_tensor *down = ggml_new_tensor_2d(a->ctx, GGML_TYPE_F32, DIM, RANK);
        ggml_format_name(up, "%s.lora_up", k_proj_names[i]);
        ggml_format_name(down, "%s.lora_down", k_proj_names[i]);
    }
    a->buf = ggml_backend_alloc_ctx_tensors(a->ctx, cpu);
    int seed = 100;
    for (struct ggml_tensor *t = ggml_get_first_tensor(a->ctx); t; t = ggml_get_next_tensor(a->ctx, t))
        upload_pattern(t, seed++);
}

/* W[o][i] += scale * sum_r up[o][r] * down[r][i] */
static void merge_pair(struct ggml_tensor *w, const struct ggml_tensor *up,
                       const struct ggml_tensor *down, float scale) {
    const float *u = (const float *)up->data;
    const float *d = (const float *)down->data;
    float *dst = (float *)w->data;
    for (int o = 0; o < DIM; o++) {
        for (int i = 0; i < DIM; i++) {
            float acc = 0.0f;
            for (int r = 0; r < RANK; r++) acc += u[o * RANK + r] * d[r * DIM + i];
            dst[o * DIM + i] += scale * acc; // expect-error: ggml-host-access
        }
    }
}

static int lora_apply(struct unet_model *m, struct lora_adapter *a) {
    int merged = 0;
    bool fast = ggml_backend_buffer_is_host(a->buf);
    char name[GGML_MAX_NAME];
    for (int i = 0; i < N_PROJ; i++) {
        struct ggml_tensor *w = ggml_get_tensor(m->ctx, k_proj_names[i]);
        snprintf(name, sizeof name, "%s.lora_up", k_proj_names[i]);
        struct ggml_tensor *up = ggml_get_tensor(a->ctx, name);
        snprintf(name, sizeof name, "%s.lora_down", k_proj_names[i]);
        struct ggml_tensor *down = ggml_get_tensor(a->ctx, name);
        if (!w || !up || !down) continue;
        if (fast) {
            merge_pair(w, up, down, a->scale);
        } else {
            fprintf(stderr, "lora: adapter not in host memory, skipping %s\n", k_proj_names[i]);
            continue;
        }
        merged++;
    }
    return merged;
}

static float unet_attn_probe(struct unet_model *m) {
    struct ggml_context *ctx = meta_ctx(32);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, DIM, 8);
    ggml_set_input(x);
    struct ggml_tensor *q = ggml_mul_mat(ctx, ggml_get_tensor(m->ctx, k_proj_names[0]), x);
    struct ggml_tensor *k = ggml_mul_mat(ctx, ggml_get_tensor(m->ctx, k_proj_names[1]), x);
    struct ggml_tensor *kq = ggml_soft_max(ctx, ggml_mul_mat(ctx, k, q));
    ggml_build_forward_expand(gf, kq);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(m->backend));
    ggml_gallocr_alloc_graph(ga, gf);
    float xin[DIM * 8];
    for (int i = 0; i < DIM * 8; i++) xin[i] = (float)(i % 5) * 0.2f;
    ggml_backend_tensor_set(x, xin, 0, sizeof xin);
    ggml_backend_graph_compute(m->backend, gf);
    float out[8 * 8];
    ggml_backend_tensor_get(kq, out, 0, sizeof out);
    ggml_gallocr_free(ga);
    ggml_free(ctx);
    return out[0];
}

int main(void) {
    ggml_backend_t gpu = ggml_backend_cuda_init(0);
    ggml_backend_t cpu = ggml_backend_cpu_init();
    if (!gpu || !cpu) return 1;
    struct unet_model unet;
    struct lora_adapter lora;
    unet_load(&unet, gpu);
    lora_load(&lora, cpu, 0.75f);
    int n = lora_apply(&unet, &lora);
    printf("merged %d LoRA pairs, probe %.5f\n", n, unet_attn_probe(&unet));
    ggml_backend_buffer_free(lora.buf);
    ggml_backend_buffer_free(unet.buf);
    ggml_free(lora.ctx);
    ggml_free(unet.ctx);
    ggml_backend_free(cpu);
    ggml_backend_free(gpu);
    return 0;
}
