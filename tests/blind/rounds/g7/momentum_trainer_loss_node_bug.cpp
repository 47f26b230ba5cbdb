// run-args: --epochs 3 --lr 0.05
//
// Linear regression trained with SGD + momentum written as ggml graphs (gradient by hand).
// Parameters and momentum buffers live on the best device; each step's graph updates them in
// place with ggml_cpy. The loss node is built alongside the updates, but only the update nodes
// are expanded into the graph.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

struct Param {
    const char *name;
    ggml_tensor *value;
    ggml_tensor *momentum;
};

struct StepGraph {
    ggml_context_ptr ctx;
    ggml_cgraph *gf = nullptr;
    ggml_tensor *x = nullptr, *y = nullptr;
    ggml_tensor *loss = nullptr;
};

class Trainer {
public:
    Trainer(int n_in, int n_out, int n_batch) : n_in_(n_in), n_out_(n_out), n_batch_(n_batch) {
        backend_.reset(ggml_backend_init_best());
        ggml_init_params ip = { 4 * ggml_tensor_overhead(), nullptr, true };
        ctx_.reset(ggml_init(ip));
        ggml_tensor *w = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, n_in, n_out);
        ggml_tensor *b = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, n_out);
        params_.push_back({ "w", w, ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, n_in, n_out) });
        params_.push_back({ "b", b, ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, n_out) });
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        ggml_backend_buffer_clear(buf_.get(), 0);
        alloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    }

    StepGraph build(float lr, float beta) {
        StepGraph g;
        ggml_init_params ip = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true };
        g.ctx.reset(ggml_init(ip));
        ggml_context *ctx = g.ctx.get();
        g.gf = ggml_new_graph(ctx);
        g.x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_in_, n_batch_);
        g.y = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_out_, n_batch_);
        ggml_set_input(g.x);
        ggml_set_input(g.y);

        ggml_tensor *w = params_[0].value, *b = params_[1].value;
        ggml_tensor *err = ggml_sub(ctx, ggml_add(ctx, ggml_mul_mat(ctx, w, g.x), b), g.y); // [n_out, n_batch]
        g.loss = ggml_mean(ctx, ggml_reshape_1d(ctx, ggml_sqr(ctx, err), n_out_ * n_batch_));

        // dL/dw = err x^T / n, dL/db = mean over the batch
        ggml_tensor *xt = ggml_cont(ctx, ggml_transpose(ctx, g.x));     // [n_batch, n_in]
        ggml_tensor *errt = ggml_cont(ctx, ggml_transpose(ctx, err));   // [n_batch, n_out]
        ggml_tensor *gw = ggml_scale(ctx, ggml_mul_mat(ctx, xt, errt), 2.0f / n_batch_); // [n_in, n_out]
        ggml_tensor *gb = ggml_scale(ctx, ggml_sum_rows(ctx, errt), 2.0f / n_batch_);    // [1, n_out]
        gb = ggml_reshape_1d(ctx, gb, n_out_);

        ggml_tensor *grads[2] = { gw, gb };
        for (size_t i = 0; i < params_.size(); i++) {
            const Param &p = params_[i];
            ggml_tensor *m = ggml_add(ctx, ggml_scale(ctx, p.momentum, beta), grads[i]);
            ggml_tensor *v = ggml_sub(ctx, p.value, ggml_scale(ctx, m, lr));
            ggml_build_forward_expand(g.gf, ggml_cpy(ctx, m, p.momentum));
            ggml_build_forward_expand(g.gf, ggml_cpy(ctx, v, p.value));
        }
        return g;
    }

    bool step(StepGraph &g, const std::vector<float> &x, const std::vector<float> &y) {
        if (!ggml_gallocr_alloc_graph(alloc_.get(), g.gf)) return false;
        ggml_backend_tensor_set(g.x, x.data(), 0, ggml_nbytes(g.x));
        ggml_backend_tensor_set(g.y, y.data(), 0, ggml_nbytes(g.y));
        return ggml_backend_graph_compute(backend_.get(), g.gf) == GGML_STATUS_SUCCESS;
    }

    float read_loss(const StepGraph &g) const {
        float l = 0.0f;
        ggml_backend_tensor_get(g.loss, &l, 0, sizeof l); // expect-error: ggml-buffer-not-set
        return l;
    }

    std::vector<float> weights() const {
        std::vector<float> w(ggml_nelements(params_[0].value));
        ggml_backend_tensor_get(params_[0].value, w.data(), 0, ggml_nbytes(params_[0].value));
        return w;
    }

    const char *backend_name() const { return ggml_backend_name(backend_.get()); }

private:
    int n_in_, n_out_, n_batch_;
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr alloc_;
    std::vector<Param> params_;
};

int main(int argc, char **argv) {
    int epochs = 5;
    float lr = 0.1f;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--lr")) lr = (float) std::atof(argv[i + 1]);
    }
    if (epochs < 1) epochs = 1;

    const int n_in = 6, n_out = 2, n_batch = 16, n_steps = 20;
    std::mt19937 rng(3);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> w_true(n_in * n_out);
    for (auto &v : w_true) v = nd(rng);

    Trainer tr(n_in, n_out, n_batch);
    std::printf("training on %s\n", tr.backend_name());
    for (int ep = 0; ep < epochs; ep++) {
        float last = 0.0f;
        for (int s = 0; s < n_steps; s++) {
            std::vector<float> x(n_in * n_batch), y(n_out * n_batch);
            for (auto &v : x) v = nd(rng);
            for (int b = 0; b < n_batch; b++) {
                for (int o = 0; o < n_out; o++) {
                    float acc = 0.5f * o;
                    for (int i = 0; i < n_in; i++) acc += w_true[o * n_in + i] * x[b * n_in + i];
                    y[b * n_out + o] = acc;
                }
            }
            StepGraph g = tr.build(lr, 0.9f);
            if (!tr.step(g, x, y)) {
                std::fprintf(stderr, "step failed\n");
                return 1;
            }
            if (s == n_steps - 1) last = tr.read_loss(g);
        }
        std::printf("epoch %d: loss %.5f\n", ep, last);
    }
    std::vector<float> w = tr.weights();
    float err = 0.0f;
    for (size_t i = 0; i < w.size(); i++) err = std::fmax(err, std::fabs(w[i] - w_true[i]));
    std::printf("max |w - w_true| = %.4f\n", err);
    return 0;
}
