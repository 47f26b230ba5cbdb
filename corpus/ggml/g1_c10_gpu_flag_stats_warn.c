// corpus/ggml/g1_c10_gpu_flag_stats_warn.c — from blind round g1 (c10_gpu_flag_stats_warn.c, labelled by running it on real ggml and the emulated GPU): a gated linear unit block with a `--gpu` flag. The weights go
// to the device the flag picks; two host-side helpers written for the CPU build are still
// called on every path: one prints weight statistics through t->data, the other resets the
// gate bias with ggml_set_f32. Both are fine in CPU memory and fault on the GPU.
// run-args: --gpu
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

#define N_IN  8
#define N_FF  12

struct glu_block {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor * w_gate;  // [N_IN, N_FF]
    struct ggml_tensor * w_up;    // [N_IN, N_FF]
    struct ggml_tensor * w_down;  // [N_FF, N_IN]
    struct ggml_tensor * b_gate;  // [N_FF]
};

struct options {
    bool use_gpu;
    int n_tokens;
};

static struct options parse_args(int argc, char ** argv) {
    struct options o = { false, 3 };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--gpu") == 0) {
            o.use_gpu = true;
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            o.n_tokens = atoi(argv[++i]);
        }
    }
    if (o.n_tokens < 1 || o.n_tokens > 16) {
        o.n_tokens = 3;
    }
    return o;
}

static void print_stats(const struct ggml_tensor * t) {
    const float * w = (const float *) t->data;
    double sum = 0.0, sq = 0.0;
    for (int64_t i = 0; i < ggml_nelements(t); i++) {
        sum += w[i]; // expect-warning: ggml-host-access
        sq += (double) w[i] * w[i];
    }
    double n = (double) ggml_nelements(t);
    printf("%-8s mean %+.4f rms %.4f\n", ggml_get_name(t), sum / n, sqrt(sq / n));
}

static void glu_init(struct glu_block * g, ggml_backend_t backend) {
    struct ggml_init_params p = { ggml_tensor_overhead() * 4, NULL, true };
    g->ctx = ggml_init(p);
    g->w_gate = ggml_new_tensor_2d(g->ctx, GGML_TYPE_F32, N_IN, N_FF);
    g->w_up = ggml_new_tensor_2d(g->ctx, GGML_TYPE_F32, N_IN, N_FF);
    g->w_down = ggml_new_tensor_2d(g->ctx, GGML_TYPE_F32, N_FF, N_IN);
    g->b_gate = ggml_new_tensor_1d(g->ctx, GGML_TYPE_F32, N_FF);
    ggml_set_name(g->w_gate, "w_gate");
    ggml_set_name(g->w_up, "w_up");
    ggml_set_name(g->w_down, "w_down");
    g->buf = ggml_backend_alloc_ctx_tensors(g->ctx, backend);

    float tmp[N_IN * N_FF];
    struct ggml_tensor * mats[3] = { g->w_gate, g->w_up, g->w_down };
    for (int m = 0; m < 3; m++) {
        for (int i = 0; i < N_IN * N_FF; i++) {
            tmp[i] = 0.15f * sinf(0.4f * (float) i + (float) m);
        }
        ggml_backend_tensor_set(mats[m], tmp, 0, ggml_nbytes(mats[m]));
    }
    ggml_set_f32(g->b_gate, 0.0f); // expect-warning: ggml-host-access
}

static struct ggml_tensor * glu_forward(struct ggml_context * ctx, const struct glu_block * g, struct ggml_tensor * x) {
    struct ggml_tensor * gate = ggml_silu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, g->w_gate, x), g->b_gate));
    struct ggml_tensor * up = ggml_mul_mat(ctx, g->w_up, x);
    return ggml_add(ctx, x, ggml_mul_mat(ctx, g->w_down, ggml_mul(ctx, gate, up)));
}

int main(int argc, char ** argv) {
    struct options opt = parse_args(argc, argv);
    ggml_backend_t backend = NULL;
    if (opt.use_gpu) {
        backend = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, NULL);
    }
    if (!backend) {
        backend = ggml_backend_cpu_init();
    }
    printf("running on %s\n", ggml_backend_name(backend));

    struct glu_block g;
    glu_init(&g, backend);
    print_stats(g.w_gate);
    print_stats(g.w_down);

    struct ggml_init_params gp = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true };
    struct ggml_context * ctx = ggml_init(gp);
    struct ggml_tensor * x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_IN, opt.n_tokens);
    ggml_set_input(x);
    struct ggml_tensor * y = glu_forward(ctx, &g, x);
    ggml_set_output(y);
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, y);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);

    float xs[N_IN * 16];
    for (int i = 0; i < N_IN * opt.n_tokens; i++) xs[i] = 0.5f - 0.03f * (float) i;
    ggml_backend_tensor_set(x, xs, 0, ggml_nbytes(x));
    ggml_backend_graph_compute(backend, gf);

    float ys[N_IN * 16];
    ggml_backend_tensor_get(y, ys, 0, ggml_nbytes(y));
    for (int t = 0; t < opt.n_tokens; t++) {
        printf("token %d: y[0]=%+.4f y[%d]=%+.4f\n", t, ys[t * N_IN], N_IN - 1, ys[t * N_IN + N_IN - 1]);
    }

    ggml_gallocr_free(ga);
    ggml_free(ctx);
    ggml_backend_buffer_free(g.buf);
    ggml_free(g.ctx);
    ggml_backend_free(backend);
    return 0;
}
