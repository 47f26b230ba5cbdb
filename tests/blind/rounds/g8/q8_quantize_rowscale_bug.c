// Offline quantize tool: F32 projection weights are loaded onto the GPU (as the runtime would
// hold them), each row is scanned for outliers, the matrix is quantized to Q8_0 on the host and
// the Q8_0 copy is checked against the F32 one by running the same mat-vec with both.
// run-args: --gpu 1 --rows 24
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"

#define N_COLS 64 // a multiple of the Q8_0 block size

struct qtool_opts {
    int gpu;
    int rows;
    float outlier_ratio;
};

struct qtool_stats {
    float max_abs;
    int n_outlier_rows;
};

static void parse_args(int argc, char **argv, struct qtool_opts *o) {
    o->gpu = 0;
    o->rows = 16;
    o->outlier_ratio = 4.0f;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--gpu") == 0) o->gpu = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--rows") == 0) o->rows = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--outlier") == 0) o->outlier_ratio = (float)atof(argv[i + 1]);
    }
    if (o->rows < 1) o->rows = 1;
}

static ggml_backend_dev_t find_gpu(int ordinal) {
    int seen = 0;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        if (ggml_backend_dev_type(dev) != GGML_BACKEND_DEVICE_TYPE_GPU) continue;
        if (seen++ == ordinal) return dev;
    }
    return ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}

static float row_absmax(const struct ggml_tensor *w, int row) {
    float m = 0.0f;
    for (int c = 0; c < w->ne[0]; c++) {
        float v = fabsf(ggml_get_f32_nd(w, c, row, 0, 0)); // expect-error: ggml-host-access
        if (v > m) m = v;
    }
    return m;
}

static void scan_rows(const struct ggml_tensor *w, float ratio, struct qtool_stats *st) {
    float *row_max = malloc(sizeof(float) * (size_t)w->ne[1]);
    double mean = 0.0;
    for (int r = 0; r < w->ne[1]; r++) {
        row_max[r] = row_absmax(w, r);
        mean += row_max[r];
        if (row_max[r] > st->max_abs) st->max_abs = row_max[r];
    }
    mean /= (double)w->ne[1];
    for (int r = 0; r < w->ne[1]; r++)
        if (row_max[r] > ratio * mean) st->n_outlier_rows++;
    free(row_max);
}

static struct ggml_tensor *matvec_out(struct ggml_context *ctx, struct ggml_tensor *w,
                                      struct ggml_tensor *x, const char *name) {
    struct ggml_tensor *y = ggml_mul_mat(ctx, w, x);
    ggml_set_name(y, name);
    ggml_set_output(y);
    return y;
}

int main(int argc, char **argv) {
    struct qtool_opts o;
    parse_args(argc, argv, &o);
    ggml_backend_dev_t dev = find_gpu(o.gpu);
    ggml_backend_t backend = ggml_backend_dev_init(dev, NULL);
    printf("qtool: %d x %d on %s\n", o.rows, N_COLS, ggml_backend_dev_name(dev));

    struct ggml_init_params wp = {ggml_tensor_overhead() * 4, NULL, true};
    struct ggml_context *ctx_w = ggml_init(wp);
    struct ggml_tensor *w_f32 = ggml_new_tensor_2d(ctx_w, GGML_TYPE_F32, N_COLS, o.rows);
    struct ggml_tensor *w_q8 = ggml_new_tensor_2d(ctx_w, GGML_TYPE_Q8_0, N_COLS, o.rows);
    struct ggml_tensor *x = ggml_new_tensor_1d(ctx_w, GGML_TYPE_F32, N_COLS);
    ggml_set_name(w_f32, "proj.weight");
    ggml_set_name(w_q8, "proj.weight.q8_0");
    ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors_from_buft(ctx_w, ggml_backend_dev_buffer_type(dev));

    const size_t n = (size_t)N_COLS * (size_t)o.rows;
    float *host = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) host[i] = 0.02f * cosf(0.13f * (float)i) * (i % 97 == 0 ? 9.0f : 1.0f);
    ggml_backend_tensor_set(w_f32, host, 0, ggml_nbytes(w_f32));
    float xv[N_COLS];
    for (int i = 0; i < N_COLS; i++) xv[i] = sinf(0.5f * (float)i);
    ggml_backend_tensor_set(x, xv, 0, sizeof xv);

    struct qtool_stats st = {0.0f, 0};
    scan_rows(w_f32, o.outlier_ratio, &st);
    printf("qtool: max |w| %.4f, %d outlier rows\n", st.max_abs, st.n_outlier_rows);

    // quantize on the host from a staged copy of the device weights
    float *staged = malloc(n * sizeof(float));
    ggml_backend_tensor_get(w_f32, staged, 0, ggml_nbytes(w_f32));
    void *q = malloc(ggml_nbytes(w_q8));
    size_t qsize = ggml_quantize_chunk(GGML_TYPE_Q8_0, staged, q, 0, o.rows, N_COLS, NULL);
    if (qsize != ggml_nbytes(w_q8)) {
        fprintf(stderr, "qtool: quantized size %zu, expected %zu\n", qsize, ggml_nbytes(w_q8));
        return 1;
    }
    ggml_backend_tensor_set(w_q8, q, 0, qsize);

    struct ggml_init_params gp = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx_g = ggml_init(gp);
    struct ggml_cgraph *gf = ggml_new_graph(ctx_g);
    ggml_build_forward_expand(gf, matvec_out(ctx_g, w_f32, x, "y_f32"));
    ggml_build_forward_expand(gf, matvec_out(ctx_g, w_q8, x, "y_q8"));
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);
    ggml_backend_graph_compute(backend, gf);

    float *y_ref = malloc(sizeof(float) * (size_t)o.rows), *y_q = malloc(sizeof(float) * (size_t)o.rows);
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "y_f32"), y_ref, 0, sizeof(float) * (size_t)o.rows);
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "y_q8"), y_q, 0, sizeof(float) * (size_t)o.rows);
    double err = 0.0;
    for (int r = 0; r < o.rows; r++) err = fmax(err, fabs((double)y_ref[r] - (double)y_q[r]));
    printf("qtool: q8_0 max abs error %.6f (%zu -> %zu bytes)\n", err, ggml_nbytes(w_f32), qsize);

    free(y_ref);
    free(y_q);
    free(q);
    free(staged);
    free(host);
    ggml_gallocr_free(ga);
    ggml_free(ctx_g);
    ggml_backend_buffer_free(buf);
    ggml_free(ctx_w);
    ggml_backend_free(backend);
    return err < 0.05 ? 0 : 2;
}
