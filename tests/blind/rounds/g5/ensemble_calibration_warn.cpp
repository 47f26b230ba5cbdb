// provenance: blind round g5
// ensemble_calibration: averages the calibrated predictions of several small classifiers.
// With --spread the members are placed on different GPUs; the shared temperature-scaling
// vector is loaded once, next to the first member.
// run-args: --spread --members 3
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ens {

constexpr int kIn = 10;
constexpr int kClasses = 5;

// A vector of temperatures (one per class), stored on one device.
struct SharedCalibration {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *inv_temp = nullptr;

    explicit SharedCalibration(ggml_backend_dev_t dev) {
        ggml_init_params ip = {ggml_tensor_overhead(), nullptr, true};
        ctx.reset(ggml_init(ip));
        inv_temp = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kClasses);
        ggml_set_name(inv_temp, "calib.inv_temp");
        buf.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx.get(), ggml_backend_dev_buffer_type(dev)));
        if (!buf) throw std::runtime_error("calibration alloc");
        std::vector<float> t(kClasses);
        for (int k = 0; k < kClasses; k++) t[k] = 1.0f / (1.0f + 0.2f * float(k));
        ggml_backend_tensor_set(inv_temp, t.data(), 0, t.size() * sizeof(float));
    }
};

class Member {
public:
    Member(ggml_backend_dev_t dev, int seed, const SharedCalibration &calib) : dev_(dev), calib_(calib) {
        backend_.reset(ggml_backend_dev_init(dev, nullptr));
        ggml_init_params ip = {2 * ggml_tensor_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        w_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kIn, kClasses);
        b_ = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kClasses);
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        if (!buf_) throw std::runtime_error("member alloc");
        std::vector<float> w(kIn * kClasses), b(kClasses);
        for (int i = 0; i < kIn * kClasses; i++) w[i] = std::sin(0.3f * float(i) + float(seed));
        for (int k = 0; k < kClasses; k++) b[k] = 0.1f * float(seed - k);
        ggml_backend_tensor_set(w_, w.data(), 0, w.size() * sizeof(float));
        ggml_backend_tensor_set(b_, b.data(), 0, b.size() * sizeof(float));
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    }

    std::vector<float> predict(const std::vector<float> &x) {
        ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr gctx(ggml_init(ip));
        ggml_context *c = gctx.get();
        ggml_tensor *in = ggml_new_tensor_1d(c, GGML_TYPE_F32, kIn);
        ggml_set_input(in);
        ggml_tensor *logits = ggml_add(c, ggml_mul_mat(c, w_, in), b_);
        logits = ggml_mul(c, logits, calib_.inv_temp);
        ggml_tensor *p = ggml_soft_max(c, logits);
        ggml_set_output(p);
        ggml_cgraph *gf = ggml_new_graph(c);
        ggml_build_forward_expand(gf, p);
        ggml_gallocr_alloc_graph(galloc_.get(), gf);
        ggml_backend_tensor_set(in, x.data(), 0, x.size() * sizeof(float));
        ggml_backend_graph_compute(backend_.get(), gf); // expect-warning: ggml-backend-mismatch
        std::vector<float> out(kClasses);
        ggml_backend_tensor_get(p, out.data(), 0, out.size() * sizeof(float));
        return out;
    }

    const char *device_name() const { return ggml_backend_dev_name(dev_); }

private:
    ggml_backend_dev_t dev_;
    const SharedCalibration &calib_;
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr galloc_;
    ggml_tensor *w_ = nullptr, *b_ = nullptr;
};

double entropy(const std::vector<float> &p) {
    double h = 0;
    for (float v : p)
        if (v > 0) h -= double(v) * std::log(double(v));
    return h;
}

// fraction of members whose top class agrees with the ensemble's
double agreement(const std::vector<std::vector<float>> &preds, const std::vector<float> &avg) {
    auto top = [](const std::vector<float> &p) {
        size_t b = 0;
        for (size_t k = 1; k < p.size(); k++)
            if (p[k] > p[b]) b = k;
        return b;
    };
    if (preds.empty()) return 0.0;
    size_t agree = 0;
    for (const auto &p : preds) agree += top(p) == top(avg);
    return double(agree) / double(preds.size());
}

} // namespace ens

int main(int argc, char **argv) {
    bool spread = false;
    int n_members = 2;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--spread")) spread = true;
        else if (!std::strcmp(argv[i], "--members") && i + 1 < argc) n_members = std::atoi(argv[++i]);
    }
    if (n_members < 1 || n_members > 6) n_members = 2;

    ggml_backend_dev_t first = ggml_backend_dev_by_name("CUDA0");
    ggml_backend_dev_t second = spread ? ggml_backend_dev_by_name("CUDA1") : first;
    if (!first || !second) {
        std::fprintf(stderr, "needs CUDA devices\n");
        return 1;
    }

    try {
        ens::SharedCalibration calib(first);
        std::vector<std::unique_ptr<ens::Member>> members;
        for (int m = 0; m < n_members; m++) {
            ggml_backend_dev_t dev = (m % 2 == 0) ? first : second;
            members.push_back(std::make_unique<ens::Member>(dev, m + 1, calib));
        }

        std::vector<float> x(ens::kIn);
        for (int i = 0; i < ens::kIn; i++) x[i] = 0.5f - 0.1f * float(i);
        std::vector<float> avg(ens::kClasses, 0.0f);
        std::vector<std::vector<float>> preds;
        for (auto &m : members) {
            std::vector<float> p = m->predict(x);
            preds.push_back(p);
            std::printf("member on %s: p0=%.4f\n", m->device_name(), p[0]);
            for (int k = 0; k < ens::kClasses; k++) avg[k] += p[k] / float(members.size());
        }
        for (int k = 0; k < ens::kClasses; k++) std::printf("class %d: %.4f\n", k, avg[k]);
        std::printf("entropy %.4f, agreement %.2f\n", ens::entropy(avg), ens::agreement(preds, avg));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
