// provenance: blind round g6
// run-args: 1
// Batched feature extractor with a pinned host staging area (bark.cpp style): each batch is
// written by the host into a pinned tensor, copied to the compute device with
// ggml_backend_tensor_copy, and the result copied back into pinned memory for the host to read.
// argv[1] selects the device index among GPUs (-1: CPU).
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FEAT 12
#define N_OUT 6
#define N_BATCH 4

struct staging {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *in_host;
    struct ggml_tensor *out_host;
};

struct extractor {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *w;
    struct ggml_tensor *in_dev;
    struct ggml_tensor *out_dev;
    ggml_backend_t backend;
};

static ggml_backend_dev_t choose_device(int gpu_index) {
    int seen = 0;
    if (gpu_index >= 0) {
        for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
            ggml_backend_dev_t d = ggml_backend_dev_get(i);
            if (ggml_backend_dev_type(d) != GGML_BACKEND_DEVICE_TYPE_GPU) continue;
            if (seen++ == gpu_index) return d;
        }
    }
    return ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}

static int staging_init(struct staging *s, ggml_backend_dev_t dev) {
    ggml_backend_buffer_type_t buft = ggml_backend_dev_host_buffer_type(dev);
    if (!buft) buft = ggml_backend_cpu_buffer_type();
    struct ggml_init_params ip = {ggml_tensor_overhead() * 2, NULL, true};
    s->ctx = ggml_init(ip);
    s->in_host = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, N_FEAT, N_BATCH);
    s->out_host = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, N_OUT, N_BATCH);
    s->buf = ggml_backend_alloc_ctx_tensors_from_buft(s->ctx, buft);
    if (!s->buf) return 0;
    if (!ggml_backend_buffer_is_host(s->buf)) {
        fprintf(stderr, "staging buffer %s is not host memory\n", ggml_backend_buffer_name(s->buf));
        return 0;
    }
    printf("staging in %s\n", ggml_backend_buffer_name(s->buf));
    return 1;
}

static int extractor_init(struct extractor *e, ggml_backend_dev_t dev) {
    e->backend = ggml_backend_dev_init(dev, NULL);
    struct ggml_init_params ip = {ggml_tensor_overhead() * 3, NULL, true};
    e->ctx = ggml_init(ip);
    e->w = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, N_FEAT, N_OUT);
    e->in_dev = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, N_FEAT, N_BATCH);
    e->out_dev = ggml_new_tensor_2d(e->ctx, GGML_TYPE_F32, N_OUT, N_BATCH);
    e->buf = ggml_backend_alloc_ctx_tensors_from_buft(e->ctx, ggml_backend_dev_buffer_type(dev));
    if (!e->buf) return 0;
    float w[N_FEAT * N_OUT];
    for (int i = 0; i < N_FEAT * N_OUT; i++) w[i] = (float)((i * 5) % 13) / 13.0f - 0.4f;
    ggml_backend_tensor_set(e->w, w, 0, sizeof w);
    return 1;
}

static struct ggml_cgraph *extract_graph(struct ggml_context *ctx, struct extractor *e) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *y = ggml_mul_mat(ctx, e->w, e->in_dev);
    y = ggml_gelu(ctx, y);
    ggml_build_forward_expand(gf, ggml_cpy(ctx, y, e->out_dev));
    return gf;
}

struct batch_log {
    int n;
    float sums[16];
    int64_t us[16];
};

static void log_batch(struct batch_log *lg, float sum, int64_t us) {
    if (lg->n < 16) {
        lg->sums[lg->n] = sum;
        lg->us[lg->n] = us;
        lg->n++;
    }
}

static void print_log(const struct batch_log *lg) {
    int64_t total = 0;
    for (int i = 0; i < lg->n; i++) total += lg->us[i];
    printf("%d batches, %.3f ms total", lg->n, (double)total / 1000.0);
    if (lg->n) printf(", %.3f ms/batch", (double)total / 1000.0 / lg->n);
    printf("\n");
}

/* host reference for one output element: gelu(sum_c w[o][c] * x[r][c]) */
static float reference_out(const float *x, int r, int o) {
    float acc = 0.0f;
    for (int c = 0; c < N_FEAT; c++) acc += ((float)(((o * N_FEAT + c) * 5) % 13) / 13.0f - 0.4f) * x[r * N_FEAT + c];
    return 0.5f * acc * (1.0f + tanhf(0.7978845608f * (acc + 0.044715f * acc * acc * acc)));
}

static void fill_batch(float *dst, int batch) {
    for (int r = 0; r < N_BATCH; r++)
        for (int c = 0; c < N_FEAT; c++)
            dst[r * N_FEAT + c] = 0.05f * (float)((batch + 1) * (c - r));
}

int main(int argc, char **argv) {
    int gpu_index = argc > 1 ? atoi(argv[1]) : 0;
    ggml_backend_dev_t dev = choose_device(gpu_index);
    printf("compute device: %s\n", ggml_backend_dev_name(dev));

    struct staging st;
    struct extractor ex;
    memset(&st, 0, sizeof st);
    memset(&ex, 0, sizeof ex);
    if (!staging_init(&st, dev) || !extractor_init(&ex, dev)) return 1;

    struct ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_cgraph *gf = extract_graph(ctx0, &ex);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(ex.backend));
    if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;

    double total = 0.0;
    struct batch_log lg;
    memset(&lg, 0, sizeof lg);
    ggml_time_init();
    for (int batch = 0; batch < 3; batch++) {
        fill_batch((float *)st.in_host->data, batch); /* pinned host memory */
        int64_t t0 = ggml_time_us();
        ggml_backend_tensor_copy(st.in_host, ex.in_dev);
        ggml_backend_graph_compute(ex.backend, gf);
        ggml_backend_synchronize(ex.backend);
        ggml_backend_tensor_copy(ex.out_dev, st.out_host);
        const float *o = (const float *)st.out_host->data;
        float batch_sum = 0.0f;
        for (int i = 0; i < N_OUT * N_BATCH; i++) batch_sum += o[i];
        log_batch(&lg, batch_sum, ggml_time_us() - t0);
        float ref = reference_out((const float *)st.in_host->data, N_BATCH - 1, N_OUT - 1);
        if (fabsf(ref - o[(N_BATCH - 1) * N_OUT + N_OUT - 1]) > 1e-3f) fprintf(stderr, "batch %d: mismatch\n", batch);
        printf("batch %d: sum %.4f, first %.4f\n", batch, batch_sum, ggml_get_f32_1d(st.out_host, 0));
        total += batch_sum;
    }
    printf("total %.4f\n", total);
    print_log(&lg);

    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    ggml_backend_buffer_free(ex.buf);
    ggml_free(ex.ctx);
    ggml_backend_buffer_free(st.buf);
    ggml_free(st.ctx);
    ggml_backend_free(ex.backend);
    return 0;
}
