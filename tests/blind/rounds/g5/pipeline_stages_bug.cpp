// provenance: blind round g5
// pipeline_stages: pipeline parallelism by hand; stage 0 on CUDA0, stage 1 on CUDA1. Each stage
// keeps its activations in its own compute buffer; stage 1 consumes stage 0's output.
// run-args: --micro-batches 2
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

static constexpr int kEmbd = 32;
static constexpr int kBatch = 4;

class Stage {
public:
    Stage(int device, int n_layers, int first_layer) : device_(device), n_layers_(n_layers) {
        backend_.reset(ggml_backend_cuda_init(device));
        if (!backend_) throw std::runtime_error("cuda init failed for device " + std::to_string(device));
        ggml_init_params ip = {size_t(2 * n_layers) * ggml_tensor_overhead(), nullptr, true};
        wctx_.reset(ggml_init(ip));
        for (int l = 0; l < n_layers; l++) {
            ggml_tensor *w = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
            ggml_tensor *b = ggml_new_tensor_1d(wctx_.get(), GGML_TYPE_F32, kEmbd);
            ggml_format_name(w, "layers.%d.w", first_layer + l);
            ggml_format_name(b, "layers.%d.b", first_layer + l);
            weights_.push_back(w);
            biases_.push_back(b);
        }
        wbuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(wctx_.get(), ggml_backend_cuda_buffer_type(device)));
        if (!wbuf_) throw std::runtime_error("weights alloc failed");
        for (int l = 0; l < n_layers; l++) {
            std::vector<float> w(kEmbd * kEmbd), b(kEmbd);
            for (int i = 0; i < kEmbd * kEmbd; i++) w[i] = (i / kEmbd == i % kEmbd) ? 0.5f : 0.01f * std::cos(float(i + l));
            for (int i = 0; i < kEmbd; i++) b[i] = 0.001f * float(first_layer + l);
            ggml_backend_tensor_set(weights_[l], w.data(), 0, w.size() * sizeof(float));
            ggml_backend_tensor_set(biases_[l], b.data(), 0, b.size() * sizeof(float));
        }
        galloc_.reset(ggml_gallocr_new(ggml_backend_cuda_buffer_type(device)));
    }

    // Builds this stage's graph. `input` is either a fresh input tensor (first stage) or the
    // previous stage's output.
    void build(ggml_tensor *input) {
        ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
        gctx_.reset(ggml_init(ip));
        ggml_context *c = gctx_.get();
        if (!input) {
            input = ggml_new_tensor_2d(c, GGML_TYPE_F32, kEmbd, kBatch);
            ggml_set_name(input, "stage_input");
            ggml_set_input(input);
            own_input_ = input;
        }
        ggml_tensor *x = input;
        for (int l = 0; l < n_layers_; l++) {
            x = ggml_add(c, ggml_mul_mat(c, weights_[l], x), biases_[l]);
            x = ggml_gelu(c, x);
        }
        ggml_set_output(x);
        output_ = x;
        graph_ = ggml_new_graph(c);
        ggml_build_forward_expand(graph_, output_);
        if (!ggml_gallocr_alloc_graph(galloc_.get(), graph_)) throw std::runtime_error("alloc graph");
    }

    void feed(const std::vector<float> &x) {
        ggml_backend_tensor_set(own_input_, x.data(), 0, x.size() * sizeof(float));
    }

    void run() {
        ggml_backend_graph_compute(backend_.get(), graph_); // expect-error: ggml-backend-mismatch
    }

    ggml_tensor *output() const { return output_; }
    int device() const { return device_; }

private:
    int device_;
    int n_layers_;
    ggml_backend_ptr backend_;
    ggml_context_ptr wctx_;
    ggml_backend_buffer_ptr wbuf_;
    std::vector<ggml_tensor *> weights_, biases_;
    ggml_gallocr_ptr galloc_;
    ggml_context_ptr gctx_;
    ggml_cgraph *graph_ = nullptr;
    ggml_tensor *own_input_ = nullptr;
    ggml_tensor *output_ = nullptr;
};

class Pipeline {
public:
    explicit Pipeline(int layers_per_stage) {
        const int n_dev = ggml_backend_cuda_get_device_count();
        if (n_dev < 2) throw std::runtime_error("pipeline needs two GPUs");
        stages_.push_back(std::make_unique<Stage>(0, layers_per_stage, 0));
        stages_.push_back(std::make_unique<Stage>(1, layers_per_stage, layers_per_stage));
        ggml_tensor *prev = nullptr;
        for (auto &s : stages_) {
            s->build(prev);
            prev = s->output();
        }
    }

    std::vector<float> forward(const std::vector<float> &x) {
        stages_.front()->feed(x);
        for (auto &s : stages_) s->run();
        std::vector<float> y(kEmbd * kBatch);
        ggml_backend_tensor_get(stages_.back()->output(), y.data(), 0, y.size() * sizeof(float));
        return y;
    }

    size_t size() const { return stages_.size(); }

private:
    std::vector<std::unique_ptr<Stage>> stages_;
};

static void describe_devices() {
    const int n = ggml_backend_cuda_get_device_count();
    for (int d = 0; d < n; d++) {
        char desc[128];
        size_t free_mem = 0, total = 0;
        ggml_backend_cuda_get_device_description(d, desc, sizeof desc);
        ggml_backend_cuda_get_device_memory(d, &free_mem, &total);
        std::printf("GPU %d: %s, %zu/%zu MiB free\n", d, desc, free_mem >> 20, total >> 20);
    }
}

int main(int argc, char **argv) {
    int micro_batches = 3;
    for (int i = 1; i + 1 < argc; i++)
        if (std::strcmp(argv[i], "--micro-batches") == 0) micro_batches = std::atoi(argv[i + 1]);
    if (micro_batches < 1 || micro_batches > 16) micro_batches = 3;

    describe_devices();
    try {
        Pipeline pipe(2);
        std::printf("pipeline with %zu stages\n", pipe.size());
        for (int mb = 0; mb < micro_batches; mb++) {
            std::vector<float> x(kEmbd * kBatch);
            for (size_t i = 0; i < x.size(); i++) x[i] = std::sin(0.1f * float(i + mb));
            std::vector<float> y = pipe.forward(x);
            double s = 0;
            for (float v : y) s += v;
            std::printf("micro-batch %d: sum %.5f\n", mb, s);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
