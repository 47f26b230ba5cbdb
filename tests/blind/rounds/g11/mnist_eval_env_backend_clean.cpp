// ggml examples/mnist style evaluation: a two-layer MLP whose parameters are held by a class
// with ggml-cpp.h smart pointers, the backend chosen at run time (MNIST_BACKEND=cpu|cuda,
// default: the best device through ggml_backend_init_best), the parameters found by name in a
// std::map, and an eval loop that rebuilds the graph per batch, allocates it with a gallocr
// of the same backend, and reads the argmax (I32) predictions back with tensor_get.
// Tricky but correct: the backend is picked from the environment, but every buffer, gallocr
// and compute call uses that one backend; ->data is only touched on the CPU path's host
// batch buffer, after checking ggml_backend_buffer_is_host.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kInput = 64;  // 8x8 "images"
constexpr int kHidden = 32;
constexpr int kClasses = 10;
constexpr int kBatch = 16;

ggml_backend_t pick_backend() {
    const char *want = std::getenv("MNIST_BACKEND");
    if (want && std::strcmp(want, "cpu") == 0) return ggml_backend_cpu_init();
    if (want && std::strcmp(want, "cuda") == 0) return ggml_backend_cuda_init(0);
    return ggml_backend_init_best();
}

class MnistModel {
  public:
    explicit MnistModel(ggml_backend_t backend) : backend_(backend) {
        ggml_init_params ip = {ggml_tensor_overhead() * 4, nullptr, true};
        ctx_.reset(ggml_init(ip));
        params_["fc1.weight"] = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kInput, kHidden);
        params_["fc1.bias"] = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kHidden);
        params_["fc2.weight"] = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kHidden, kClasses);
        params_["fc2.bias"] = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kClasses);
        for (auto &p : params_) ggml_set_name(p.second, p.first.c_str());
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
        ggml_backend_buffer_set_usage(buf_.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
    }

    void load_synthetic() {
        int k = 0;
        for (auto &p : params_) {
            std::vector<float> v(ggml_nelements(p.second));
            for (size_t i = 0; i < v.size(); i++) v[i] = (float)((int)((i * 7 + k) % 19) - 9) / 30.0f;
            ggml_backend_tensor_set(p.second, v.data(), 0, ggml_nbytes(p.second));
            k += 5;
        }
    }

    // returns the predicted class of each image of the batch
    std::vector<int32_t> predict(const std::vector<float> &images) {
        ggml_init_params ip = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *x = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kInput, kBatch);
        ggml_set_name(x, "images");
        ggml_set_input(x);
        auto linear = [&](ggml_tensor *in, const char *w, const char *b) {
            return ggml_add(ctx.get(), ggml_mul_mat(ctx.get(), param(w), in), param(b));
        };
        ggml_tensor *h = ggml_relu(ctx.get(), linear(x, "fc1.weight", "fc1.bias"));
        ggml_tensor *logits = linear(h, "fc2.weight", "fc2.bias");
        ggml_tensor *pred = ggml_argmax(ctx.get(), logits);
        ggml_set_name(pred, "pred");
        ggml_set_output(pred);
        ggml_build_forward_expand(gf, pred);

        if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) return {};
        ggml_tensor *in = ggml_graph_get_tensor(gf, "images");
        if (ggml_backend_buffer_is_host(in->buffer)) {
            std::memcpy(in->data, images.data(), ggml_nbytes(in));
        } else {
            ggml_backend_tensor_set(in, images.data(), 0, ggml_nbytes(in));
        }
        if (ggml_backend_graph_compute(backend_, gf) != GGML_STATUS_SUCCESS) return {};

        std::vector<int32_t> out(kBatch);
        ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "pred"), out.data(), 0, out.size() * sizeof(int32_t));
        return out;
    }

  private:
    ggml_tensor *param(const std::string &name) { return params_.at(name); }

    ggml_backend_t backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr galloc_;
    std::map<std::string, ggml_tensor *> params_;
};

std::vector<float> make_batch(int b, std::vector<int> &labels) {
    std::vector<float> img((size_t)kInput * kBatch);
    labels.assign(kBatch, 0);
    for (int i = 0; i < kBatch; i++) {
        labels[i] = (b * kBatch + i) % kClasses;
        for (int p = 0; p < kInput; p++) img[(size_t)i * kInput + p] = (p % kClasses == labels[i]) ? 1.0f : 0.0f;
    }
    return img;
}

} // namespace

int main() {
    ggml_backend_ptr backend(pick_backend());
    if (!backend) return 1;
    std::printf("evaluating on %s\n", ggml_backend_name(backend.get()));
    MnistModel model(backend.get());
    model.load_synthetic();

    int correct = 0, total = 0;
    std::vector<int> labels;
    for (int b = 0; b < 4; b++) {
        std::vector<float> images = make_batch(b, labels);
        std::vector<int32_t> pred = model.predict(images);
        if (pred.empty()) return 1;
        for (int i = 0; i < kBatch; i++) correct += pred[i] == labels[i];
        total += kBatch;
    }
    std::printf("accuracy %d/%d\n", correct, total);
    return 0;
}
