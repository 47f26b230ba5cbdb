// provenance: blind round g5
// tiny_gpt: a one-block GPT with RAII-managed ggml objects; weights looked up by name in a map,
// device picked from the command line, a throwaway graph per forward pass.
// run-args: -d CUDA1 -p 1,5,9,3
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tg {

struct HParams {
    int n_vocab = 40;
    int n_embd = 16;
    int n_ctx = 16;
};

class Model {
public:
    Model(const std::string &device, const HParams &hp) : hp_(hp) {
        ggml_backend_dev_t dev = device.empty() ? nullptr : ggml_backend_dev_by_name(device.c_str());
        if (dev) {
            backend_.reset(ggml_backend_dev_init(dev, nullptr));
        } else {
            backend_.reset(ggml_backend_init_best());
        }
        if (!backend_) throw std::runtime_error("no backend");

        ggml_init_params ip = {16 * ggml_tensor_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        add("wte", ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd, hp_.n_vocab));
        add("wpe", ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd, hp_.n_ctx));
        add("ln_1.g", ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd));
        add("ln_1.b", ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd));
        add("attn.c_attn.w", ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd, 3 * hp_.n_embd));
        add("attn.c_proj.w", ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd, hp_.n_embd));
        add("mlp.fc.w", ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd, 4 * hp_.n_embd));
        add("mlp.proj.w", ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, 4 * hp_.n_embd, hp_.n_embd));
        add("ln_f.g", ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd));
        add("ln_f.b", ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, hp_.n_embd));

        buffer_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        if (!buffer_) throw std::runtime_error("weight allocation failed");
        ggml_backend_buffer_set_usage(buffer_.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
        init_weights();
    }

    ggml_tensor *get(const std::string &name) const {
        auto it = tensors_.find(name);
        if (it == tensors_.end()) throw std::out_of_range("no tensor " + name);
        return it->second;
    }

    ggml_backend_t backend() const { return backend_.get(); }
    const HParams &hparams() const { return hp_; }

private:
    void add(const std::string &name, ggml_tensor *t) {
        ggml_set_name(t, name.c_str());
        tensors_[name] = t;
    }

    void init_weights() {
        int salt = 0;
        for (auto &kv : tensors_) {
            ggml_tensor *t = kv.second;
            std::vector<float> data(ggml_nelements(t));
            const bool is_gain = kv.first.size() > 2 && kv.first.compare(kv.first.size() - 2, 2, ".g") == 0;
            for (size_t i = 0; i < data.size(); i++) {
                data[i] = is_gain ? 1.0f : 0.08f * std::sin(0.3f * float(i) + float(salt));
            }
            ggml_backend_tensor_set(t, data.data(), 0, data.size() * sizeof(float));
            salt++;
        }
    }

    HParams hp_;
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buffer_;
    std::map<std::string, ggml_tensor *> tensors_;
};

