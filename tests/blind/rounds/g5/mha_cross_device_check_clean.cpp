// provenance: blind round g5
// mha_cross_device_check: runs the same multi-head attention block on every device of the
// registry (each with its own copy of the weights) and compares the outputs with the first.
// run-args: --heads 4 --seq 6
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Shape {
    int n_head = 2;
    int d_head = 8;
    int seq = 5;
    int d_model() const { return n_head * d_head; }
};

template <typename T>
std::vector<T> read_tensor(const ggml_tensor *t) {
    std::vector<T> out(ggml_nbytes(t) / sizeof(T));
    ggml_backend_tensor_get(t, out.data(), 0, ggml_nbytes(t));
    return out;
}

template <typename T>
void write_tensor(ggml_tensor *t, const std::vector<T> &v) {
    if (v.size() * sizeof(T) != ggml_nbytes(t)) throw std::runtime_error("size mismatch for " + std::string(ggml_get_name(t)));
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

std::vector<float> pattern(size_t n, float a, float f) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) v[i] = a * std::sin(f * float(i) + 0.1f);
    return v;
}

class AttentionOnDevice {
public:
    AttentionOnDevice(ggml_backend_dev_t dev, const Shape &s) : dev_(dev), s_(s) {
        backend_.reset(ggml_backend_dev_init(dev, nullptr));
        if (!backend_) throw std::runtime_error(std::string("cannot init ") + ggml_backend_dev_name(dev));
        ggml_init_params ip = {4 * ggml_tensor_overhead(), nullptr, true};
        wctx_.reset(ggml_init(ip));
        const int D = s_.d_model();
        wq_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, D, D);
        wk_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, D, D);
        wv_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, D, D);
        wo_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, D, D);
        wbuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(wctx_.get(), ggml_backend_dev_buffer_type(dev)));
        if (!wbuf_) throw std::runtime_error("weights");
        write_tensor(wq_, pattern(D * D, 0.3f, 0.11f));
        write_tensor(wk_, pattern(D * D, 0.3f, 0.13f));
        write_tensor(wv_, pattern(D * D, 0.3f, 0.17f));
        write_tensor(wo_, pattern(D * D, 0.3f, 0.19f));
        galloc_.reset(ggml_gallocr_new(ggml_backend_dev_buffer_type(dev)));
    }

    std::vector<float> run(const std::vector<float> &x_host) {
        const int D = s_.d_model(), H = s_.n_head, dh = s_.d_head, T = s_.seq;
        ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_context *c = ctx.get();

        ggml_tensor *x = ggml_new_tensor_2d(c, GGML_TYPE_F32, D, T);
        ggml_set_name(x, "x");
        ggml_set_input(x);

        // [D, T] -> [dh, H, T] -> [dh, T, H]
        auto split_heads = [&](ggml_tensor *t) {
            t = ggml_reshape_3d(c, t, dh, H, T);
            return ggml_permute(c, t, 0, 2, 1, 3);
        };
        ggml_tensor *Q = split_heads(ggml_mul_mat(c, wq_, x));
        ggml_tensor *K = split_heads(ggml_mul_mat(c, wk_, x));
        ggml_tensor *V = split_heads(ggml_mul_mat(c, wv_, x));

        ggml_tensor *KQ = ggml_mul_mat(c, K, Q); // [T(k), T(q), H]
        KQ = ggml_soft_max_ext(c, KQ, nullptr, 1.0f / std::sqrt(float(dh)), 0.0f);
        ggml_tensor *Vt = ggml_cont(c, ggml_permute(c, V, 1, 0, 2, 3)); // [T, dh, H]
        ggml_tensor *O = ggml_mul_mat(c, Vt, KQ);                       // [dh, T(q), H]
        O = ggml_cont(c, ggml_permute(c, O, 0, 2, 1, 3));                // [dh, H, T]
        O = ggml_reshape_2d(c, O, D, T);
        ggml_tensor *y = ggml_mul_mat(c, wo_, O);
        ggml_set_name(y, "y");
        ggml_set_output(y);

        ggml_cgraph *gf = ggml_new_graph(c);
        ggml_build_forward_expand(gf, y);
        if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) throw std::runtime_error("alloc");
        write_tensor(ggml_graph_get_tensor(gf, "x"), x_host);
        if (ggml_backend_graph_compute(backend_.get(), gf) != GGML_STATUS_SUCCESS) throw std::runtime_error("compute");
        return read_tensor<float>(ggml_graph_get_tensor(gf, "y"));
    }

    const char *name() const { return ggml_backend_dev_name(dev_); }

private:
    ggml_backend_dev_t dev_;
    Shape s_;
    ggml_backend_ptr backend_;
    ggml_context_ptr wctx_;
    ggml_backend_buffer_ptr wbuf_;
    ggml_gallocr_ptr galloc_;
    ggml_tensor *wq_ = nullptr, *wk_ = nullptr, *wv_ = nullptr, *wo_ = nullptr;
};

double max_abs_diff(const std::vector<float> &a, const std::vector<float> &b) {
    double m = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); i++) m = std::max(m, double(std::fabs(a[i] - b[i])));
    return m;
}

} // namespace

int main(int argc, char **argv) {
    Shape s;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--heads")) s.n_head = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--seq")) s.seq = std::atoi(argv[i + 1]);
    }
    if (s.n_head < 1 || s.n_head > 8) s.n_head = 2;
    if (s.seq < 1 || s.seq > 64) s.seq = 5;

    std::vector<std::unique_ptr<AttentionOnDevice>> runs;
    try {
        for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
            ggml_backend_dev_t dev = ggml_backend_dev_get(i);
            enum ggml_backend_dev_type ty = ggml_backend_dev_type(dev);
            if (ty == GGML_BACKEND_DEVICE_TYPE_CPU || ty == GGML_BACKEND_DEVICE_TYPE_GPU)
                runs.push_back(std::make_unique<AttentionOnDevice>(dev, s));
        }
        if (runs.empty()) throw std::runtime_error("no devices");

        std::vector<float> x = pattern(size_t(s.d_model()) * s.seq, 1.0f, 0.37f);
        std::vector<float> ref;
        for (auto &r : runs) {
            std::vector<float> y = r->run(x);
            if (ref.empty()) {
                ref = y;
                std::printf("%-6s reference, y[0]=%.5f\n", r->name(), y[0]);
            } else {
                std::printf("%-6s max |diff| = %.3g\n", r->name(), max_abs_diff(ref, y));
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
