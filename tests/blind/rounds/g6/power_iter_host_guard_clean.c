// provenance: blind round g6
// run-env: POWER_FORCE_CPU=0
// Power iteration for the dominant eigenvector of a symmetric matrix: each step computes
// y = A x on the best backend (ggml_backend_init_best, or CPU with POWER_FORCE_CPU=1) and
// normalizes on the host. Host access goes straight to tensor->data only when the buffer is
// host memory; otherwise through ggml_backend_tensor_get/set.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 24

struct power_state {
    ggml_backend_t backend;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *A;
    struct ggml_tensor *x;
    int host_visible;
};

static void write_vec(struct ggml_tensor *t, const float *src, int host_visible) {
    if (host_visible) {
        memcpy(t->data, src, ggml_nbytes(t));
    } else {
        ggml_backend_tensor_set(t, src, 0, ggml_nbytes(t));
    }
}

static void read_vec(const struct ggml_tensor *t, float *dst, int n) {
    if (t->buffer && ggml_backend_buffer_is_host(t->buffer)) {
        for (int i = 0; i < n; i++) dst[i] = ggml_get_f32_1d(t, i);
    } else {
        ggml_backend_tensor_get(t, dst, 0, (size_t)n * sizeof(float));
    }
}

static int power_init(struct power_state *s, int force_cpu) {
    s->backend = force_cpu ? ggml_backend_cpu_init() : ggml_backend_init_best();
    if (!s->backend) return 0;
    struct ggml_init_params ip = {ggml_tensor_overhead() * 2, NULL, true};
    s->ctx = ggml_init(ip);
    s->A = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, N, N);
    s->x = ggml_new_tensor_2d(s->ctx, GGML_TYPE_F32, N, 1);
    ggml_set_name(s->A, "A");
    ggml_set_name(s->x, "x");
    s->buf = ggml_backend_alloc_ctx_tensors(s->ctx, s->backend);
    if (!s->buf) return 0;
    s->host_visible = ggml_backend_buffer_is_host(s->buf);

    float *a = malloc(sizeof(float) * N * N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) a[i * N + j] = 1.0f / (float)(1 + abs(i - j)) + (i == j ? 2.0f : 0.0f);
    write_vec(s->A, a, s->host_visible);
    free(a);
    float x0[N];
    for (int i = 0; i < N; i++) x0[i] = 1.0f;
    write_vec(s->x, x0, s->host_visible);
    return 1;
}

/* Rayleigh quotient on the host, from a host copy of A (for the final report) */
static float rayleigh(const float *a, const float *v) {
    double num = 0.0, den = 0.0;
    for (int i = 0; i < N; i++) {
        double av = 0.0;
        for (int j = 0; j < N; j++) av += (double)a[i * N + j] * v[j];
        num += v[i] * av;
        den += (double)v[i] * v[i];
    }
    return (float)(num / den);
}

static void read_matrix(const struct power_state *s, float *dst) {
    if (s->host_visible) {
        memcpy(dst, s->A->data, ggml_nbytes(s->A));
    } else {
        ggml_backend_tensor_get(s->A, dst, 0, ggml_nbytes(s->A));
    }
}

static void print_vec(const char *label, const float *v, int n) {
    printf("%s:", label);
    for (int i = 0; i < n; i++) printf(" %.4f", v[i]);
    printf("\n");
}

static struct ggml_cgraph *step_graph(struct ggml_context *ctx, struct power_state *s) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *y = ggml_mul_mat(ctx, s->A, s->x);
    ggml_set_name(y, "y");
    ggml_set_output(y);
    ggml_build_forward_expand(gf, y);
    return gf;
}

static float normalize(float *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += (double)v[i] * v[i];
    float norm = (float)sqrt(s);
    for (int i = 0; i < n; i++) v[i] /= norm;
    return norm;
}

int main(int argc, char **argv) {
    const char *fc = getenv("POWER_FORCE_CPU");
    int force_cpu = fc && atoi(fc) != 0;
    int max_iter = argc > 1 ? atoi(argv[1]) : 30;
    if (max_iter <= 0) max_iter = 30;

    struct power_state st;
    memset(&st, 0, sizeof st);
    if (!power_init(&st, force_cpu)) return 1;
    printf("backend %s, weights buffer %s (host: %d)\n", ggml_backend_name(st.backend),
           ggml_backend_buffer_name(st.buf), st.host_visible);

    struct ggml_init_params gp = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_cgraph *gf = step_graph(ctx0, &st);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(st.backend));
    if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;
    struct ggml_tensor *y = ggml_graph_get_tensor(gf, "y");

    float v[N];
    float lambda = 0.0f, prev = 0.0f;
    int it = 0;
    for (; it < max_iter; it++) {
        ggml_backend_graph_compute(st.backend, gf);
        read_vec(y, v, N);
        lambda = normalize(v, N);
        write_vec(st.x, v, st.host_visible);
        if (fabsf(lambda - prev) < 1e-6f) break;
        prev = lambda;
    }
    printf("dominant eigenvalue ~ %.6f after %d iterations\n", lambda, it);
    float *a_host = malloc(sizeof(float) * N * N);
    read_matrix(&st, a_host);
    float xv[N];
    read_vec(st.x, xv, N);
    print_vec("eigenvector[0..5]", xv, 6);
    printf("rayleigh quotient %.6f\n", rayleigh(a_host, xv));
    free(a_host);

    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    ggml_backend_buffer_free(st.buf);
    ggml_free(st.ctx);
    ggml_backend_free(st.backend);
    return 0;
}
