// run-args: --device CUDA1 --text hello-ggml-world
//
// Character-level GRU classifier run as a stream: the hidden state is a persistent tensor in
// the model's buffer, updated in place by every step's graph (ggml_cpy into it). Everything
// lives on the device named by --device (default: the best one); ggml-cpp.h smart pointers.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kVocab = 64;
constexpr int kEmbd = 16;
constexpr int kHidden = 24;
constexpr int kClasses = 3;

ggml_backend_ptr open_device(const std::string &name) {
    if (name.empty() || name == "best") return ggml_backend_ptr(ggml_backend_init_best());
    ggml_backend_dev_t dev = ggml_backend_dev_by_name(name.c_str());
    if (!dev) throw std::runtime_error("unknown device " + name);
    return ggml_backend_ptr(ggml_backend_dev_init(dev, nullptr));
}

class GruModel {
public:
    explicit GruModel(ggml_backend_t backend) : backend_(backend) {
        ggml_init_params ip = { ggml_tensor_overhead() * 16, nullptr, true };
        ctx_.reset(ggml_init(ip));
        auto add = [this](const char *name, int64_t ne0, int64_t ne1) {
            ggml_tensor *t = ne1 > 0 ? ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, ne0, ne1)
                                     : ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, ne0);
            ggml_set_name(t, name);
            tensors_[name] = t;
            return t;
        };
        add("embd", kEmbd, kVocab);
        for (const char *g : { "z", "r", "n" }) {
            add((std::string("W") + g).c_str(), kEmbd, kHidden);
            add((std::string("U") + g).c_str(), kHidden, kHidden);
            add((std::string("b") + g).c_str(), kHidden, 0);
        }
        add("out", kHidden, kClasses);
        add("h", kHidden, 0); // recurrent state
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_));
        if (!buf_) throw std::runtime_error("cannot allocate the GRU");
        init_weights();
        reset_state();
    }

    ggml_tensor *get(const std::string &name) const { return tensors_.at(name); }
    ggml_backend_t backend() const { return backend_; }

    void reset_state() { ggml_backend_tensor_memset(get("h"), 0, 0, ggml_nbytes(get("h"))); }

    template <typename F> void for_each_weight(F &&f) const {
        for (const auto &kv : tensors_) {
            if (kv.first != "h") f(kv.first, kv.second);
        }
    }

private:
    void init_weights() {
        unsigned seed = 7;
        for_each_weight([&seed](const std::string &, ggml_tensor *t) {
            std::vector<float> v(ggml_nelements(t));
            for (auto &x : v) {
                seed = seed * 1103515245u + 12345u;
                x = 0.4f * ((float) ((seed >> 10) & 1023) / 1023.0f - 0.5f);
            }
            ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
        });
    }

    ggml_backend_t backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::map<std::string, ggml_tensor *> tensors_;
};

class GruStream {
public:
    explicit GruStream(GruModel &m) : m_(m), alloc_(ggml_gallocr_new(ggml_backend_get_default_buffer_type(m.backend()))) {}

    void push(int token) {
        ggml_init_params ip = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true };
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *tok = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, 1);
        ggml_set_input(tok);

        ggml_tensor *x = ggml_get_rows(ctx.get(), m_.get("embd"), tok);
        ggml_tensor *h = m_.get("h");
        auto gate = [&](const char *g) {
            ggml_tensor *a = ggml_mul_mat(ctx.get(), m_.get(std::string("W") + g), x);
            return ggml_add(ctx.get(), a, m_.get(std::string("b") + g));
        };
        ggml_tensor *uh_z = ggml_mul_mat(ctx.get(), m_.get("Uz"), h);
        ggml_tensor *uh_r = ggml_mul_mat(ctx.get(), m_.get("Ur"), h);
        ggml_tensor *uh_n = ggml_mul_mat(ctx.get(), m_.get("Un"), h);
        ggml_tensor *z = ggml_sigmoid(ctx.get(), ggml_add(ctx.get(), gate("z"), uh_z));
        ggml_tensor *r = ggml_sigmoid(ctx.get(), ggml_add(ctx.get(), gate("r"), uh_r));
        ggml_tensor *n = ggml_tanh(ctx.get(), ggml_add(ctx.get(), gate("n"), ggml_mul(ctx.get(), r, uh_n)));
        ggml_tensor *h_new = ggml_add(ctx.get(), n, ggml_mul(ctx.get(), z, ggml_sub(ctx.get(), ggml_reshape_2d(ctx.get(), h, kHidden, 1), n)));
        ggml_build_forward_expand(gf, ggml_cpy(ctx.get(), h_new, h));

        if (!ggml_gallocr_alloc_graph(alloc_.get(), gf)) throw std::runtime_error("alloc failed");
        int32_t id = token;
        ggml_backend_tensor_set(tok, &id, 0, sizeof id);
        if (ggml_backend_graph_compute(m_.backend(), gf) != GGML_STATUS_SUCCESS) throw std::runtime_error("compute failed");
        ++steps_;
    }

    std::vector<float> classify() {
        ggml_init_params ip = { ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true };
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *probs = ggml_soft_max(ctx.get(), ggml_mul_mat(ctx.get(), m_.get("out"), m_.get("h")));
        ggml_build_forward_expand(gf, probs);
        if (!ggml_gallocr_alloc_graph(alloc_.get(), gf)) throw std::runtime_error("alloc failed");
        ggml_backend_graph_compute(m_.backend(), gf);
        std::vector<float> p(kClasses);
        ggml_backend_tensor_get(probs, p.data(), 0, p.size() * sizeof(float));
        return p;
    }

    int steps() const { return steps_; }

private:
    GruModel &m_;
    ggml_gallocr_ptr alloc_;
    int steps_ = 0;
};

} // namespace

int main(int argc, char **argv) {
    std::string device, text = "ggml";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--device")) device = argv[i + 1];
        else if (!std::strcmp(argv[i], "--text")) text = argv[i + 1];
    }
    try {
        ggml_backend_ptr backend = open_device(device);
        GruModel model(backend.get());
        GruStream stream(model);
        for (char c : text) stream.push((unsigned char) c % kVocab);
        std::vector<float> p = stream.classify();
        std::printf("%s: %d steps on %s ->", text.c_str(), stream.steps(), ggml_backend_name(backend.get()));
        for (float v : p) std::printf(" %.4f", v);
        std::printf("\n");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
