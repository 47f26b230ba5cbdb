// provenance: blind round g6
// run-args: 2
// llava-style CLIP vision tower + multimodal projector. The vision tower runs on the GPU; the
// projector was moved to "a small CPU graph" for a debug print, but its weights still live in
// the model's GPU buffer.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

struct clip_hparams {
    int patch_dim = 48;   // 4x4x3 patches
    int n_patches = 9;
    int hidden = 32;
    int proj_dim = 24;
};

class ClipModel {
public:
    ClipModel(const clip_hparams &hp, ggml_backend_t backend) : hp_(hp) {
        ggml_init_params ip = {ggml_tensor_overhead() * 8, nullptr, true};
        ctx_.reset(ggml_init(ip));
        tensor("v.patch_embd.weight", hp.patch_dim, hp.hidden);
        tensor("v.position_embd", hp.hidden, hp.n_patches);
        tensor("v.post_ln.weight", hp.hidden, 1);
        tensor("mm.0.weight", hp.hidden, hp.proj_dim);
        tensor("mm.0.bias", hp.proj_dim, 1);
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
        for (auto &it : by_name_) {
            std::vector<float> host((size_t)ggml_nelements(it.second));
            float k = (float)(it.first.size() % 7 + 1);
            for (size_t i = 0; i < host.size(); i++) host[i] = 0.02f * std::cos(k * (float)i);
            ggml_backend_tensor_set(it.second, host.data(), 0, ggml_nbytes(it.second));
        }
    }
    ggml_tensor *get(const std::string &n) const { return by_name_.at(n); }
    const clip_hparams &hp() const { return hp_; }

private:
    void tensor(const char *name, int64_t ne0, int64_t ne1) {
        ggml_tensor *t = ne1 > 1 ? ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, ne0, ne1)
                                 : ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, ne0);
        ggml_set_name(t, name);
        by_name_.emplace(name, t);
    }
    clip_hparams hp_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::unordered_map<std::string, ggml_tensor *> by_name_;
};

// Runs one graph with its own gallocr on the given backend and returns the named output.
using GraphBuilder = std::function<ggml_tensor *(ggml_context *, ggml_cgraph *)>;

static std::vector<float> run_graph(ggml_backend_t backend, const GraphBuilder &build, const std::vector<float> &input) {
    ggml_init_params gp = {ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(gp));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *out = build(ctx.get(), gf);
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend)));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    ggml_tensor *in = ggml_graph_get_tensor(gf, "input");
    ggml_backend_tensor_set(in, input.data(), 0, ggml_nbytes(in));
    ggml_backend_graph_compute(backend, gf); // expect-error: ggml-backend-mismatch
    std::vector<float> res((size_t)ggml_nelements(out));
    ggml_backend_tensor_get(out, res.data(), 0, ggml_nbytes(out));
    return res;
}

// Synthetic RGB image -> flattened 4x4 patches (what clip_image_preprocess would produce).
static std::vector<float> make_patches(const clip_hparams &hp, int img) {
    const int side = 12, patch = 4, per_row = side / patch;
    std::vector<float> rgb((size_t)side * side * 3);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++)
            for (int c = 0; c < 3; c++)
                rgb[((size_t)y * side + x) * 3 + c] = (float)((x * 7 + y * 3 + c * 11 + img * 13) % 255) / 255.0f;
    std::vector<float> patches((size_t)hp.patch_dim * hp.n_patches);
    for (int p = 0; p < hp.n_patches; p++) {
        int py = p / per_row, px = p % per_row, k = 0;
        for (int y = 0; y < patch; y++)
            for (int x = 0; x < patch; x++)
                for (int c = 0; c < 3; c++)
                    patches[(size_t)p * hp.patch_dim + k++] = rgb[((size_t)(py * patch + y) * side + (px * patch + x)) * 3 + c];
    }
    return patches;
}

static void normalize_inplace(std::vector<float> &v) {
    const float mean = 0.48f, std_ = 0.27f;
    for (float &x : v) x = (x - mean) / std_;
}

static void print_model(const ClipModel &m) {
    const clip_hparams &hp = m.hp();
    std::printf("clip: %d patches of %d values, hidden %d, projection %d\n", hp.n_patches, hp.patch_dim, hp.hidden, hp.proj_dim);
    for (const char *n : {"v.patch_embd.weight", "mm.0.weight"}) {
        ggml_tensor *t = m.get(n);
        std::printf("  %-20s %lld x %lld in %s\n", n, (long long)t->ne[0], (long long)t->ne[1], ggml_backend_buffer_name(t->buffer));
    }
}

int main(int argc, char **argv) {
    int n_images = argc > 1 ? std::atoi(argv[1]) : 1;
    if (n_images < 1 || n_images > 8) n_images = 1;
    clip_hparams hp;
    ggml_backend_ptr gpu(ggml_backend_cuda_init(0));
    ggml_backend_ptr cpu(ggml_backend_cpu_init());
    if (!gpu || !cpu) return 1;
    ClipModel model(hp, gpu.get());
    print_model(model);

    for (int img = 0; img < n_images; img++) {
        std::vector<float> patches = make_patches(hp, img);
        normalize_inplace(patches);

        auto vision = [&](ggml_context *ctx, ggml_cgraph *gf) {
            ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, hp.patch_dim, hp.n_patches);
            ggml_set_name(x, "input");
            ggml_set_input(x);
            ggml_tensor *h = ggml_mul_mat(ctx, model.get("v.patch_embd.weight"), x);
            h = ggml_add(ctx, h, model.get("v.position_embd"));
            h = ggml_mul(ctx, ggml_norm(ctx, h, 1e-6f), model.get("v.post_ln.weight"));
            ggml_set_output(h);
            ggml_build_forward_expand(gf, h);
            return h;
        };
        std::vector<float> feats = run_graph(gpu.get(), vision, patches);

        auto projector = [&](ggml_context *ctx, ggml_cgraph *gf) {
            ggml_tensor *x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, hp.hidden, hp.n_patches);
            ggml_set_name(x, "input");
            ggml_set_input(x);
            ggml_tensor *h = ggml_add(ctx, ggml_mul_mat(ctx, model.get("mm.0.weight"), x), model.get("mm.0.bias"));
            h = ggml_gelu(ctx, h);
            ggml_set_output(h);
            ggml_build_forward_expand(gf, h);
            return h;
        };
        std::vector<float> emb = run_graph(cpu.get(), projector, feats);
        double norm = 0;
        for (float v : emb) norm += (double)v * v;
        std::printf("image %d: %zu embedding values, |e| = %.5f\n", img, emb.size(), std::sqrt(norm));
    }
    return 0;
}
