// Control vectors (llama.cpp's --control-vector): per-layer direction vectors, scaled by a
// strength, are added to the residual stream of the layers in [layer_start, layer_end]. The
// runner keeps the last graph and reuses it while the batch shape stays the same (prompt of
// n tokens first, then one token per step), rebuilding it when the shape changes.
// run-args: --strength 0.8 --n-gen 4
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cuda.h"
#include "ggml.h"

namespace {

constexpr int kVocab = 32;
constexpr int kEmbd = 16;
constexpr int kLayers = 4;

struct ModelParams {
    int main_gpu = 0;
    int layer_start = 1;
    int layer_end = 3;
    float strength = 1.0f;
};

template <typename F>
void upload_generated(ggml_tensor *t, F gen) {
    std::vector<float> v(ggml_nelements(t));
    for (size_t i = 0; i < v.size(); i++) v[i] = gen(i);
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

class ControlVector {
  public:
    void load(ggml_backend_t backend, const std::map<int, std::vector<float>> &dirs, float strength) {
        ggml_init_params ip = {ggml_tensor_overhead() * kLayers, nullptr, true};
        ctx_.reset(ggml_init(ip));
        for (const auto &kv : dirs) layer_[kv.first] = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, kEmbd);
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
        for (const auto &kv : dirs) {
            std::vector<float> scaled(kv.second);
            for (float &x : scaled) x *= strength;
            ggml_backend_tensor_set(layer_[kv.first], scaled.data(), 0, scaled.size() * sizeof(float));
        }
    }
    ggml_tensor *apply(ggml_context *ctx, ggml_tensor *cur, int il) const {
        auto it = layer_.find(il);
        return it == layer_.end() ? cur : ggml_add(ctx, cur, it->second);
    }

  private:
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::map<int, ggml_tensor *> layer_;
};

struct Model {
    ggml_backend_ptr backend;
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor *tok_embd = nullptr, *output = nullptr;
    std::vector<ggml_tensor *> ffn;
};

class Runner {
  public:
    Runner(Model &m, const ControlVector &cv) : m_(m), cv_(cv) {
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.backend.get())));
    }

    std::vector<float> eval(const std::vector<int32_t> &tokens) {
        const int n = (int)tokens.size();
        if (!gf_ || n != n_tokens_) {
            const bool first = gf_ == nullptr;
            build(n);
            if (first && !ggml_gallocr_alloc_graph(galloc_.get(), gf_)) std::exit(1);
        }
        set_inputs(tokens);
        ggml_backend_graph_compute(m_.backend.get(), gf_);
        ggml_tensor *logits = ggml_graph_get_tensor(gf_, "result_output");
        std::vector<float> last(kVocab);
        ggml_backend_tensor_get(logits, last.data(), (size_t)(n - 1) * logits->nb[1], kVocab * sizeof(float));
        return last;
    }

  private:
    void build(int n) {
        ggml_init_params ip = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        gf_ = ggml_new_graph(ctx_.get());
        ggml_tensor *inp = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_I32, n);
        ggml_set_name(inp, "inp_tokens");
        ggml_set_input(inp);
        ggml_tensor *cur = ggml_get_rows(ctx_.get(), m_.tok_embd, inp);
        for (int il = 0; il < kLayers; il++) {
            cur = ggml_add(ctx_.get(), cur, ggml_gelu(ctx_.get(), ggml_mul_mat(ctx_.get(), m_.ffn[il], cur)));
            cur = cv_.apply(ctx_.get(), cur, il);
        }
        cur = ggml_mul_mat(ctx_.get(), m_.output, ggml_rms_norm(ctx_.get(), cur, 1e-5f));
        ggml_set_name(cur, "result_output");
        ggml_set_output(cur);
        ggml_build_forward_expand(gf_, cur);
        n_tokens_ = n;
    }

    void set_inputs(const std::vector<int32_t> &tokens) {
        ggml_tensor *inp = ggml_graph_get_tensor(gf_, "inp_tokens");
        ggml_backend_tensor_set(inp, tokens.data(), 0, tokens.size() * sizeof(int32_t)); // expect-error: ggml-buffer-not-set
    }

    Model &m_;
    const ControlVector &cv_;
    ggml_gallocr_ptr galloc_;
    ggml_context_ptr ctx_;
    ggml_cgraph *gf_ = nullptr;
    int n_tokens_ = 0;
};

std::map<int, std::vector<float>> read_control_vector(const ModelParams &p) {
    std::map<int, std::vector<float>> dirs;
    for (int il = p.layer_start; il <= p.layer_end && il < kLayers; il++) {
        std::vector<float> d(kEmbd);
        for (int i = 0; i < kEmbd; i++) d[i] = std::sin(0.5f * (float)(i + 1) * (float)(il + 1));
        dirs[il] = std::move(d);
    }
    return dirs;
}

} // namespace

int main(int argc, char **argv) {
    ModelParams p;
    int n_gen = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--strength") p.strength = (float)std::atof(argv[i + 1]);
        else if (a == "--n-gen") n_gen = std::atoi(argv[i + 1]);
        else if (a == "--main-gpu") p.main_gpu = std::atoi(argv[i + 1]);
    }
    Model m;
    m.backend.reset(ggml_backend_cuda_init(p.main_gpu));
    if (!m.backend) return 1;
    ggml_init_params ip = {ggml_tensor_overhead() * (2 + kLayers), nullptr, true};
    m.ctx.reset(ggml_init(ip));
    m.tok_embd = ggml_new_tensor_2d(m.ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);
    m.output = ggml_new_tensor_2d(m.ctx.get(), GGML_TYPE_F32, kEmbd, kVocab);
    for (int il = 0; il < kLayers; il++) m.ffn.push_back(ggml_new_tensor_2d(m.ctx.get(), GGML_TYPE_F32, kEmbd, kEmbd));
    m.buf.reset(ggml_backend_alloc_ctx_tensors(m.ctx.get(), m.backend.get()));
    upload_generated(m.tok_embd, [](size_t i) { return std::sin(0.3f * (float)i); });
    upload_generated(m.output, [](size_t i) { return 0.5f * std::cos(0.07f * (float)i); });
    for (int il = 0; il < kLayers; il++)
        upload_generated(m.ffn[il], [il](size_t i) { return 0.2f * std::sin(0.11f * (float)(i + 13 * il)); });

    ControlVector cv;
    cv.load(m.backend.get(), read_control_vector(p), p.strength);
    Runner runner(m, cv);

    std::vector<int32_t> prompt = {3, 14, 15, 9, 2};
    std::vector<float> logits = runner.eval(prompt);
    std::printf("cvec: layers %d..%d, strength %.2f\n", p.layer_start, p.layer_end, p.strength);
    for (int s = 0; s < n_gen; s++) {
        int best = 0;
        for (int t = 1; t < kVocab; t++)
            if (logits[t] > logits[best]) best = t;
        std::printf("cvec: step %d -> token %d\n", s, best);
        logits = runner.eval({best});
    }
    return 0;
}
