// run-args: 4
//
// Two-stage pipeline (encoder on one GPU, head on the other when there are two). Each stage
// has its own weights, graph and allocator. The input goes through a pinned host staging tensor
// (written in place only when its buffer is host memory) and the activation is handed from
// stage 1 to stage 2 with ggml_backend_tensor_copy into a tensor of stage 2's own buffer.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define D_IN 24
#define D_HID 32
#define D_OUT 8

struct stage {
    const char *name;
    ggml_backend_dev_t dev;
    ggml_backend_t backend;
    struct ggml_context *ctx;   // weights + static input
    ggml_backend_buffer_t buf;
    struct ggml_tensor *w, *b;
    struct ggml_tensor *input;  // lives in this stage's buffer
    ggml_gallocr_t alloc;
};

struct staging {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *host_in;
};

static ggml_backend_dev_t nth_gpu(int n) {
    int seen = 0;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t d = ggml_backend_dev_get(i);
        if (ggml_backend_dev_type(d) != GGML_BACKEND_DEVICE_TYPE_GPU) continue;
        if (seen++ == n) return d;
    }
    return NULL;
}

static int stage_init(struct stage *s, const char *name, ggml_backend_dev_t dev, int n_in, int n_out, int n_batch) {
    s->name = name;
    s->dev = dev;
    s->backend = ggml_backend_dev_init(dev, NULL);
    if (!s->backend) return -1;
    struct ggml_init_params ip = { 3 * ggml_tensor_overhead(), NULL, true };
    s->ctx = ggml_init(ip);
    s->w = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, n_in, n_out);
    s->b = ggml_new_tensor_1d(s->ctx, GGML_TYPE_F32, n_out);
    s->input = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, n_in, n_batch);
    s->buf = ggml_backend_alloc_ctx_tensors_from_buft(s->ctx, ggml_backend_dev_buffer_type(dev));
    if (!s->buf) return -1;

    float *h = malloc(sizeof(float) * n_in * n_out);
    for (int i = 0; i < n_in * n_out; i++) h[i] = 0.1f * sinf(1.3f * (float) i);
    ggml_backend_tensor_set(s->w, h, 0, ggml_nbytes(s->w));
    for (int i = 0; i < n_out; i++) h[i] = 0.01f * (float) i;
    ggml_backend_tensor_set(s->b, h, 0, ggml_nbytes(s->b));
    free(h);
    s->alloc = ggml_gallocr_new(ggml_backend_dev_buffer_type(dev));
    printf("stage %s on %s\n", name, ggml_backend_dev_name(dev));
    return 0;
}

static int staging_init(struct staging *st, ggml_backend_dev_t dev, int n_batch) {
    ggml_backend_buffer_type_t buft = ggml_backend_dev_host_buffer_type(dev);
    if (!buft) buft = ggml_backend_cpu_buffer_type();
    struct ggml_init_params ip = { ggml_tensor_overhead(), NULL, true };
    st->ctx = ggml_init(ip);
    st->host_in = ggml_new_tensor_2d(st->ctx, GGML_TYPE_F32, D_IN, n_batch);
    st->buf = ggml_backend_alloc_ctx_tensors_from_buft(st->ctx, buft);
    return st->buf ? 0 : -1;
}

static void stage_input(struct staging *st, const float *x) {
    if (ggml_backend_buffer_is_host(st->buf)) {
        memcpy(st->host_in->data, x, ggml_nbytes(st->host_in));
    } else {
        ggml_backend_tensor_set(st->host_in, x, 0, ggml_nbytes(st->host_in));
    }
}

// run one stage on its own input; returns the output node (in the stage's compute buffer)
static struct ggml_tensor *stage_run(struct stage *s, struct ggml_context *ctx, int act) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *y = ggml_add(ctx, ggml_mul_mat(ctx, s->w, s->input), s->b);
    if (act) y = ggml_gelu(ctx, y);
    ggml_set_output(y);
    ggml_build_forward_expand(gf, y);
    if (!ggml_gallocr_alloc_graph(s->alloc, gf)) return NULL;
    if (ggml_backend_graph_compute(s->backend, gf) != GGML_STATUS_SUCCESS) return NULL;
    return y;
}

static void stage_free(struct stage *s) {
    ggml_gallocr_free(s->alloc);
    ggml_backend_buffer_free(s->buf);
    ggml_free(s->ctx);
    ggml_backend_free(s->backend);
}

int main(int argc, char **argv) {
    int n_batch = argc > 1 ? atoi(argv[1]) : 2;
    if (n_batch < 1 || n_batch > 64) n_batch = 2;

    ggml_backend_dev_t d0 = nth_gpu(0);
    ggml_backend_dev_t d1 = nth_gpu(1);
    if (!d0) d0 = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    const char *same = getenv("PIPE_SAME_DEVICE");
    if (!d1 || (same && atoi(same) != 0)) d1 = d0;

    struct stage enc, head;
    memset(&enc, 0, sizeof enc);
    memset(&head, 0, sizeof head);
    if (stage_init(&enc, "encoder", d0, D_IN, D_HID, n_batch) != 0) return 1;
    if (stage_init(&head, "head", d1, D_HID, D_OUT, n_batch) != 0) return 1;

    struct staging st;
    if (staging_init(&st, d0, n_batch) != 0) return 1;
    float *x = malloc(sizeof(float) * D_IN * n_batch);
    for (int i = 0; i < D_IN * n_batch; i++) x[i] = (float) (i % 5) - 2.0f;
    stage_input(&st, x);
    ggml_backend_tensor_copy(st.host_in, enc.input);

    struct ggml_init_params ip = { ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true };
    struct ggml_context *c1 = ggml_init(ip);
    struct ggml_context *c2 = ggml_init(ip);
    struct ggml_tensor *h = stage_run(&enc, c1, 1);
    if (!h) {
        fprintf(stderr, "encoder failed\n");
        return 1;
    }
    ggml_backend_tensor_copy(h, head.input);
    struct ggml_tensor *out = stage_run(&head, c2, 0);
    if (!out) {
        fprintf(stderr, "head failed\n");
        return 1;
    }

    float *res = malloc(ggml_nbytes(out));
    ggml_backend_tensor_get(out, res, 0, ggml_nbytes(out));
    for (int b = 0; b < n_batch; b++) {
        printf("sample %d:", b);
        for (int j = 0; j < D_OUT; j++) printf(" %.3f", res[b * D_OUT + j]);
        printf("\n");
    }

    free(res);
    free(x);
    ggml_free(c1);
    ggml_free(c2);
    ggml_backend_buffer_free(st.buf);
    ggml_free(st.ctx);
    stage_free(&head);
    stage_free(&enc);
    return 0;
}
