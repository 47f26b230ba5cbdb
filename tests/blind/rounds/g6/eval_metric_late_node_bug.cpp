// provenance: blind round g6
// run-args: --device CUDA0 --batches 2
// Evaluation loop of a small regression model: the eval graph (prediction + MSE loss) is built
// and allocated once; a mean-absolute-error metric requested through a registered metric hook
// is appended to the graph after the allocation.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

using MetricFn = std::function<ggml_tensor *(ggml_context *, ggml_tensor *pred, ggml_tensor *target)>;

class Regressor {
public:
    Regressor(ggml_backend_t backend, int n_in, int n_out) : backend_(backend), n_in_(n_in), n_out_(n_out) {
        ggml_init_params ip = {ggml_tensor_overhead() * 2, nullptr, true};
        wctx_.reset(ggml_init(ip));
        w_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, n_in, n_out);
        b_ = ggml_new_tensor_1d(wctx_.get(), GGML_TYPE_F32, n_out);
        wbuf_.reset(ggml_backend_alloc_ctx_tensors(wctx_.get(), backend));
        std::vector<float> w((size_t)n_in * n_out), b((size_t)n_out, 0.5f);
        for (size_t i = 0; i < w.size(); i++) w[i] = (i % (size_t)(n_in + 1) == 0) ? 1.0f : 0.0f;
        ggml_backend_tensor_set(w_, w.data(), 0, ggml_nbytes(w_));
        ggml_backend_tensor_set(b_, b.data(), 0, ggml_nbytes(b_));
    }

    void add_metric(const std::string &name, MetricFn fn) { metrics_[name] = std::move(fn); }

    void build(int n_batch) {
        ggml_init_params gp = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
        gctx_.reset(ggml_init(gp));
        ggml_context *ctx = gctx_.get();
        gf_ = ggml_new_graph(ctx);
        x_ = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_in_, n_batch);
        y_ = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_out_, n_batch);
        ggml_set_input(x_);
        ggml_set_input(y_);
        pred_ = ggml_add(ctx, ggml_mul_mat(ctx, w_, x_), b_);
        loss_ = ggml_mean(ctx, ggml_sqr(ctx, ggml_sub(ctx, pred_, y_)));
        ggml_set_name(loss_, "mse");
        ggml_set_output(loss_);
        ggml_build_forward_expand(gf_, loss_);
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_)));
        ggml_gallocr_alloc_graph(galloc_.get(), gf_);
        for (auto &kv : metrics_) {
            ggml_tensor *m = kv.second(ctx, pred_, y_);
            ggml_set_name(m, kv.first.c_str());
            ggml_build_forward_expand(gf_, m);
            outputs_[kv.first] = m;
        }
    }

    std::map<std::string, float> eval(const std::vector<float> &x, const std::vector<float> &y) {
        ggml_backend_tensor_set(x_, x.data(), 0, ggml_nbytes(x_));
        ggml_backend_tensor_set(y_, y.data(), 0, ggml_nbytes(y_));
        ggml_backend_graph_compute(backend_, gf_); // expect-error: ggml-buffer-not-set
        std::map<std::string, float> res;
        float loss = 0.0f;
        ggml_backend_tensor_get(loss_, &loss, 0, sizeof loss);
        res["mse"] = loss;
        for (auto &kv : outputs_) {
            float v = 0.0f;
            ggml_backend_tensor_get(kv.second, &v, 0, sizeof v);
            res[kv.first] = v;
        }
        return res;
    }

private:
    ggml_backend_t backend_;
    int n_in_, n_out_;
    ggml_context_ptr wctx_, gctx_;
    ggml_backend_buffer_ptr wbuf_;
    ggml_gallocr_ptr galloc_;
    ggml_cgraph *gf_ = nullptr;
    ggml_tensor *w_ = nullptr, *b_ = nullptr, *x_ = nullptr, *y_ = nullptr, *pred_ = nullptr, *loss_ = nullptr;
    std::map<std::string, MetricFn> metrics_;
    std::map<std::string, ggml_tensor *> outputs_;
};

// Keeps the best value of each metric across batches, the way a trainer's early stopping does.
class MetricTracker {
public:
    void update(const std::map<std::string, float> &r, int batch) {
        for (const auto &kv : r) {
            auto it = best_.find(kv.first);
            if (it == best_.end() || kv.second < it->second.first) best_[kv.first] = {kv.second, batch};
            history_[kv.first].push_back(kv.second);
        }
    }
    void report() const {
        for (const auto &kv : best_) {
            const auto &h = history_.at(kv.first);
            float mean = 0.0f;
            for (float v : h) mean += v;
            mean /= (float)h.size();
            std::printf("%s: best %.5f at batch %d, mean %.5f\n", kv.first.c_str(), kv.second.first, kv.second.second, mean);
        }
    }

private:
    std::map<std::string, std::pair<float, int>> best_;
    std::map<std::string, std::vector<float>> history_;
};

int main(int argc, char **argv) {
    if (argc > 1 && !std::strcmp(argv[1], "--help")) {
        std::printf("usage: %s [--device NAME] [--batches N]\n", argv[0]);
        for (size_t i = 0; i < ggml_backend_dev_count(); i++) std::printf("  device %s\n", ggml_backend_dev_name(ggml_backend_dev_get(i)));
        return 0;
    }
    const char *device = "CPU";
    int n_batches = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--device")) device = argv[i + 1];
        else if (!std::strcmp(argv[i], "--batches")) n_batches = std::atoi(argv[i + 1]);
    }
    ggml_backend_dev_t dev = ggml_backend_dev_by_name(device);
    if (!dev) dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    ggml_backend_ptr backend(ggml_backend_dev_init(dev, nullptr));
    const int n_in = 8, n_out = 3, n_batch = 4;

    Regressor model(backend.get(), n_in, n_out);
    model.add_metric("mae", [](ggml_context *ctx, ggml_tensor *pred, ggml_tensor *target) {
        return ggml_mean(ctx, ggml_abs(ctx, ggml_sub(ctx, pred, target)));
    });
    model.build(n_batch);
    MetricTracker tracker;

    for (int b = 0; b < n_batches; b++) {
        std::vector<float> x((size_t)n_in * n_batch), y((size_t)n_out * n_batch);
        for (size_t i = 0; i < x.size(); i++) x[i] = std::sin((float)(i + (size_t)b));
        for (size_t i = 0; i < y.size(); i++) y[i] = 0.5f + x[(i / n_out) * n_in + (i % n_out)];
        auto r = model.eval(x, y);
        std::printf("batch %d:", b);
        for (const auto &kv : r) std::printf(" %s=%.5f", kv.first.c_str(), kv.second);
        std::printf("\n");
        tracker.update(r, b);
    }
    tracker.report();
    return 0;
}
