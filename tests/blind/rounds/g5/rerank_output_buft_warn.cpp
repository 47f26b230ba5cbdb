// provenance: blind round g5
// rerank: scores query/document pairs with a small bilinear model on the GPU. Scores are written
// into a persistent output tensor: pinned host memory normally, device memory with
// --device-output (so a later stage could consume them on the GPU).
// run-args: --device-output --docs 5
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace rr {

constexpr int kDim = 12;

struct Options {
    bool device_output = false;
    int n_docs = 4;
    int top_k = 3;
};

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--device-output") o.device_output = true;
        else if (a == "--docs" && i + 1 < argc) o.n_docs = std::atoi(argv[++i]);
        else if (a == "--top-k" && i + 1 < argc) o.top_k = std::atoi(argv[++i]);
    }
    o.n_docs = std::max(1, std::min(o.n_docs, 64));
    o.top_k = std::max(1, std::min(o.top_k, o.n_docs));
    return o;
}

class Reranker {
public:
    explicit Reranker(const Options &opt) : opt_(opt) {
        dev_ = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
        if (!dev_) throw std::runtime_error("no GPU device");
        backend_.reset(ggml_backend_dev_init(dev_, nullptr));

        ggml_init_params ip = {4 * ggml_tensor_overhead(), nullptr, true};
        wctx_.reset(ggml_init(ip));
        bilinear_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kDim, kDim);
        wbuf_.reset(ggml_backend_alloc_ctx_tensors(wctx_.get(), backend_.get()));
        std::vector<float> w(kDim * kDim);
        for (int i = 0; i < kDim * kDim; i++) w[i] = (i % (kDim + 1) == 0 ? 1.0f : 0.0f) + 0.02f * std::cos(float(i));
        ggml_backend_tensor_set(bilinear_, w.data(), 0, w.size() * sizeof(float));

        octx_.reset(ggml_init(ip));
        scores_ = ggml_new_tensor_2d(octx_.get(), GGML_TYPE_F32, opt_.n_docs, 1);
        ggml_set_name(scores_, "scores");
        ggml_backend_buffer_type_t out_buft = opt_.device_output ? ggml_backend_dev_buffer_type(dev_)
                                                                 : ggml_backend_dev_host_buffer_type(dev_);
        obuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(octx_.get(), out_buft));
        if (!obuf_) throw std::runtime_error("output buffer");
        galloc_.reset(ggml_gallocr_new(ggml_backend_dev_buffer_type(dev_)));
    }

    void score(const std::vector<float> &query, const std::vector<float> &docs) {
        ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_context *c = ctx.get();
        ggml_tensor *q = ggml_new_tensor_2d(c, GGML_TYPE_F32, kDim, 1);
        ggml_tensor *d = ggml_new_tensor_2d(c, GGML_TYPE_F32, kDim, opt_.n_docs);
        ggml_set_input(q);
        ggml_set_input(d);
        ggml_tensor *qw = ggml_mul_mat(c, bilinear_, q);         // [kDim, 1]
        ggml_tensor *s = ggml_mul_mat(c, d, qw);                 // [n_docs, 1]
        s = ggml_sigmoid(c, s);
        ggml_cgraph *gf = ggml_new_graph(c);
        ggml_build_forward_expand(gf, ggml_cpy(c, s, scores_));
        if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) throw std::runtime_error("alloc");
        ggml_backend_tensor_set(q, query.data(), 0, ggml_nbytes(q));
        ggml_backend_tensor_set(d, docs.data(), 0, ggml_nbytes(d));
        ggml_backend_graph_compute(backend_.get(), gf);
    }

    ggml_tensor *scores() const { return scores_; }
    const char *output_location() const { return ggml_backend_buffer_name(obuf_.get()); }

private:
    Options opt_;
    ggml_backend_dev_t dev_ = nullptr;
    ggml_backend_ptr backend_;
    ggml_context_ptr wctx_, octx_;
    ggml_backend_buffer_ptr wbuf_, obuf_;
    ggml_gallocr_ptr galloc_;
    ggml_tensor *bilinear_ = nullptr;
    ggml_tensor *scores_ = nullptr;
};

std::vector<int> top_k(int n, int k, const std::function<float(int)> &get) {
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](int a, int b) { return get(a) > get(b); });
    idx.resize(k);
    return idx;
}

// documents are L2-normalised rows before scoring
void normalise_rows(std::vector<float> &docs, int dim) {
    for (size_t r = 0; r + dim <= docs.size(); r += dim) {
        double ss = 0;
        for (int i = 0; i < dim; i++) ss += double(docs[r + i]) * docs[r + i];
        const float inv = ss > 0 ? float(1.0 / std::sqrt(ss)) : 0.0f;
        for (int i = 0; i < dim; i++) docs[r + i] *= inv;
    }
}

void describe(const Options &o) {
    std::printf("rerank: %d docs, top-%d, output %s\n", o.n_docs, o.top_k,
                o.device_output ? "kept on the device" : "pinned host");
}

} // namespace rr

int main(int argc, char **argv) {
    rr::Options opt = rr::parse(argc, argv);
    try {
        rr::Reranker model(opt);
        std::vector<float> query(rr::kDim), docs(rr::kDim * opt.n_docs);
        for (int i = 0; i < rr::kDim; i++) query[i] = std::sin(0.4f * float(i));
        for (size_t i = 0; i < docs.size(); i++) docs[i] = std::sin(0.4f * float(i % rr::kDim) + 0.3f * float(i / rr::kDim));
        rr::normalise_rows(docs, rr::kDim);
        rr::describe(opt);
        model.score(query, docs);
        std::printf("scores in %s\n", model.output_location());

        ggml_tensor *scores = model.scores();
        auto get = [scores](int i) -> float {
            return ggml_get_f32_1d(scores, i); // expect-warning: ggml-host-access
        };
        for (int d : rr::top_k(opt.n_docs, opt.top_k, get)) {
            std::printf("doc %d: %.4f\n", d, get(d));
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
