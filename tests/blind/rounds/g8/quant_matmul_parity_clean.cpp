// Quantized mat-mul parity (as test-backend-ops does it): for each quantization type, F32
// weights are quantized on the host, uploaded, multiplied by F32 activations on every device
// (or only QPARITY_DEVICE) and compared with a host reference on the dequantized weights.
// Results are read in place when the output is in host memory, through tensor_get otherwise.
// run-env: QPARITY_DEVICE=CUDA1
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml.h"

namespace {

constexpr int kK = 64, kM = 12, kN = 3;

struct Case {
    ggml_type type;
    double tolerance;
};

std::vector<float> make_weights() {
    std::vector<float> w((size_t)kK * kM);
    for (size_t i = 0; i < w.size(); i++) w[i] = 0.5f * std::sin(0.071f * (float)i) + 0.1f * std::cos(1.3f * (float)i);
    return w;
}

std::vector<float> make_acts() {
    std::vector<float> x((size_t)kK * kN);
    for (size_t i = 0; i < x.size(); i++) x[i] = std::cos(0.17f * (float)i);
    return x;
}

// y[n][m] = sum_k dequant(w)[m][k] * x[n][k]
std::vector<double> reference(ggml_type type, const std::vector<uint8_t> &q, const std::vector<float> &x) {
    std::vector<float> w((size_t)kK * kM);
    ggml_get_type_traits(type)->to_float(q.data(), w.data(), (int64_t)w.size());
    std::vector<double> y((size_t)kM * kN, 0.0);
    for (int n = 0; n < kN; n++)
        for (int m = 0; m < kM; m++)
            for (int k = 0; k < kK; k++) y[(size_t)n * kM + m] += (double)w[(size_t)m * kK + k] * x[(size_t)n * kK + k];
    return y;
}

template <typename Read>
double compare(const std::vector<double> &ref, Read read) {
    double err = 0.0;
    for (size_t i = 0; i < ref.size(); i++) err = std::fmax(err, std::fabs(ref[i] - (double)read((int)i)));
    return err;
}

bool run_case(ggml_backend_dev_t dev, const Case &c) {
    ggml_backend_ptr backend(ggml_backend_dev_init(dev, nullptr));
    ggml_init_params ip = {ggml_tensor_overhead() * 2, nullptr, true};
    ggml_context_ptr ctx_w(ggml_init(ip));
    ggml_tensor *w = ggml_new_tensor_2d(ctx_w.get(), c.type, kK, kM);
    ggml_tensor *x = ggml_new_tensor_2d(ctx_w.get(), GGML_TYPE_F32, kK, kN);
    ggml_backend_buffer_ptr buf(ggml_backend_alloc_ctx_tensors_from_buft(ctx_w.get(), ggml_backend_dev_buffer_type(dev)));

    std::vector<float> wf = make_weights(), xf = make_acts();
    std::vector<uint8_t> q(ggml_nbytes(w));
    ggml_quantize_chunk(c.type, wf.data(), q.data(), 0, kM, kK, nullptr);
    ggml_backend_tensor_set(w, q.data(), 0, q.size());
    ggml_backend_tensor_set(x, xf.data(), 0, ggml_nbytes(x));

    ggml_init_params gp = {ggml_tensor_overhead() * 4 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(gp));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *y = ggml_mul_mat(ctx.get(), w, x); // [kM, kN]
    ggml_set_output(y);
    ggml_build_forward_expand(gf, y);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend.get())));
    if (!ggml_gallocr_alloc_graph(ga.get(), gf)) return false;
    ggml_backend_graph_compute(backend.get(), gf);

    std::vector<double> ref = reference(c.type, q, xf);
    double err;
    if (ggml_backend_buffer_is_host(y->buffer)) {
        err = compare(ref, [y](int i) { return ggml_get_f32_1d(y, i); });
    } else {
        std::vector<float> host(ggml_nelements(y));
        ggml_backend_tensor_get(y, host.data(), 0, ggml_nbytes(y));
        err = compare(ref, [&host](int i) { return host[i]; });
    }
    std::printf("parity: %-6s %-5s max err %.2e %s\n", ggml_backend_dev_name(dev), ggml_type_name(c.type), err,
                err <= c.tolerance ? "ok" : "FAIL");
    return err <= c.tolerance;
}

} // namespace

int main() {
    const Case cases[] = {{GGML_TYPE_Q8_0, 5e-2}, {GGML_TYPE_Q4_0, 5e-2}, {GGML_TYPE_F16, 5e-2}};
    std::vector<ggml_backend_dev_t> devices;
    const char *only = std::getenv("QPARITY_DEVICE");
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        if (only && std::strcmp(only, ggml_backend_dev_name(dev)) != 0) continue;
        if (ggml_backend_dev_type(dev) == GGML_BACKEND_DEVICE_TYPE_ACCEL) continue;
        devices.push_back(dev);
    }
    if (devices.empty()) {
        std::fprintf(stderr, "parity: no device matches %s\n", only ? only : "(any)");
        return 1;
    }
    for (const Case &c : cases) {
        const size_t row = ggml_row_size(c.type, kK);
        std::printf("parity: %-5s %zu bytes per %d-element row (%.2f bits per weight)\n", ggml_type_name(c.type), row, kK,
                    8.0 * (double)row / kK);
    }
    int failed = 0;
    for (ggml_backend_dev_t dev : devices)
        for (const Case &c : cases) failed += !run_case(dev, c);
    std::printf("parity: %zu devices, %d failures\n", devices.size(), failed);
    return failed ? 2 : 0;
}
