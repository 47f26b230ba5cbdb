// run-args: 2
//
// A tensor pool placed by hand with ggml_tallocr in one buffer of the device picked by index
// (argv[1] into the registry). Parameters are written through the host pointer only when the
// pool is host memory; the result is copied into a CPU mirror tensor and read there with
// the CPU accessors, then checked against a plain C reference.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 12
#define COLS 20
#define BATCH 3

struct pool {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tallocr talloc;
    struct ggml_tensor *w_flat;  // ROWS*COLS, reshaped in the graph
    struct ggml_tensor *bias;    // ROWS
    struct ggml_tensor *staging; // COLS*BATCH + padding, the input is a view of it
};

struct mirror {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *out;
};

static size_t pool_size(ggml_backend_buffer_type_t buft, struct ggml_context *ctx) {
    size_t align = ggml_backend_buft_get_alignment(buft);
    size_t total = 0;
    for (struct ggml_tensor *t = ggml_get_first_tensor(ctx); t; t = ggml_get_next_tensor(ctx, t)) {
        total += GGML_PAD(ggml_backend_buft_get_alloc_size(buft, t), align);
    }
    return total + align;
}

static void write_param(struct ggml_tensor *t, const float *src) {
    if (ggml_backend_buffer_is_host(t->buffer)) {
        memcpy(t->data, src, ggml_nbytes(t));
    } else {
        ggml_backend_tensor_set(t, src, 0, ggml_nbytes(t));
    }
}

static int pool_init(struct pool *p, ggml_backend_dev_t dev) {
    struct ggml_init_params ip = { 3 * ggml_tensor_overhead(), NULL, true };
    p->ctx = ggml_init(ip);
    p->w_flat = ggml_new_tensor_1d(p->ctx, GGML_TYPE_F32, ROWS * COLS);
    p->bias = ggml_new_tensor_1d(p->ctx, GGML_TYPE_F32, ROWS);
    p->staging = ggml_new_tensor_1d(p->ctx, GGML_TYPE_F32, COLS * BATCH + 8);

    ggml_backend_buffer_type_t buft = ggml_backend_dev_buffer_type(dev);
    p->buf = ggml_backend_buft_alloc_buffer(buft, pool_size(buft, p->ctx));
    if (!p->buf) return -1;
    p->talloc = ggml_tallocr_new(p->buf);
    for (struct ggml_tensor *t = ggml_get_first_tensor(p->ctx); t; t = ggml_get_next_tensor(p->ctx, t)) {
        if (ggml_tallocr_alloc(&p->talloc, t) != GGML_STATUS_SUCCESS) return -1;
    }
    return 0;
}

static int mirror_init(struct mirror *m, const struct ggml_tensor *like) {
    struct ggml_init_params ip = { ggml_tensor_overhead(), NULL, true };
    m->ctx = ggml_init(ip);
    m->out = ggml_new_tensor(m->ctx, like->type, ggml_n_dims(like), like->ne);
    m->buf = ggml_backend_alloc_ctx_tensors_from_buft(m->ctx, ggml_backend_cpu_buffer_type());
    return m->buf ? 0 : -1;
}

static void reference(const float *w, const float *b, const float *x, float *y) {
    for (int n = 0; n < BATCH; n++) {
        for (int r = 0; r < ROWS; r++) {
            float acc = b[r];
            for (int c = 0; c < COLS; c++) acc += w[r * COLS + c] * x[n * COLS + c];
            y[r * BATCH + n] = tanhf(acc); // transposed: [BATCH, ROWS] row-major -> ne0 = BATCH
        }
    }
}

int main(int argc, char **argv) {
    size_t idx = argc > 1 ? (size_t) atoi(argv[1]) : 0;
    if (idx >= ggml_backend_dev_count()) idx = 0;
    ggml_backend_dev_t dev = ggml_backend_dev_get(idx);
    ggml_backend_t backend = ggml_backend_dev_init(dev, NULL);
    if (!backend) return 1;
    printf("device %s (%s)\n", ggml_backend_dev_name(dev), ggml_backend_dev_description(dev));

    struct pool p;
    if (pool_init(&p, dev) != 0) {
        fprintf(stderr, "pool allocation failed\n");
        return 1;
    }

    float w[ROWS * COLS], b[ROWS], staging[COLS * BATCH + 8];
    for (int i = 0; i < ROWS * COLS; i++) w[i] = 0.05f * (float) ((i % 9) - 4);
    for (int i = 0; i < ROWS; i++) b[i] = 0.1f * (float) (i % 3);
    for (int i = 0; i < COLS * BATCH + 8; i++) staging[i] = (i < 8) ? 0.0f : 0.02f * (float) (i % 11);
    write_param(p.w_flat, w);
    write_param(p.bias, b);
    write_param(p.staging, staging);

    struct ggml_init_params gp = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true };
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_tensor *W = ggml_reshape_2d(ctx0, p.w_flat, COLS, ROWS);
    struct ggml_tensor *X = ggml_view_2d(ctx0, p.staging, COLS, BATCH, COLS * sizeof(float), 8 * sizeof(float));
    struct ggml_tensor *Y = ggml_tanh(ctx0, ggml_add(ctx0, ggml_mul_mat(ctx0, W, X), p.bias)); // [ROWS, BATCH]
    struct ggml_tensor *Yt = ggml_cont(ctx0, ggml_transpose(ctx0, Y));                         // [BATCH, ROWS]
    ggml_set_name(Yt, "yt");
    struct ggml_cgraph *gf = ggml_new_graph(ctx0);
    ggml_build_forward_expand(gf, Yt);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    if (!ggml_gallocr_alloc_graph(ga, gf) || ggml_backend_graph_compute(backend, gf) != GGML_STATUS_SUCCESS) {
        fprintf(stderr, "compute failed\n");
        return 1;
    }

    struct mirror m;
    if (mirror_init(&m, ggml_graph_get_tensor(gf, "yt")) != 0) return 1;
    ggml_backend_tensor_copy(ggml_graph_get_tensor(gf, "yt"), m.out);

    float ref[ROWS * BATCH];
    reference(w, b, staging + 8, ref);
    float max_err = 0.0f;
    for (int i = 0; i < ROWS * BATCH; i++) {
        float got = ggml_get_f32_1d(m.out, i);
        max_err = fmaxf(max_err, fabsf(got - ref[i]));
    }
    printf("y[1,2] = %.5f, max |err| = %g\n", ggml_get_f32_nd(m.out, 1, 2, 0, 0), max_err);
    int rc = max_err < 1e-4f ? 0 : 2;

    ggml_backend_buffer_free(m.buf);
    ggml_free(m.ctx);
    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    ggml_backend_buffer_free(p.buf);
    ggml_free(p.ctx);
    ggml_backend_free(backend);
    return rc;
}
