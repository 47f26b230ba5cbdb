// provenance: blind round g5
// sgd_regression: trains a linear regressor with hand-written gradient graphs (update applied
// in-graph with ggml_cpy), checkpoints it to a host vector, restores it on another device and
// evaluates there.
// run-args: --train-device CUDA0 --eval-device CUDA1 --epochs 20
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kFeat = 4;
constexpr int kSamples = 32;

ggml_backend_dev_t device_or_cpu(const std::string &name) {
    ggml_backend_dev_t d = name.empty() ? nullptr : ggml_backend_dev_by_name(name.c_str());
    return d ? d : ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}

struct Checkpoint {
    std::map<std::string, std::vector<float>> tensors;
    int epoch = 0;
};

class Regressor {
public:
    explicit Regressor(ggml_backend_dev_t dev) : dev_(dev) {
        backend_.reset(ggml_backend_dev_init(dev, nullptr));
        if (!backend_) throw std::runtime_error("backend");
        ggml_init_params ip = {2 * ggml_tensor_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        w_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kFeat, 1);
        b_ = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, 1);
        ggml_set_name(w_, "w");
        ggml_set_name(b_, "b");
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        if (!buf_) throw std::runtime_error("params");
        ggml_backend_buffer_clear(buf_.get(), 0);
        galloc_.reset(ggml_gallocr_new(ggml_backend_dev_buffer_type(dev)));
    }

    // one full-batch gradient step; returns the loss before the step
    float step(const std::vector<float> &X, const std::vector<float> &y, float lr) {
        Graph g = build(true, lr);
        upload(g, X, y);
        ggml_backend_graph_compute(backend_.get(), g.gf);
        float loss = 0;
        ggml_backend_tensor_get(g.loss, &loss, 0, sizeof loss);
        return loss;
    }

    float evaluate(const std::vector<float> &X, const std::vector<float> &y) {
        Graph g = build(false, 0.0f);
        upload(g, X, y);
        ggml_backend_graph_compute(backend_.get(), g.gf);
        float loss = 0;
        ggml_backend_tensor_get(g.loss, &loss, 0, sizeof loss);
        return loss;
    }

    Checkpoint save(int epoch) const {
        Checkpoint ck;
        ck.epoch = epoch;
        for (ggml_tensor *t : {w_, b_}) {
            std::vector<float> v(ggml_nelements(t));
            ggml_backend_tensor_get(t, v.data(), 0, ggml_nbytes(t));
            ck.tensors[ggml_get_name(t)] = std::move(v);
        }
        return ck;
    }

    void load(const Checkpoint &ck) {
        for (ggml_tensor *t : {w_, b_}) {
            const std::vector<float> &v = ck.tensors.at(ggml_get_name(t));
            if (v.size() != size_t(ggml_nelements(t))) throw std::runtime_error("checkpoint shape");
            ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
        }
    }

    const char *name() const { return ggml_backend_dev_name(dev_); }

private:
    struct Graph {
        ggml_cgraph *gf = nullptr;
        ggml_tensor *X = nullptr, *y = nullptr, *loss = nullptr;
    };

    Graph build(bool train, float lr) {
        ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
        gctx_.reset(ggml_init(ip));
        ggml_context *c = gctx_.get();
        Graph g;
        g.X = ggml_new_tensor_2d(c, GGML_TYPE_F32, kFeat, kSamples);
        g.y = ggml_new_tensor_2d(c, GGML_TYPE_F32, 1, kSamples);
        ggml_set_input(g.X);
        ggml_set_input(g.y);
        ggml_tensor *pred = ggml_add(c, ggml_mul_mat(c, w_, g.X), b_); // [1, N]
        ggml_tensor *err = ggml_sub(c, pred, g.y);
        g.loss = ggml_scale(c, ggml_sum(c, ggml_sqr(c, err)), 1.0f / kSamples);
        ggml_set_output(g.loss);
        g.gf = ggml_new_graph(c);
        ggml_build_forward_expand(g.gf, g.loss);
        if (train) {
            // dL/dw = 2/N * X^T err, dL/db = 2/N * sum(err)
            ggml_tensor *err_t = ggml_cont(c, ggml_transpose(c, err));                 // [N, 1]
            ggml_tensor *Xt = ggml_cont(c, ggml_transpose(c, g.X));                    // [N, F]
            ggml_tensor *gw = ggml_scale(c, ggml_mul_mat(c, Xt, err_t), 2.0f / kSamples); // [F, 1]
            ggml_tensor *gb = ggml_reshape_1d(c, ggml_scale(c, ggml_sum(c, err), 2.0f / kSamples), 1);
            ggml_build_forward_expand(g.gf, ggml_cpy(c, ggml_sub(c, w_, ggml_scale(c, gw, lr)), w_));
            ggml_build_forward_expand(g.gf, ggml_cpy(c, ggml_sub(c, b_, ggml_scale(c, gb, lr)), b_));
        }
        if (!ggml_gallocr_alloc_graph(galloc_.get(), g.gf)) throw std::runtime_error("alloc");
        return g;
    }

    static void upload(const Graph &g, const std::vector<float> &X, const std::vector<float> &y) {
        ggml_backend_tensor_set(g.X, X.data(), 0, ggml_nbytes(g.X));
        ggml_backend_tensor_set(g.y, y.data(), 0, ggml_nbytes(g.y));
    }

    ggml_backend_dev_t dev_;
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr galloc_;
    ggml_context_ptr gctx_;
    ggml_tensor *w_ = nullptr, *b_ = nullptr;
};

void make_data(std::vector<float> &X, std::vector<float> &y, int salt) {
    const float true_w[kFeat] = {1.5f, -2.0f, 0.5f, 3.0f};
    X.resize(kFeat * kSamples);
    y.resize(kSamples);
    for (int n = 0; n < kSamples; n++) {
        float t = 0.8f;
        for (int f = 0; f < kFeat; f++) {
            float v = std::sin(0.7f * float(n * kFeat + f + salt));
            X[n * kFeat + f] = v;
            t += true_w[f] * v;
        }
        y[n] = t;
    }
}

} // namespace

int main(int argc, char **argv) {
    std::string train_dev, eval_dev;
    int epochs = 10;
    float lr = 0.3f;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--train-device") train_dev = argv[i + 1];
        else if (a == "--eval-device") eval_dev = argv[i + 1];
        else if (a == "--epochs") epochs = std::atoi(argv[i + 1]);
        else if (a == "--lr") lr = float(std::atof(argv[i + 1]));
    }
    if (epochs < 1 || epochs > 1000) epochs = 10;

    try {
        std::vector<float> X, y, Xv, yv;
        make_data(X, y, 0);
        make_data(Xv, yv, 1000);

        Regressor trainer(device_or_cpu(train_dev));
        Checkpoint best;
        float best_loss = INFINITY;
        for (int e = 0; e < epochs; e++) {
            float loss = trainer.step(X, y, lr);
            if (loss < best_loss) {
                best_loss = loss;
                best = trainer.save(e);
            }
            if (e % 5 == 0) std::printf("[%s] epoch %3d loss %.5f\n", trainer.name(), e, loss);
        }

        Regressor evaluator(device_or_cpu(eval_dev));
        evaluator.load(best);
        std::printf("[%s] restored epoch %d, validation loss %.5f\n", evaluator.name(), best.epoch,
                    evaluator.evaluate(Xv, yv));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
