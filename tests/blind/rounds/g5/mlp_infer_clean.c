// provenance: blind round g5
// mlp_infer: a two-layer MLP classifier, weights on a device picked at run time.
// run-args: --device CUDA1 --batch 4
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_IN 16
#define N_HIDDEN 32
#define N_OUT 10

struct mlp_params {
    const char *device_name; /* NULL: best available */
    int batch;
    int n_threads;
    bool verbose;
};

struct mlp_model {
    struct ggml_tensor *fc1_w;
    struct ggml_tensor *fc1_b;
    struct ggml_tensor *fc2_w;
    struct ggml_tensor *fc2_b;

    struct ggml_context *ctx_w;
    ggml_backend_buffer_t buf_w;
    ggml_backend_t backend;
};

static void usage(const char *argv0) {
    fprintf(stderr, "usage: %s [--device NAME] [--batch N] [--threads N] [-v]\n", argv0);
}

static bool parse_args(int argc, char **argv, struct mlp_params *p) {
    p->device_name = NULL;
    p->batch = 2;
    p->n_threads = 2;
    p->verbose = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            p->device_name = argv[++i];
        } else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc) {
            p->batch = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            p->n_threads = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-v") == 0) {
            p->verbose = true;
        } else {
            usage(argv[0]);
            return false;
        }
    }
    if (p->batch <= 0 || p->batch > 64) p->batch = 2;
    return true;
}

static ggml_backend_t pick_backend(const struct mlp_params *p) {
    if (p->device_name) {
        ggml_backend_dev_t dev = ggml_backend_dev_by_name(p->device_name);
        if (dev) {
            return ggml_backend_dev_init(dev, NULL);
        }
        fprintf(stderr, "device %s not found, falling back\n", p->device_name);
    }
    return ggml_backend_init_best();
}

static void fill_pattern(float *dst, int n, float scale, int seed) {
    for (int i = 0; i < n; i++) {
        dst[i] = scale * sinf(0.37f * (float)(i + seed));
    }
}

static bool mlp_load(struct mlp_model *m, const struct mlp_params *p) {
    m->backend = pick_backend(p);
    if (!m->backend) return false;
    if (ggml_backend_is_cpu(m->backend)) {
        ggml_backend_cpu_set_n_threads(m->backend, p->n_threads);
    }

    struct ggml_init_params ip = {
        /*.mem_size   =*/ 4 * ggml_tensor_overhead(),
        /*.mem_buffer =*/ NULL,
        /*.no_alloc   =*/ true,
    };
    m->ctx_w = ggml_init(ip);
    m->fc1_w = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_IN, N_HIDDEN);
    m->fc1_b = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, N_HIDDEN);
    m->fc2_w = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, N_HIDDEN, N_OUT);
    m->fc2_b = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, N_OUT);
    ggml_set_name(m->fc1_w, "fc1.weight");
    ggml_set_name(m->fc1_b, "fc1.bias");
    ggml_set_name(m->fc2_w, "fc2.weight");
    ggml_set_name(m->fc2_b, "fc2.bias");

    m->buf_w = ggml_backend_alloc_ctx_tensors(m->ctx_w, m->backend);
    if (!m->buf_w) {
        fprintf(stderr, "failed to allocate weights\n");
        return false;
    }
    ggml_backend_buffer_set_usage(m->buf_w, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);

    struct ggml_tensor *all[4] = { m->fc1_w, m->fc1_b, m->fc2_w, m->fc2_b };
    for (int i = 0; i < 4; i++) {
        int n = (int)ggml_nelements(all[i]);
        float *tmp = malloc(sizeof(float) * n);
        fill_pattern(tmp, n, 0.1f, i * 7);
        ggml_backend_tensor_set(all[i], tmp, 0, ggml_nbytes(all[i]));
        free(tmp);
    }
    if (p->verbose) {
        printf("weights: %.1f KiB on %s\n", ggml_backend_buffer_get_size(m->buf_w) / 1024.0,
               ggml_backend_name(m->backend));
    }
    return true;
}

static void mlp_free(struct mlp_model *m) {
    if (m->buf_w) ggml_backend_buffer_free(m->buf_w);
    if (m->ctx_w) ggml_free(m->ctx_w);
    if (m->backend) ggml_backend_free(m->backend);
}

static struct ggml_cgraph *mlp_build(struct ggml_context *ctx, const struct mlp_model *m, int batch) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_IN, batch);
    ggml_set_name(x, "input");
    ggml_set_input(x);

    struct ggml_tensor *h = ggml_mul_mat(ctx, m->fc1_w, x);
    h = ggml_add(ctx, h, m->fc1_b);
    h = ggml_relu(ctx, h);
    struct ggml_tensor *logits = ggml_add(ctx, ggml_mul_mat(ctx, m->fc2_w, h), m->fc2_b);
    struct ggml_tensor *probs = ggml_soft_max(ctx, logits);
    ggml_set_name(probs, "probs");
    ggml_set_output(probs);
    ggml_build_forward_expand(gf, probs);
    return gf;
}

static int argmax(const float *v, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) {
        if (v[i] > v[best]) best = i;
    }
    return best;
}

int main(int argc, char **argv) {
    struct mlp_params params;
    if (!parse_args(argc, argv, &params)) return 1;

    struct mlp_model model;
    memset(&model, 0, sizeof model);
    if (!mlp_load(&model, &params)) {
        mlp_free(&model);
        return 1;
    }

    size_t meta = ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead();
    struct ggml_init_params gp = { meta, NULL, true };
    struct ggml_context *ctx_g = ggml_init(gp);
    struct ggml_cgraph *gf = mlp_build(ctx_g, &model, params.batch);

    ggml_gallocr_t alloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(model.backend));
    if (!ggml_gallocr_alloc_graph(alloc, gf)) {
        fprintf(stderr, "graph allocation failed\n");
        return 1;
    }

    struct ggml_tensor *in = ggml_graph_get_tensor(gf, "input");
    float *xin = malloc(sizeof(float) * N_IN * params.batch);
    fill_pattern(xin, N_IN * params.batch, 1.0f, 3);
    ggml_backend_tensor_set(in, xin, 0, ggml_nbytes(in));

    if (ggml_backend_graph_compute(model.backend, gf) != GGML_STATUS_SUCCESS) {
        fprintf(stderr, "compute failed\n");
        return 1;
    }

    struct ggml_tensor *probs = ggml_graph_get_tensor(gf, "probs");
    float *out = malloc(ggml_nbytes(probs));
    ggml_backend_tensor_get(probs, out, 0, ggml_nbytes(probs));
    for (int b = 0; b < params.batch; b++) {
        const float *row = out + b * N_OUT;
        float sum = 0.0f;
        for (int k = 0; k < N_OUT; k++) sum += row[k];
        printf("sample %d: class %d (sum %.3f)\n", b, argmax(row, N_OUT), sum);
    }

    free(out);
    free(xin);
    ggml_gallocr_free(alloc);
    ggml_free(ctx_g);
    mlp_free(&model);
    return 0;
}
