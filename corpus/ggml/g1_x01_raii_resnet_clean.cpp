// corpus/ggml/g1_x01_raii_resnet_clean.cpp — from blind round g1 (x01_raii_resnet_clean.cpp, labelled by running it on real ggml and the emulated GPU): a residual MLP stack held in ggml-cpp.h's smart pointers: the
// weight context, its buffer and the backend are unique_ptrs owned by a Model class, the
// layers a std::vector of structs. The device comes from argv (`gpu` / `cpu`) and is used for
// everything; weights go in with ggml_backend_tensor_set, results come out with
// ggml_backend_tensor_get into a std::vector.
// run-args: gpu
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

namespace {

constexpr int kEmbd = 16;
constexpr int kLayers = 3;

struct Layer {
    ggml_tensor * norm = nullptr;
    ggml_tensor * w = nullptr;
    ggml_tensor * b = nullptr;
};

class Model {
public:
    explicit Model(enum ggml_backend_dev_type type) {
        backend_.reset(ggml_backend_init_by_type(type, nullptr));
        if (!backend_) {
            backend_.reset(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr));
        }
        if (!backend_) {
            throw std::runtime_error("no backend");
        }
        ggml_init_params p = { ggml_tensor_overhead() * (3 * kLayers + 1), nullptr, true };
        ctx_.reset(ggml_init(p));
        layers_.resize(kLayers);
        for (int i = 0; i < kLayers; ++i) {
            Layer & l = layers_[i];
            l.norm = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kEmbd);
            l.w = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
            l.b = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kEmbd);
            ggml_format_name(l.w, "layers.%d.w", i);
        }
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        load();
    }

    ggml_backend_t backend() const { return backend_.get(); }

    ggml_tensor * forward(ggml_context * ctx, ggml_tensor * x) const {
        for (const Layer & l : layers_) {
            ggml_tensor * h = ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-6f), l.norm);
            h = ggml_add(ctx, ggml_mul_mat(ctx, l.w, h), l.b);
            x = ggml_add(ctx, x, ggml_gelu(ctx, h));
        }
        return x;
    }

private:
    void load() {
        std::vector<float> tmp(kEmbd * kEmbd);
        int salt = 0;
        for (Layer & l : layers_) {
            std::fill(tmp.begin(), tmp.begin() + kEmbd, 1.0f);
            ggml_backend_tensor_set(l.norm, tmp.data(), 0, ggml_nbytes(l.norm));
            for (size_t i = 0; i < tmp.size(); ++i) {
                tmp[i] = 0.05f * std::sin(0.3f * static_cast<float>(i + salt));
            }
            ggml_backend_tensor_set(l.w, tmp.data(), 0, ggml_nbytes(l.w));
            ggml_backend_tensor_memset(l.b, 0, 0, ggml_nbytes(l.b));
            salt += 17;
        }
    }

    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::vector<Layer> layers_;
};

std::vector<float> run(const Model & m, const std::vector<float> & input, int n_tok) {
    ggml_init_params p = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_tensor * x = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kEmbd, n_tok);
    ggml_set_input(x);
    ggml_tensor * y = m.forward(ctx.get(), x);
    ggml_set_output(y);
    ggml_cgraph * gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, y);

    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.backend())));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_backend_tensor_set(x, input.data(), 0, ggml_nbytes(x));
    if (ggml_backend_graph_compute(m.backend(), gf) != GGML_STATUS_SUCCESS) {
        throw std::runtime_error("compute failed");
    }
    std::vector<float> out(ggml_nelements(y));
    ggml_backend_tensor_get(y, out.data(), 0, ggml_nbytes(y));
    return out;
}

} // namespace

int main(int argc, char ** argv) {
    const std::string want = argc > 1 ? argv[1] : "cpu";
    const enum ggml_backend_dev_type type = want == "gpu" ? GGML_BACKEND_DEVICE_TYPE_GPU : GGML_BACKEND_DEVICE_TYPE_CPU;
    try {
        Model model(type);
        std::printf("backend %s\n", ggml_backend_name(model.backend()));
        const int n_tok = 4;
        std::vector<float> in(kEmbd * n_tok);
        for (size_t i = 0; i < in.size(); ++i) {
            in[i] = std::cos(0.11f * static_cast<float>(i));
        }
        for (int round = 0; round < 2; ++round) {
            std::vector<float> out = run(model, in, n_tok);
            double norm = 0.0;
            for (float v : out) norm += static_cast<double>(v) * v;
            std::printf("round %d: |y| = %.4f\n", round, std::sqrt(norm));
            in = out;
        }
    } catch (const std::exception & e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
