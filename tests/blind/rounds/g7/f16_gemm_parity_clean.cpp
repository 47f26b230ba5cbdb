// run-env: PARITY_DEVICE=CUDA0
//
// Parity test of an F16 x F32 matrix product on one device of the registry (PARITY_DEVICE,
// default: every device in turn). The F16 weights are converted on the host and uploaded row
// by row from a padded host array; the result is copied to a CPU tensor and checked there with
// the CPU accessors. On CPU devices the output is read in place.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int K = 40, M = 12, N = 5, PAD = 8;

struct Problem {
    std::vector<float> a;           // [M][K]
    std::vector<ggml_fp16_t> a16;   // [M][K + PAD], padded rows
    std::vector<float> b;           // [N][K]
    std::vector<float> ref;         // [N][M]
};

Problem make_problem() {
    Problem p;
    p.a.resize(M * K);
    p.b.resize(N * K);
    for (int i = 0; i < M * K; i++) p.a[i] = std::sin(0.1f * i);
    for (int i = 0; i < N * K; i++) p.b[i] = std::cos(0.07f * i);
    p.a16.assign(M * (K + PAD), ggml_fp32_to_fp16(0.0f));
    for (int r = 0; r < M; r++) ggml_fp32_to_fp16_row(&p.a[r * K], &p.a16[r * (K + PAD)], K);
    p.ref.resize(N * M);
    for (int n = 0; n < N; n++) {
        for (int m = 0; m < M; m++) {
            float acc = 0.0f;
            for (int k = 0; k < K; k++) acc += ggml_fp16_to_fp32(p.a16[m * (K + PAD) + k]) * p.b[n * K + k];
            p.ref[n * M + m] = acc;
        }
    }
    return p;
}

struct DeviceRun {
    ggml_backend_dev_t dev;
    ggml_backend_ptr backend;
    ggml_context_ptr wctx, gctx, hctx;
    ggml_backend_buffer_ptr wbuf, hbuf;
    ggml_gallocr_ptr alloc;
};

double run_on(ggml_backend_dev_t dev, const Problem &p) {
    auto r = std::make_unique<DeviceRun>();
    r->dev = dev;
    r->backend.reset(ggml_backend_dev_init(dev, nullptr));
    bool host_device = false;
    switch (ggml_backend_dev_type(dev)) {
        case GGML_BACKEND_DEVICE_TYPE_CPU:
            ggml_backend_cpu_set_n_threads(r->backend.get(), 2);
            host_device = true;
            break;
        case GGML_BACKEND_DEVICE_TYPE_GPU:
        case GGML_BACKEND_DEVICE_TYPE_IGPU:
            break;
        default:
            return -1.0; // accelerators are not tested here
    }

    ggml_init_params ip = { 2 * ggml_tensor_overhead(), nullptr, true };
    r->wctx.reset(ggml_init(ip));
    ggml_tensor *a = ggml_new_tensor_2d(r->wctx.get(), GGML_TYPE_F16, K, M);
    ggml_tensor *b = ggml_new_tensor_2d(r->wctx.get(), GGML_TYPE_F32, K, N);
    r->wbuf.reset(ggml_backend_alloc_ctx_tensors_from_buft(r->wctx.get(), ggml_backend_dev_buffer_type(dev)));
    if (!r->wbuf) return -1.0;
    for (int row = 0; row < M; row++) {
        ggml_backend_tensor_set(a, &p.a16[row * (K + PAD)], row * a->nb[1], K * sizeof(ggml_fp16_t));
    }
    ggml_backend_tensor_set(b, p.b.data(), 0, ggml_nbytes(b));

    ggml_init_params gp = { ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true };
    r->gctx.reset(ggml_init(gp));
    ggml_tensor *c = ggml_mul_mat(r->gctx.get(), a, b); // [M, N]
    ggml_set_output(c);
    ggml_cgraph *gf = ggml_new_graph(r->gctx.get());
    ggml_build_forward_expand(gf, c);
    r->alloc.reset(ggml_gallocr_new(ggml_backend_dev_buffer_type(dev)));
    if (!ggml_gallocr_alloc_graph(r->alloc.get(), gf)) return -1.0;
    if (ggml_backend_graph_compute(r->backend.get(), gf) != GGML_STATUS_SUCCESS) return -1.0;

    std::function<float(int, int)> at;
    ggml_tensor *host_c = nullptr;
    if (host_device && ggml_backend_buffer_is_host(c->buffer)) {
        at = [c](int m, int n) { return ggml_get_f32_nd(c, m, n, 0, 0); };
    } else {
        ggml_init_params hp = { ggml_tensor_overhead(), nullptr, true };
        r->hctx.reset(ggml_init(hp));
        host_c = ggml_dup_tensor(r->hctx.get(), c);
        r->hbuf.reset(ggml_backend_alloc_ctx_tensors_from_buft(r->hctx.get(), ggml_backend_cpu_buffer_type()));
        ggml_backend_tensor_copy(c, host_c);
        at = [host_c](int m, int n) { return ggml_get_f32_1d(host_c, n * M + m); };
    }

    double max_err = 0.0;
    for (int n = 0; n < N; n++) {
        for (int m = 0; m < M; m++) max_err = std::fmax(max_err, std::fabs(at(m, n) - p.ref[n * M + m]));
    }
    std::printf("%-6s %-28s max |err| %.3g%s\n", ggml_backend_dev_name(dev), ggml_backend_dev_description(dev), max_err,
                host_c ? " (via CPU copy)" : "");
    return max_err;
}

} // namespace

int main() {
    const Problem p = make_problem();
    std::vector<ggml_backend_dev_t> devs;
    const char *want = std::getenv("PARITY_DEVICE");
    if (want && *want) {
        ggml_backend_dev_t d = ggml_backend_dev_by_name(want);
        if (!d) {
            std::fprintf(stderr, "no device %s\n", want);
            return 1;
        }
        devs.push_back(d);
    } else {
        for (size_t i = 0; i < ggml_backend_dev_count(); i++) devs.push_back(ggml_backend_dev_get(i));
    }
    int failures = 0;
    for (ggml_backend_dev_t d : devs) {
        double err = run_on(d, p);
        if (err < 0.0 || err > 1e-2) failures++; // src1 is rounded to F16 too
    }
    std::printf("%zu devices, %d failures\n", devs.size(), failures);
    return failures ? 2 : 0;
}
