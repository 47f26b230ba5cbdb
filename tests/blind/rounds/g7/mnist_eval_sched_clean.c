// run-args: 5 8
//
// MNIST-style MLP evaluation through ggml_backend_sched: weights on the best device, the
// arg-max pinned to the CPU backend. Predictions are read through the host pointer only when
// the scheduler put them in a host buffer, through ggml_backend_tensor_get otherwise.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_IN 64
#define N_HIDDEN 32
#define N_CLASSES 10

struct mlp {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *fc1_w, *fc1_b, *fc2_w, *fc2_b;
};

struct eval_state {
    ggml_backend_t backends[2];
    int n_backends;
    ggml_backend_t cpu;
    ggml_backend_sched_t sched;
    int n_batch;
    int n_correct, n_seen;
};

static float lcg(uint32_t *s) {
    *s = *s * 1103515245u + 12345u;
    return (float) ((*s >> 9) & 0x3fff) / 16384.0f - 0.5f;
}

static void upload_random(struct ggml_tensor *t, uint32_t seed, float scale) {
    int64_t n = ggml_nelements(t);
    float *h = malloc(n * sizeof(float));
    for (int64_t i = 0; i < n; i++) h[i] = scale * lcg(&seed);
    ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
    free(h);
}

static int mlp_load(struct mlp *m, ggml_backend_t backend) {
    struct ggml_init_params ip = { 4 * ggml_tensor_overhead(), NULL, true };
    m->ctx = ggml_init(ip);
    m->fc1_w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_IN, N_HIDDEN);
    m->fc1_b = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_HIDDEN);
    m->fc2_w = ggml_new_tensor_2d(m->ctx, GGML_TYPE_F32, N_HIDDEN, N_CLASSES);
    m->fc2_b = ggml_new_tensor_1d(m->ctx, GGML_TYPE_F32, N_CLASSES);
    m->buf = ggml_backend_alloc_ctx_tensors(m->ctx, backend);
    if (!m->buf) return -1;
    ggml_backend_buffer_set_usage(m->buf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    upload_random(m->fc1_w, 11, 0.4f);
    upload_random(m->fc1_b, 12, 0.1f);
    upload_random(m->fc2_w, 13, 0.4f);
    upload_random(m->fc2_b, 14, 0.1f);
    return 0;
}

static struct ggml_cgraph *build_eval(const struct mlp *m, struct ggml_context *ctx, int n_batch) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *images = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, N_IN, n_batch);
    ggml_set_name(images, "images");
    ggml_set_input(images);

    struct ggml_tensor *h = ggml_relu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, m->fc1_w, images), m->fc1_b));
    struct ggml_tensor *logits = ggml_add(ctx, ggml_mul_mat(ctx, m->fc2_w, h), m->fc2_b);
    struct ggml_tensor *probs = ggml_soft_max(ctx, logits);
    ggml_set_name(probs, "probs");
    struct ggml_tensor *pred = ggml_argmax(ctx, probs);
    ggml_set_name(pred, "pred");
    ggml_set_output(pred);
    ggml_build_forward_expand(gf, pred);
    return gf;
}

static void make_batch(float *x, int32_t *labels, int n_batch, uint32_t seed) {
    for (int b = 0; b < n_batch; b++) {
        labels[b] = (int32_t) (seed + b) % N_CLASSES;
        for (int i = 0; i < N_IN; i++) {
            x[b * N_IN + i] = lcg(&seed) + (i % N_CLASSES == labels[b] ? 1.0f : 0.0f);
        }
    }
}

static int read_predictions(const struct ggml_tensor *pred, int32_t *out, int n) {
    if (pred->buffer && ggml_backend_buffer_is_host(pred->buffer)) {
        memcpy(out, pred->data, n * sizeof(int32_t));
        return 1;
    }
    ggml_backend_tensor_get(pred, out, 0, n * sizeof(int32_t));
    return 0;
}

static int eval_batch(struct eval_state *st, const struct mlp *m, int batch_idx) {
    size_t sz = ggml_tensor_overhead() * 64 + ggml_graph_overhead();
    struct ggml_init_params ip = { sz, NULL, true };
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = build_eval(m, ctx, st->n_batch);

    ggml_backend_sched_reset(st->sched);
    ggml_backend_sched_set_tensor_backend(st->sched, ggml_graph_get_tensor(gf, "pred"), st->cpu);
    if (!ggml_backend_sched_alloc_graph(st->sched, gf)) {
        ggml_free(ctx);
        return -1;
    }

    float *x = malloc(sizeof(float) * N_IN * st->n_batch);
    int32_t *labels = malloc(sizeof(int32_t) * st->n_batch);
    int32_t *pred = malloc(sizeof(int32_t) * st->n_batch);
    make_batch(x, labels, st->n_batch, 1000u + (uint32_t) batch_idx * 77u);
    ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "images"), x, 0, sizeof(float) * N_IN * st->n_batch);

    if (ggml_backend_sched_graph_compute(st->sched, gf) != GGML_STATUS_SUCCESS) {
        free(x); free(labels); free(pred);
        ggml_free(ctx);
        return -1;
    }
    int direct = read_predictions(ggml_graph_get_tensor(gf, "pred"), pred, st->n_batch);
    for (int b = 0; b < st->n_batch; b++) {
        st->n_correct += pred[b] == labels[b];
    }
    st->n_seen += st->n_batch;
    if (batch_idx == 0) {
        printf("splits %d, predictions read %s\n", ggml_backend_sched_get_n_splits(st->sched),
               direct ? "in place" : "by copy");
    }
    free(x); free(labels); free(pred);
    ggml_free(ctx);
    return 0;
}

int main(int argc, char **argv) {
    int n_batches = argc > 1 ? atoi(argv[1]) : 3;
    struct eval_state st;
    memset(&st, 0, sizeof st);
    st.n_batch = argc > 2 ? atoi(argv[2]) : 4;
    if (st.n_batch <= 0 || st.n_batch > 256) st.n_batch = 4;

    st.cpu = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, NULL);
    ggml_backend_dev_t gpu_dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (gpu_dev) {
        st.backends[st.n_backends++] = ggml_backend_dev_init(gpu_dev, NULL);
    }
    st.backends[st.n_backends++] = st.cpu;
    st.sched = ggml_backend_sched_new(st.backends, NULL, st.n_backends, GGML_DEFAULT_GRAPH_SIZE, false, true);

    struct mlp model;
    if (mlp_load(&model, st.backends[0]) != 0) {
        fprintf(stderr, "cannot allocate the model on %s\n", ggml_backend_name(st.backends[0]));
        return 1;
    }
    printf("weights on %s\n", ggml_backend_buffer_name(model.buf));

    for (int b = 0; b < n_batches; b++) {
        if (eval_batch(&st, &model, b) != 0) {
            fprintf(stderr, "batch %d failed\n", b);
            return 1;
        }
    }
    printf("accuracy %d/%d\n", st.n_correct, st.n_seen);

    ggml_backend_sched_free(st.sched);
    ggml_backend_buffer_free(model.buf);
    ggml_free(model.ctx);
    for (int i = 0; i < st.n_backends; i++) ggml_backend_free(st.backends[i]);
    return 0;
}
