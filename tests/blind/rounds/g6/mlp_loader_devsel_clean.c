// provenance: blind round g6
// run-env: MLP_DEVICE=gpu
// A two-layer MLP: writes a synthetic weights file, loads it into tensors on a device chosen
// at run time (MLP_DEVICE=cpu|gpu|best), runs a batch through gallocr and reads the logits back.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MLP_MAGIC 0x4d4c5031u

struct mlp_hparams {
    int32_t n_input;
    int32_t n_hidden;
    int32_t n_classes;
};

struct mlp_model {
    struct mlp_hparams hparams;
    struct ggml_tensor *fc1_w;
    struct ggml_tensor *fc1_b;
    struct ggml_tensor *fc2_w;
    struct ggml_tensor *fc2_b;
    struct ggml_context *ctx_w;
    ggml_backend_t backend;
    ggml_backend_buffer_t buf_w;
};

static void write_synthetic(FILE *f, const struct mlp_hparams *hp) {
    uint32_t magic = MLP_MAGIC;
    fwrite(&magic, sizeof magic, 1, f);
    fwrite(hp, sizeof *hp, 1, f);
    int64_t sizes[4] = {
        (int64_t)hp->n_input * hp->n_hidden, hp->n_hidden,
        (int64_t)hp->n_hidden * hp->n_classes, hp->n_classes,
    };
    for (int t = 0; t < 4; t++) {
        for (int64_t i = 0; i < sizes[t]; i++) {
            float v = 0.01f * (float)((i * 7 + t * 3) % 17) - 0.08f;
            fwrite(&v, sizeof v, 1, f);
        }
    }
}

static ggml_backend_t pick_backend(const char *want) {
    if (want && strcmp(want, "gpu") == 0) {
        ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
        if (dev) return ggml_backend_dev_init(dev, NULL);
        fprintf(stderr, "no gpu device, falling back to cpu\n");
    } else if (want && strcmp(want, "best") == 0) {
        return ggml_backend_init_best();
    }
    return ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
}

static int read_tensor(FILE *f, struct ggml_tensor *t) {
    size_t n = ggml_nbytes(t);
    void *staging = malloc(n);
    if (!staging) return 0;
    if (fread(staging, 1, n, f) != n) {
        free(staging);
        return 0;
    }
    ggml_backend_tensor_set(t, staging, 0, n);
    free(staging);
    return 1;
}

static int mlp_load(struct mlp_model *m, FILE *f, ggml_backend_t backend) {
    uint32_t magic = 0;
    if (fread(&magic, sizeof magic, 1, f) != 1 || magic != MLP_MAGIC) return 0;
    if (fread(&m->hparams, sizeof m->hparams, 1, f) != 1) return 0;
    const struct mlp_hparams *hp = &m->hparams;

    struct ggml_init_params params = {
        /*.mem_size   =*/ ggml_tensor_overhead() * 4,
        /*.mem_buffer =*/ NULL,
        /*.no_alloc   =*/ true,
    };
    m->ctx_w = ggml_init(params);
    m->fc1_w = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, hp->n_input, hp->n_hidden);
    m->fc1_b = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, hp->n_hidden);
    m->fc2_w = ggml_new_tensor_2d(m->ctx_w, GGML_TYPE_F32, hp->n_hidden, hp->n_classes);
    m->fc2_b = ggml_new_tensor_1d(m->ctx_w, GGML_TYPE_F32, hp->n_classes);
    ggml_set_name(m->fc1_w, "fc1.weight");
    ggml_set_name(m->fc1_b, "fc1.bias");
    ggml_set_name(m->fc2_w, "fc2.weight");
    ggml_set_name(m->fc2_b, "fc2.bias");

    m->backend = backend;
    m->buf_w = ggml_backend_alloc_ctx_tensors(m->ctx_w, backend);
    if (!m->buf_w) return 0;
    ggml_backend_buffer_set_usage(m->buf_w, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);

    struct ggml_tensor *order[4] = {m->fc1_w, m->fc1_b, m->fc2_w, m->fc2_b};
    for (int i = 0; i < 4; i++) {
        if (!read_tensor(f, order[i])) {
            fprintf(stderr, "short read in %s\n", ggml_get_name(order[i]));
            return 0;
        }
    }
    return 1;
}

static struct ggml_cgraph *mlp_graph(struct ggml_context *ctx, const struct mlp_model *m, int n_batch) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, m->hparams.n_input, n_batch);
    ggml_set_name(x, "input");
    ggml_set_input(x);
    struct ggml_tensor *h = ggml_add(ctx, ggml_mul_mat(ctx, m->fc1_w, x), m->fc1_b);
    h = ggml_relu(ctx, h);
    struct ggml_tensor *logits = ggml_add(ctx, ggml_mul_mat(ctx, m->fc2_w, h), m->fc2_b);
    struct ggml_tensor *probs = ggml_soft_max(ctx, logits);
    ggml_set_name(probs, "probs");
    ggml_set_output(probs);
    ggml_build_forward_expand(gf, probs);
    return gf;
}

int main(void) {
    const struct mlp_hparams hp = {16, 32, 4};
    const int n_batch = 3;
    FILE *f = tmpfile();
    if (!f) return 1;
    write_synthetic(f, &hp);
    rewind(f);

    ggml_backend_t backend = pick_backend(getenv("MLP_DEVICE"));
    if (!backend) return 1;
    printf("backend: %s\n", ggml_backend_name(backend));

    struct mlp_model model;
    memset(&model, 0, sizeof model);
    if (!mlp_load(&model, f, backend)) {
        fprintf(stderr, "load failed\n");
        return 1;
    }
    fclose(f);

    size_t meta = ggml_tensor_overhead() * GGML_DEFAULT_GRAPH_SIZE + ggml_graph_overhead();
    struct ggml_init_params gp = {meta, NULL, true};
    struct ggml_context *ctx_g = ggml_init(gp);
    struct ggml_cgraph *gf = mlp_graph(ctx_g, &model, n_batch);

    ggml_gallocr_t galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    if (!ggml_gallocr_alloc_graph(galloc, gf)) {
        fprintf(stderr, "alloc graph failed\n");
        return 1;
    }

    float input[16 * 3];
    for (int i = 0; i < hp.n_input * n_batch; i++) input[i] = sinf(0.3f * (float)i);
    struct ggml_tensor *x = ggml_graph_get_tensor(gf, "input");
    ggml_backend_tensor_set(x, input, 0, sizeof input);

    if (ggml_backend_graph_compute(backend, gf) != GGML_STATUS_SUCCESS) return 1;

    struct ggml_tensor *probs = ggml_graph_get_tensor(gf, "probs");
    float out[4 * 3];
    ggml_backend_tensor_get(probs, out, 0, ggml_nbytes(probs));
    for (int b = 0; b < n_batch; b++) {
        int best = 0;
        for (int c = 1; c < hp.n_classes; c++)
            if (out[b * hp.n_classes + c] > out[b * hp.n_classes + best]) best = c;
        printf("sample %d -> class %d (p=%.3f)\n", b, best, out[b * hp.n_classes + best]);
    }

    ggml_gallocr_free(galloc);
    ggml_free(ctx_g);
    ggml_backend_buffer_free(model.buf_w);
    ggml_free(model.ctx_w);
    ggml_backend_free(backend);
    return 0;
}