class Runner {
public:
    explicit Runner(Model &model) : model_(model) {
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(model_.backend())));
    }

    std::vector<float> forward(const std::vector<int32_t> &tokens) {
        const HParams &hp = model_.hparams();
        const int n = int(tokens.size());
        ggml_init_params ip = {ggml_tensor_overhead() * 256 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_context *c = ctx.get();

        ggml_tensor *inp = ggml_new_tensor_1d(c, GGML_TYPE_I32, n);
        ggml_tensor *pos = ggml_new_tensor_1d(c, GGML_TYPE_I32, n);
        ggml_set_input(inp);
        ggml_set_input(pos);

        auto norm = [&](ggml_tensor *x, const char *prefix) {
            std::string p(prefix);
            x = ggml_norm(c, x, 1e-5f);
            return ggml_add(c, ggml_mul(c, x, model_.get(p + ".g")), model_.get(p + ".b"));
        };

        ggml_tensor *x = ggml_add(c, ggml_get_rows(c, model_.get("wte"), inp), ggml_get_rows(c, model_.get("wpe"), pos));
        ggml_tensor *h = norm(x, "ln_1");
        ggml_tensor *qkv = ggml_mul_mat(c, model_.get("attn.c_attn.w"), h); // [3E, n]
        const size_t es = ggml_element_size(qkv);
        ggml_tensor *q = ggml_view_2d(c, qkv, hp.n_embd, n, qkv->nb[1], 0);
        ggml_tensor *k = ggml_view_2d(c, qkv, hp.n_embd, n, qkv->nb[1], es * hp.n_embd);
        ggml_tensor *v = ggml_view_2d(c, qkv, hp.n_embd, n, qkv->nb[1], es * 2 * hp.n_embd);
        ggml_tensor *kq = ggml_mul_mat(c, ggml_cont(c, k), ggml_cont(c, q)); // [n(k), n(q)]
        kq = ggml_soft_max(c, ggml_diag_mask_inf(c, ggml_scale(c, kq, 1.0f / std::sqrt(float(hp.n_embd))), 0));
        ggml_tensor *vt = ggml_cont(c, ggml_transpose(c, ggml_cont(c, v))); // [n, E]
        ggml_tensor *att = ggml_mul_mat(c, vt, kq); // [E, n]
        x = ggml_add(c, x, ggml_mul_mat(c, model_.get("attn.c_proj.w"), att));
        ggml_tensor *m = ggml_gelu(c, ggml_mul_mat(c, model_.get("mlp.fc.w"), x));
        x = ggml_add(c, x, ggml_mul_mat(c, model_.get("mlp.proj.w"), m));
        x = norm(x, "ln_f");
        ggml_tensor *logits = ggml_mul_mat(c, model_.get("wte"), x); // [V, n]
        ggml_set_name(logits, "logits");
        ggml_set_output(logits);

        ggml_cgraph *gf = ggml_new_graph(c);
        ggml_build_forward_expand(gf, logits);
        if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) throw std::runtime_error("alloc_graph");

        std::vector<int32_t> positions(n);
        for (int i = 0; i < n; i++) positions[i] = i;
        ggml_backend_tensor_set(inp, tokens.data(), 0, n * sizeof(int32_t));
        ggml_backend_tensor_set(pos, positions.data(), 0, n * sizeof(int32_t));
        if (ggml_backend_graph_compute(model_.backend(), gf) != GGML_STATUS_SUCCESS)
            throw std::runtime_error("compute");

        // only the last position's logits
        std::vector<float> last(hp.n_vocab);
        ggml_tensor *out = ggml_graph_get_tensor(gf, "logits");
        ggml_backend_tensor_get(out, last.data(), (n - 1) * out->nb[1], last.size() * sizeof(float));
        return last;
    }

private:
    Model &model_;
    ggml_gallocr_ptr galloc_;
};

std::vector<int32_t> parse_prompt(const std::string &s, int n_vocab) {
    std::vector<int32_t> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        int v = std::atoi(item.c_str());
        out.push_back(((v % n_vocab) + n_vocab) % n_vocab);
    }
    if (out.empty()) out.push_back(0);
    return out;
}

} // namespace tg

int main(int argc, char **argv) {
    std::string device, prompt = "1,2,3";
    int n_gen = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "-d") device = argv[i + 1];
        else if (a == "-p") prompt = argv[i + 1];
        else if (a == "-n") n_gen = std::atoi(argv[i + 1]);
    }
    if (n_gen < 0 || n_gen > 8) n_gen = 3;

    try {
        tg::HParams hp;
        tg::Model model(device, hp);
        tg::Runner runner(model);
        std::vector<int32_t> toks = tg::parse_prompt(prompt, hp.n_vocab);
        if (int(toks.size()) + n_gen > hp.n_ctx) toks.resize(hp.n_ctx - n_gen);
        std::printf("backend: %s\n", ggml_backend_name(model.backend()));
        for (int g = 0; g < n_gen; g++) {
            std::vector<float> logits = runner.forward(toks);
            int best = 0;
            for (int i = 1; i < hp.n_vocab; i++)
                if (logits[i] > logits[best]) best = i;
            toks.push_back(best);
            std::printf("generated %d (logit %.4f)\n", best, logits[best]);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
