// Tokenizer + sentence embedding: a greedy longest-match tokenizer over a small vocabulary,
// token and position embeddings summed on the backend, mean-pooled; the pooled vector is
// copied into a CPU mirror tensor and read there with ggml_get_f32_1d, then checked against
// a host reference. The backend is --device NAME (default: the best one).
// run-args: --device CUDA1 --text the-cat-sat-on-the-mat
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml.h"

namespace {

constexpr int kEmbd = 12;
constexpr int kMaxPos = 32;

class Tokenizer {
  public:
    Tokenizer() {
        const char *pieces[] = {"<unk>", "the", "cat", "sat", "on", "mat", "-", "t", "h", "e", "c", "a", "s", "o", "n", "m", "at", "he"};
        for (const char *p : pieces) add(p);
    }
    int size() const { return (int)vocab_.size(); }
    std::vector<int32_t> encode(const std::string &text) const {
        std::vector<int32_t> out;
        size_t i = 0;
        while (i < text.size()) {
            size_t best_len = 0;
            int best = 0;
            for (size_t len = std::min<size_t>(text.size() - i, 4); len > 0; len--) {
                auto it = vocab_.find(text.substr(i, len));
                if (it != vocab_.end()) {
                    best = it->second;
                    best_len = len;
                    break;
                }
            }
            out.push_back(best);
            i += best_len ? best_len : 1;
        }
        return out;
    }

  private:
    void add(const std::string &s) { vocab_.emplace(s, (int)vocab_.size()); }
    std::unordered_map<std::string, int> vocab_;
};

template <typename T>
void upload(ggml_tensor *t, const std::vector<T> &v) {
    static_assert(std::is_trivially_copyable<T>::value, "plain data only");
    if (v.size() * sizeof(T) != ggml_nbytes(t)) {
        std::fprintf(stderr, "upload: %zu bytes for a %zu-byte tensor\n", v.size() * sizeof(T), ggml_nbytes(t));
        std::exit(1);
    }
    ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
}

float tok_value(size_t i) { return std::sin(0.19f * (float)i); }
float pos_value(size_t i) { return 0.1f * std::cos(0.05f * (float)i); }

} // namespace

int main(int argc, char **argv) {
    const char *dev_name = nullptr;
    std::string text = "the-cat-sat";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--device") == 0) dev_name = argv[i + 1];
        else if (std::strcmp(argv[i], "--text") == 0) text = argv[i + 1];
    }
    ggml_backend_dev_t dev = dev_name ? ggml_backend_dev_by_name(dev_name) : nullptr;
    ggml_backend_ptr backend(dev ? ggml_backend_dev_init(dev, nullptr) : ggml_backend_init_best());

    Tokenizer tok;
    std::vector<int32_t> ids = tok.encode(text);
    if (ids.size() > (size_t)kMaxPos) ids.resize(kMaxPos);
    const int n = (int)ids.size();

    ggml_init_params wp = {ggml_tensor_overhead() * 2, nullptr, true};
    ggml_context_ptr ctx_w(ggml_init(wp));
    ggml_tensor *tok_embd = ggml_new_tensor_2d(ctx_w.get(), GGML_TYPE_F32, kEmbd, tok.size());
    ggml_tensor *pos_embd = ggml_new_tensor_2d(ctx_w.get(), GGML_TYPE_F32, kEmbd, kMaxPos);
    ggml_backend_buffer_ptr buf_w(ggml_backend_alloc_ctx_tensors(ctx_w.get(), backend.get()));
    std::vector<float> tv((size_t)kEmbd * tok.size()), pv((size_t)kEmbd * kMaxPos);
    for (size_t i = 0; i < tv.size(); i++) tv[i] = tok_value(i);
    for (size_t i = 0; i < pv.size(); i++) pv[i] = pos_value(i);
    upload(tok_embd, tv);
    upload(pos_embd, pv);

    // the CPU mirror of the result
    ggml_init_params mp = {ggml_tensor_overhead(), nullptr, true};
    ggml_context_ptr ctx_m(ggml_init(mp));
    ggml_tensor *mirror = ggml_new_tensor_1d(ctx_m.get(), GGML_TYPE_F32, kEmbd);
    ggml_backend_buffer_ptr buf_m(ggml_backend_alloc_ctx_tensors_from_buft(ctx_m.get(), ggml_backend_cpu_buffer_type()));

    ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx(ggml_init(gp));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *inp = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, n);
    ggml_set_input(inp);
    ggml_tensor *pos = ggml_view_2d(ctx.get(), pos_embd, kEmbd, n, pos_embd->nb[1], 0);
    ggml_tensor *h = ggml_add(ctx.get(), ggml_get_rows(ctx.get(), tok_embd, inp), pos);   // [E, n]
    ggml_tensor *pooled = ggml_mean(ctx.get(), ggml_cont(ctx.get(), ggml_transpose(ctx.get(), h))); // [1, E]
    pooled = ggml_reshape_1d(ctx.get(), pooled, kEmbd);
    ggml_set_name(pooled, "pooled");
    ggml_set_output(pooled);
    ggml_build_forward_expand(gf, pooled);
    ggml_gallocr_ptr galloc(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend.get())));
    ggml_gallocr_alloc_graph(galloc.get(), gf);
    upload(inp, ids);
    ggml_backend_graph_compute(backend.get(), gf);

    ggml_backend_tensor_copy(ggml_graph_get_tensor(gf, "pooled"), mirror);
    double max_err = 0.0;
    for (int e = 0; e < kEmbd; e++) {
        double ref = 0.0;
        for (int i = 0; i < n; i++) ref += tok_value((size_t)ids[i] * kEmbd + e) + pos_value((size_t)i * kEmbd + e);
        ref /= n;
        max_err = std::fmax(max_err, std::fabs(ref - ggml_get_f32_1d(mirror, e)));
    }
    std::printf("tokens:");
    for (int32_t id : ids) std::printf(" %d", id);
    std::printf("\nembed: %d tokens on %s, pooled[0] %.5f, max error %.2e\n", n, ggml_backend_name(backend.get()),
                ggml_get_f32_1d(mirror, 0), max_err);
    return max_err < 1e-5 ? 0 : 2;
}
