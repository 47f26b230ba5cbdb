// corpus/ggml/g1_c08_pipeline_split_bug.c — from blind round g1 (c08_pipeline_split_bug.c, labelled by running it on real ggml and the emulated GPU): a four-layer MLP split over two GPUs (layers 0-1 on CUDA0,
// layers 2-3 on CUDA1), each stage its own graph, activations copied between the devices.
// Stage two was pasted from stage one and still computes on CUDA0; the final calibration
// graph runs on the CPU backend although its temperature tensor was put on CUDA0.
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
#include "ggml-cuda.h"

#define N_LAYER 4
#define N_EMBD  16
#define N_BATCH 2

struct stage {
    ggml_backend_t backend;
    struct ggml_context * ctx_w;
    ggml_backend_buffer_t buf_w;
    struct ggml_tensor * w[N_LAYER];
    int first, last;
};

static void stage_init(struct stage * s, ggml_backend_t backend, int first, int last) {
    struct ggml_init_params p = { ggml_tensor_overhead() * N_LAYER, NULL, true };
    s->ctx_w = ggml_init(p);
    s->backend = backend;
    s->first = first;
    s->last = last;
    for (int l = first; l <= last; l++) {
        s->w[l] = ggml_new_tensor_2d(s->ctx_w, GGML_TYPE_F32, N_EMBD, N_EMBD);
        ggml_format_name(s->w[l], "blk.%d.w", l);
    }
    s->buf_w = ggml_backend_alloc_ctx_tensors(s->ctx_w, backend);
    float m[N_EMBD * N_EMBD];
    for (int l = first; l <= last; l++) {
        for (int i = 0; i < N_EMBD * N_EMBD; i++) {
            m[i] = (i % (N_EMBD + 1) == 0 ? 0.9f : 0.0f) + 0.01f * (float)((i + l) % 5);
        }
        ggml_backend_tensor_set(s->w[l], m, 0, sizeof(m));
    }
}

struct stage_run {
    struct ggml_context * ctx;
    struct ggml_cgraph * gf;
    ggml_gallocr_t ga;
    struct ggml_tensor * in;
    struct ggml_tensor * out;
};

static void stage_build(struct stage_run * r, const struct stage * s) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true };
    r->ctx = ggml_init(p);
    r->in = ggml_new_tensor_2d(r->ctx, GGML_TYPE_F32, N_EMBD, N_BATCH);
    ggml_set_input(r->in);
    struct ggml_tensor * h = r->in;
    for (int l = s->first; l <= s->last; l++) {
        h = ggml_silu(r->ctx, ggml_mul_mat(r->ctx, s->w[l], h));
    }
    r->out = h;
    ggml_set_output(r->out);
    r->gf = ggml_new_graph(r->ctx);
    ggml_build_forward_expand(r->gf, r->out);
    r->ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(s->backend));
    ggml_gallocr_alloc_graph(r->ga, r->gf);
}

static void stage_free(struct stage_run * r) {
    ggml_gallocr_free(r->ga);
    ggml_free(r->ctx);
}

int main(void) {
    if (ggml_backend_cuda_get_device_count() < 2) {
        fprintf(stderr, "needs two CUDA devices\n");
        return 1;
    }
    ggml_backend_t gpu0 = ggml_backend_cuda_init(0);
    ggml_backend_t gpu1 = ggml_backend_cuda_init(1);
    ggml_backend_t cpu = ggml_backend_cpu_init();

    struct stage s0, s1;
    stage_init(&s0, gpu0, 0, 1);
    stage_init(&s1, gpu1, 2, 3);

    // calibration temperature, kept with the first stage
    struct ggml_init_params tp = { ggml_tensor_overhead(), NULL, true };
    struct ggml_context * ctx_t = ggml_init(tp);
    struct ggml_tensor * temp = ggml_new_tensor_1d(ctx_t, GGML_TYPE_F32, 1);
    ggml_backend_buffer_t buf_t = ggml_backend_alloc_ctx_tensors(ctx_t, gpu0);
    const float inv_temp = 1.0f / 1.5f;
    ggml_backend_tensor_set(temp, &inv_temp, 0, sizeof(inv_temp));

    struct stage_run r0, r1;
    stage_build(&r0, &s0);
    stage_build(&r1, &s1);

    float x[N_EMBD * N_BATCH];
    for (int i = 0; i < N_EMBD * N_BATCH; i++) x[i] = 0.1f * (float)(i % 7);
    ggml_backend_tensor_set(r0.in, x, 0, sizeof(x));
    ggml_backend_graph_compute(s0.backend, r0.gf);
    ggml_backend_tensor_copy(r0.out, r1.in);
    ggml_backend_graph_compute(s0.backend, r1.gf); // expect-error: ggml-backend-mismatch

    // calibrated probabilities on the host side
    struct ggml_init_params cp = { ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true };
    struct ggml_context * ctx_c = ggml_init(cp);
    struct ggml_tensor * logits = ggml_new_tensor_2d(ctx_c, GGML_TYPE_F32, N_EMBD, N_BATCH);
    struct ggml_tensor * probs = ggml_soft_max(ctx_c, ggml_mul(ctx_c, logits, temp));
    struct ggml_cgraph * gc = ggml_new_graph(ctx_c);
    ggml_build_forward_expand(gc, probs);
    ggml_gallocr_t ga_c = ggml_gallocr_new(ggml_backend_cpu_buffer_type());
    ggml_gallocr_alloc_graph(ga_c, gc);
    ggml_backend_tensor_copy(r1.out, logits);
    ggml_backend_graph_compute(cpu, gc); // expect-error: ggml-backend-mismatch

    float pr[N_EMBD * N_BATCH];
    ggml_backend_tensor_get(probs, pr, 0, sizeof(pr));
    for (int b = 0; b < N_BATCH; b++) {
        printf("batch %d: p[0]=%.4f p[last]=%.4f\n", b, pr[b * N_EMBD], pr[b * N_EMBD + N_EMBD - 1]);
    }

    ggml_gallocr_free(ga_c);
    ggml_free(ctx_c);
    stage_free(&r1);
    stage_free(&r0);
    ggml_backend_buffer_free(buf_t);
    ggml_free(ctx_t);
    ggml_backend_buffer_free(s1.buf_w);
    ggml_backend_buffer_free(s0.buf_w);
    ggml_free(s1.ctx_w);
    ggml_free(s0.ctx_w);
    ggml_backend_free(cpu);
    ggml_backend_free(gpu1);
    ggml_backend_free(gpu0);
    return 0;
}
