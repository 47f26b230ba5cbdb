// run-args: --patches 6 --prompt 3
//
// LLaVA-style multimodal prefill: the vision tower and projector run on CUDA1, the language
// model on CUDA0. The projected image embeddings (a node of the vision graph, in CUDA1's
// compute buffer) are spliced straight into the text model's graph.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

namespace mm {

constexpr int kPatchDim = 48;
constexpr int kVisionDim = 32;
constexpr int kTextDim = 24;
constexpr int kVocab = 40;

static void fill(ggml_tensor *t, float amp, float freq) {
    std::vector<float> v(ggml_nelements(t));
    for (size_t i = 0; i < v.size(); i++) v[i] = amp * std::sin(freq * (float) i);
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

struct Device {
    ggml_backend_dev_t dev = nullptr;
    ggml_backend_ptr backend;
    explicit Device(const char *name) {
        dev = ggml_backend_dev_by_name(name);
        if (!dev) throw std::runtime_error(std::string("missing device ") + name);
        backend.reset(ggml_backend_dev_init(dev, nullptr));
    }
    ggml_backend_buffer_type_t buft() const { return ggml_backend_dev_buffer_type(dev); }
};

class VisionTower {
public:
    explicit VisionTower(Device &d) : d_(d) {
        ggml_init_params ip = { 8 * ggml_tensor_overhead(), nullptr, true };
        wctx_.reset(ggml_init(ip));
        patch_embd_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kPatchDim, kVisionDim);
        mm_0_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kVisionDim, kTextDim);
        mm_2_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kTextDim, kTextDim);
        wbuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(wctx_.get(), d_.buft()));
        fill(patch_embd_, 0.2f, 0.7f);
        fill(mm_0_, 0.3f, 0.3f);
        fill(mm_2_, 0.3f, 0.9f);
        alloc_.reset(ggml_gallocr_new(d_.buft()));
    }

    // returns the projected embeddings [kTextDim, n_patches]
    ggml_tensor *encode(const std::vector<float> &patches, int n_patches) {
        ggml_init_params ip = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true };
        gctx_.reset(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(gctx_.get());
        ggml_tensor *inp = ggml_new_tensor_2d(gctx_.get(), GGML_TYPE_F32, kPatchDim, n_patches);
        ggml_set_input(inp);
        ggml_tensor *x = ggml_gelu(gctx_.get(), ggml_mul_mat(gctx_.get(), patch_embd_, inp));
        x = ggml_mul_mat(gctx_.get(), mm_0_, x);
        x = ggml_mul_mat(gctx_.get(), mm_2_, ggml_gelu(gctx_.get(), x));
        ggml_set_name(x, "image_embd");
        ggml_set_output(x);
        ggml_build_forward_expand(gf, x);
        if (!ggml_gallocr_alloc_graph(alloc_.get(), gf)) throw std::runtime_error("vision alloc");
        ggml_backend_tensor_set(inp, patches.data(), 0, ggml_nbytes(inp));
        if (ggml_backend_graph_compute(d_.backend.get(), gf) != GGML_STATUS_SUCCESS) throw std::runtime_error("vision compute");
        return x;
    }

private:
    Device &d_;
    ggml_context_ptr wctx_, gctx_;
    ggml_backend_buffer_ptr wbuf_;
    ggml_gallocr_ptr alloc_;
    ggml_tensor *patch_embd_ = nullptr, *mm_0_ = nullptr, *mm_2_ = nullptr;
};

class TextModel {
public:
    explicit TextModel(Device &d) : d_(d) {
        ggml_init_params ip = { 4 * ggml_tensor_overhead(), nullptr, true };
        wctx_.reset(ggml_init(ip));
        tok_embd_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kTextDim, kVocab);
        ffn_ = ggml_new_tensor_2d(wctx_.get(), GGML_TYPE_F32, kTextDim, kTextDim);
        norm_ = ggml_new_tensor_1d(wctx_.get(), GGML_TYPE_F32, kTextDim);
        wbuf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(wctx_.get(), d_.buft()));
        fill(tok_embd_, 0.5f, 0.13f);
        fill(ffn_, 0.2f, 0.41f);
        fill(norm_, 1.0f, 0.0f);
        alloc_.reset(ggml_gallocr_new(d_.buft()));
    }

    std::vector<float> prefill(ggml_tensor *image_embd, const std::vector<int32_t> &prompt) {
        ggml_init_params ip = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true };
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *tok = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, (int64_t) prompt.size());
        ggml_set_input(tok);
        ggml_tensor *txt = ggml_get_rows(ctx.get(), tok_embd_, tok);
        ggml_tensor *x = ggml_concat(ctx.get(), image_embd, txt, 1); // [kTextDim, n_patches + n_prompt]
        x = ggml_add(ctx.get(), x, ggml_mul_mat(ctx.get(), ffn_, ggml_mul(ctx.get(), ggml_rms_norm(ctx.get(), x, 1e-6f), norm_)));
        ggml_tensor *last = ggml_view_1d(ctx.get(), x, kTextDim, (x->ne[1] - 1) * x->nb[1]);
        ggml_tensor *logits = ggml_mul_mat(ctx.get(), tok_embd_, last);
        ggml_set_output(logits);
        ggml_build_forward_expand(gf, logits);
        if (!ggml_gallocr_alloc_graph(alloc_.get(), gf)) throw std::runtime_error("text alloc");
        ggml_backend_tensor_set(tok, prompt.data(), 0, ggml_nbytes(tok));
        run(gf);
        std::vector<float> out(kVocab);
        ggml_backend_tensor_get(logits, out.data(), 0, ggml_nbytes(logits));
        return out;
    }

private:
    void run(ggml_cgraph *gf) {
        enum ggml_status st = ggml_backend_graph_compute(d_.backend.get(), gf); // expect-error: ggml-backend-mismatch
        if (st != GGML_STATUS_SUCCESS) throw std::runtime_error("text compute");
    }

    Device &d_;
    ggml_context_ptr wctx_;
    ggml_backend_buffer_ptr wbuf_;
    ggml_gallocr_ptr alloc_;
    ggml_tensor *tok_embd_ = nullptr, *ffn_ = nullptr, *norm_ = nullptr;
};

} // namespace mm

int main(int argc, char **argv) {
    int n_patches = 4, n_prompt = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--patches")) n_patches = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--prompt")) n_prompt = std::atoi(argv[i + 1]);
    }
    if (n_patches < 1) n_patches = 1;
    if (n_prompt < 1) n_prompt = 1;

    try {
        mm::Device text_dev("CUDA0");
        mm::Device vision_dev("CUDA1");
        auto vision = std::make_unique<mm::VisionTower>(vision_dev);
        auto text = std::make_unique<mm::TextModel>(text_dev);

        std::vector<float> patches((size_t) mm::kPatchDim * n_patches);
        for (size_t i = 0; i < patches.size(); i++) patches[i] = (float) ((i * 31) % 17) / 17.0f;
        std::vector<int32_t> prompt(n_prompt);
        for (int i = 0; i < n_prompt; i++) prompt[i] = (7 * i + 3) % mm::kVocab;

        ggml_tensor *img = vision->encode(patches, n_patches);
        std::vector<float> logits = text->prefill(img, prompt);
        int best = 0;
        for (int i = 1; i < mm::kVocab; i++) if (logits[i] > logits[best]) best = i;
        std::printf("next token %d (%.4f)\n", best, logits[best]);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
