// provenance: blind round g6
// run-args: 8 3
// Pipeline-parallel MLP stack over all GPU devices with ggml_backend_sched (parallel = true,
// several copies). Stage s owns layers [s*L/S, (s+1)*L/S) in its device's weight buffer; the
// scheduler copies activations between stages. Input/output tensors are pinned to the first
// and last stage with ggml_backend_sched_set_tensor_backend.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

struct Layer {
    ggml_tensor *w = nullptr;
    ggml_tensor *b = nullptr;
    int stage = 0;
};

struct Stage {
    ggml_backend_ptr backend;
    ggml_backend_buffer_type_t buft = nullptr;
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr weights;
};

class Pipeline {
public:
    Pipeline(int n_layer, int width) : width_(width) {
        for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
            ggml_backend_dev_t dev = ggml_backend_dev_get(i);
            if (ggml_backend_dev_type(dev) != GGML_BACKEND_DEVICE_TYPE_GPU) continue;
            auto st = std::make_unique<Stage>();
            st->backend.reset(ggml_backend_dev_init(dev, nullptr));
            st->buft = ggml_backend_dev_buffer_type(dev);
            stages_.push_back(std::move(st));
        }
        cpu_.reset(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr));
        if (stages_.empty()) {
            auto st = std::make_unique<Stage>();
            st->backend.reset(ggml_backend_cpu_init());
            st->buft = ggml_backend_cpu_buffer_type();
            stages_.push_back(std::move(st));
        }
        for (auto &st : stages_) {
            ggml_init_params ip = {ggml_tensor_overhead() * 2 * (size_t)n_layer, nullptr, true};
            st->ctx.reset(ggml_init(ip));
        }
        const int n_stage = (int)stages_.size();
        layers_.resize(n_layer);
        for (int il = 0; il < n_layer; il++) {
            Layer &L = layers_[il];
            L.stage = il * n_stage / n_layer;
            ggml_context *c = stages_[L.stage]->ctx.get();
            L.w = ggml_new_tensor_2d(c, GGML_TYPE_F32, width, width);
            L.b = ggml_new_tensor_1d(c, GGML_TYPE_F32, width);
        }
        for (auto &st : stages_) {
            if (!ggml_get_first_tensor(st->ctx.get())) continue;
            st->weights.reset(ggml_backend_alloc_ctx_tensors_from_buft(st->ctx.get(), st->buft));
            if (!st->weights) throw std::runtime_error("weights alloc failed");
        }
        for (size_t il = 0; il < layers_.size(); il++) {
            std::vector<float> w((size_t)width * width), b((size_t)width, 0.01f);
            for (size_t i = 0; i < w.size(); i++) w[i] = ((i % (size_t)width) == (i / (size_t)width) ? 0.9f : 0.0f) + 0.001f * (float)(il % 3);
            ggml_backend_tensor_set(layers_[il].w, w.data(), 0, w.size() * sizeof(float));
            ggml_backend_tensor_set(layers_[il].b, b.data(), 0, b.size() * sizeof(float));
        }
        std::vector<ggml_backend_t> backends;
        std::vector<ggml_backend_buffer_type_t> bufts;
        for (auto &st : stages_) {
            if (ggml_backend_is_cpu(st->backend.get())) continue;
            backends.push_back(st->backend.get());
            bufts.push_back(st->buft);
        }
        backends.push_back(cpu_.get());
        bufts.push_back(ggml_backend_get_default_buffer_type(cpu_.get()));
        sched_.reset(ggml_backend_sched_new(backends.data(), bufts.data(), (int)backends.size(), 1024, true, true));
    }

    ggml_cgraph *build(ggml_context *ctx, int n_batch) {
        ggml_cgraph *gf = ggml_new_graph_custom(ctx, 1024, false);
        ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, width_, n_batch);
        ggml_set_name(x, "x");
        ggml_set_input(x);
        ggml_tensor *cur = x;
        for (const Layer &L : layers_) {
            cur = ggml_add(ctx, ggml_mul_mat(ctx, L.w, cur), L.b);
            cur = ggml_relu(ctx, cur);
            ggml_backend_sched_set_tensor_backend(sched_.get(), cur, stages_[L.stage]->backend.get());
        }
        ggml_set_name(cur, "y");
        ggml_set_output(cur);
        ggml_build_forward_expand(gf, cur);
        return gf;
    }

    std::vector<float> run(const std::vector<float> &input, int n_batch) {
        ggml_init_params gp = {ggml_tensor_overhead() * 1024 + ggml_graph_overhead_custom(1024, false), nullptr, true};
        ggml_context_ptr ctx(ggml_init(gp));
        ggml_backend_sched_reset(sched_.get());
        ggml_cgraph *gf = build(ctx.get(), n_batch);
        if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) throw std::runtime_error("sched alloc");
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "x"), input.data(), 0, input.size() * sizeof(float));
        if (ggml_backend_sched_graph_compute(sched_.get(), gf) != GGML_STATUS_SUCCESS) throw std::runtime_error("compute");
        ggml_backend_sched_synchronize(sched_.get());
        ggml_tensor *y = ggml_graph_get_tensor(gf, "y");
        std::vector<float> out((size_t)ggml_nelements(y));
        ggml_backend_tensor_get(y, out.data(), 0, ggml_nbytes(y));
        std::printf("splits %d over %zu stage(s)\n", ggml_backend_sched_get_n_splits(sched_.get()), stages_.size());
        return out;
    }

    ~Pipeline() { sched_.reset(); }

private:
    int width_;
    std::vector<std::unique_ptr<Stage>> stages_;
    std::vector<Layer> layers_;
    ggml_backend_ptr cpu_;
    ggml_backend_sched_ptr sched_;
};

int main(int argc, char **argv) {
    int n_layer = argc > 1 ? std::atoi(argv[1]) : 6;
    int n_batch = argc > 2 ? std::atoi(argv[2]) : 2;
    if (n_layer < 1 || n_layer > 64) n_layer = 6;
    if (n_batch < 1 || n_batch > 16) n_batch = 2;
    const int width = 16;
    try {
        Pipeline pipe(n_layer, width);
        for (int micro = 0; micro < 3; micro++) {
            std::vector<float> x((size_t)width * n_batch);
            std::iota(x.begin(), x.end(), (float)micro);
            for (auto &v : x) v *= 0.01f;
            auto y = pipe.run(x, n_batch);
            double s = std::accumulate(y.begin(), y.end(), 0.0);
            std::printf("micro-batch %d: sum %.5f\n", micro, s);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
