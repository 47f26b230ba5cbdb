// provenance: blind round g5
// text_classifier: bag-of-embeddings classifier with a learned position table; graph inputs are
// declared through a small InputSet helper and filled after allocation.
// run-args: --text jumps
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace clf {

constexpr int kVocab = 128;
constexpr int kEmbd = 16;
constexpr int kClasses = 4;
constexpr int kMaxLen = 32;

class InputSet {
public:
    explicit InputSet(ggml_context *ctx) : ctx_(ctx) {}

    ggml_tensor *add(const std::string &name, int64_t n, ggml_type type = GGML_TYPE_F32) {
        ggml_tensor *t = ggml_new_tensor_1d(ctx_, type, n);
        ggml_set_name(t, name.c_str());
        ggml_set_input(t);
        inputs_[name] = t;
        return t;
    }

    template <typename T>
    void set(const std::string &name, const std::vector<T> &v) {
        ggml_tensor *t = inputs_.at(name);
        ggml_backend_tensor_set(t, v.data(), 0, v.size() * sizeof(T));
    }

private:
    ggml_context *ctx_;
    std::map<std::string, ggml_tensor *> inputs_;
};

struct Weights {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *tok_embd = nullptr;
    ggml_tensor *pos_embd = nullptr;
    ggml_tensor *head_w = nullptr;
    ggml_tensor *head_b = nullptr;
};

std::vector<int32_t> tokenize(const std::string &text) {
    std::vector<int32_t> ids;
    std::istringstream is(text);
    std::string w;
    while (is >> w && int(ids.size()) < kMaxLen) {
        uint32_t h = 5381;
        for (char c : w) h = h * 33 + uint8_t(c);
        ids.push_back(int32_t(h % kVocab));
    }
    if (ids.empty()) ids.push_back(0);
    return ids;
}

void load_weights(Weights &w, ggml_backend_t backend) {
    ggml_init_params ip = {4 * ggml_tensor_overhead(), nullptr, true};
    w.ctx.reset(ggml_init(ip));
    w.tok_embd = ggml_new_tensor_2d(w.ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);
    w.pos_embd = ggml_new_tensor_2d(w.ctx.get(), GGML_TYPE_F32, kEmbd, kMaxLen);
    w.head_w = ggml_new_tensor_2d(w.ctx.get(), GGML_TYPE_F32, kEmbd, kClasses);
    w.head_b = ggml_new_tensor_1d(w.ctx.get(), GGML_TYPE_F32, kClasses);
    w.buf.reset(ggml_backend_alloc_ctx_tensors(w.ctx.get(), backend));
    if (!w.buf) throw std::runtime_error("weights");
    auto fill = [](ggml_tensor *t, float f) {
        std::vector<float> v(ggml_nelements(t));
        for (size_t i = 0; i < v.size(); i++) v[i] = 0.25f * std::cos(f * float(i));
        ggml_backend_tensor_set(t, v.data(), 0, v.size() * sizeof(float));
    };
    fill(w.tok_embd, 0.31f);
    fill(w.pos_embd, 0.07f);
    fill(w.head_w, 0.53f);
    fill(w.head_b, 1.1f);
}

std::vector<float> classify(const Weights &w, ggml_backend_t backend, const std::vector<int32_t> &ids) {
    const int n = int(ids.size());
    ggml_init_params ip = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(ip));
    ggml_context *c = ctx.get();
    InputSet in(c);

    ggml_tensor *tokens = in.add("tokens", n);
    ggml_tensor *mean_w = in.add("mean_w", n);
    ggml_tensor *x = ggml_get_rows(c, w.tok_embd, tokens); // expect-error: ggml-type-mismatch
    x = ggml_add(c, x, ggml_view_2d(c, w.pos_embd, kEmbd, n, w.pos_embd->nb[1], 0));
    ggml_tensor *xt = ggml_cont(c, ggml_transpose(c, x));                      // [n, E]
    ggml_tensor *pooled = ggml_mul_mat(c, xt, ggml_reshape_2d(c, mean_w, n, 1)); // [E, 1]
    ggml_tensor *logits = ggml_add(c, ggml_mul_mat(c, w.head_w, pooled), w.head_b);
    ggml_tensor *probs = ggml_soft_max(c, logits);
    ggml_set_output(probs);

    ggml_cgraph *gf = ggml_new_graph(c);
    ggml_build_forward_expand(gf, probs);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    if (!ggml_gallocr_alloc_graph(ga.get(), gf)) throw std::runtime_error("alloc");
    in.set("tokens", ids);
    in.set("mean_w", std::vector<float>(n, 1.0f / float(n)));
    ggml_backend_graph_compute(backend, gf);

    std::vector<float> out(kClasses);
    ggml_backend_tensor_get(probs, out.data(), 0, out.size() * sizeof(float));
    return out;
}

} // namespace clf

int main(int argc, char **argv) {
    std::string text = "hello world";
    bool force_cpu = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--text") && i + 1 < argc) text = argv[++i];
        else if (!std::strcmp(argv[i], "--cpu")) force_cpu = true;
    }
    ggml_backend_ptr backend(force_cpu ? ggml_backend_cpu_init() : ggml_backend_init_best());
    if (!backend) return 1;
    try {
        clf::Weights w;
        clf::load_weights(w, backend.get());
        std::vector<int32_t> ids = clf::tokenize(text);
        std::vector<float> p = clf::classify(w, backend.get(), ids);
        static const char *labels[clf::kClasses] = {"world", "sports", "business", "sci/tech"};
        int best = 0;
        for (int k = 0; k < clf::kClasses; k++) {
            std::printf("%-9s %.4f\n", labels[k], p[k]);
            if (p[k] > p[best]) best = k;
        }
        std::printf("-> %s (%zu tokens on %s)\n", labels[best], ids.size(), ggml_backend_name(backend.get()));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
