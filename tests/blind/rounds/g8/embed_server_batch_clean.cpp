// Embedding server: queued requests are packed into batches of at most n_batch tokens; one
// graph per batch embeds the tokens, projects them, mean-pools each sequence (with a pooling
// matrix input, as llama.cpp's inp_mean) and L2-normalizes. The weights live on the GPU and
// the graph runs through a scheduler over the GPU and the CPU.
// run-args: --n-batch 10 --requests 5
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml.h"

namespace {

constexpr int kVocab = 64;
constexpr int kEmbd = 24;
constexpr int kOut = 16;

struct Request {
    int id;
    std::vector<int32_t> tokens;
};

struct Result {
    int id;
    std::vector<float> embedding;
};

class EmbeddingServer {
  public:
    explicit EmbeddingServer(int n_batch) : n_batch_(n_batch) {
        ggml_backend_dev_t gpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
        backend_cpu_.reset(ggml_backend_cpu_init());
        backend_main_.reset(gpu ? ggml_backend_dev_init(gpu, nullptr) : ggml_backend_cpu_init());
        ggml_init_params ip = {ggml_tensor_overhead() * 2, nullptr, true};
        ctx_w_.reset(ggml_init(ip));
        tok_embd_ = ggml_new_tensor_2d(ctx_w_.get(), GGML_TYPE_F32, kEmbd, kVocab);
        proj_ = ggml_new_tensor_2d(ctx_w_.get(), GGML_TYPE_F32, kEmbd, kOut);
        buf_w_.reset(ggml_backend_alloc_ctx_tensors(ctx_w_.get(), backend_main_.get()));
        upload(tok_embd_, 0.9f, 0.13f);
        upload(proj_, 0.4f, 0.07f);
        ggml_backend_t backends[2] = {backend_main_.get(), backend_cpu_.get()};
        sched_.reset(ggml_backend_sched_new(backends, nullptr, 2, GGML_DEFAULT_GRAPH_SIZE, false, true));
    }

    void submit(Request r) { queue_.push_back(std::move(r)); }

    std::vector<Result> drain() {
        std::vector<Result> out;
        while (!queue_.empty()) {
            std::vector<Request> batch;
            int n_tok = 0;
            while (!queue_.empty() && (batch.empty() || n_tok + (int)queue_.front().tokens.size() <= n_batch_)) {
                n_tok += (int)queue_.front().tokens.size();
                batch.push_back(std::move(queue_.front()));
                queue_.pop_front();
            }
            run_batch(batch, n_tok, out);
        }
        return out;
    }

    const char *device_name() const { return ggml_backend_name(backend_main_.get()); }

  private:
    static void upload(ggml_tensor *t, float scale, float freq) {
        std::vector<float> v(ggml_nelements(t));
        for (size_t i = 0; i < v.size(); i++) v[i] = scale * std::sin(freq * (float)(i + 1));
        ggml_backend_tensor_set(t, v.data(), 0, ggml_nbytes(t));
    }

    void run_batch(const std::vector<Request> &batch, int n_tok, std::vector<Result> &out) {
        const int n_seq = (int)batch.size();
        ggml_init_params ip = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());

        ggml_tensor *inp_tokens = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_I32, n_tok);
        ggml_tensor *inp_mean = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, n_tok, n_seq);
        ggml_set_name(inp_tokens, "inp_tokens");
        ggml_set_name(inp_mean, "inp_mean");
        ggml_set_input(inp_tokens);
        ggml_set_input(inp_mean);

        ggml_tensor *cur = ggml_get_rows(ctx.get(), tok_embd_, inp_tokens); // [E, n_tok]
        cur = ggml_gelu(ctx.get(), ggml_mul_mat(ctx.get(), proj_, cur));     // [O, n_tok]
        cur = ggml_cont(ctx.get(), ggml_transpose(ctx.get(), cur));          // [n_tok, O]
        cur = ggml_mul_mat(ctx.get(), cur, inp_mean);                        // [O, n_seq]
        cur = ggml_l2_norm(ctx.get(), cur, 1e-12f);
        ggml_set_name(cur, "embd_pooled");
        ggml_set_output(cur);
        ggml_build_forward_expand(gf, cur);

        ggml_backend_sched_reset(sched_.get());
        if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) {
            std::fprintf(stderr, "server: cannot allocate the batch graph\n");
            std::exit(1);
        }
        std::vector<int32_t> toks;
        std::vector<float> mean((size_t)n_tok * n_seq, 0.0f);
        for (int s = 0; s < n_seq; s++) {
            const auto &r = batch[s];
            for (int32_t t : r.tokens) {
                mean[(size_t)s * n_tok + toks.size()] = 1.0f / (float)r.tokens.size();
                toks.push_back(t);
            }
        }
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_tokens"), toks.data(), 0, toks.size() * sizeof(int32_t));
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "inp_mean"), mean.data(), 0, mean.size() * sizeof(float));
        ggml_backend_sched_graph_compute(sched_.get(), gf);

        ggml_tensor *pooled = ggml_graph_get_tensor(gf, "embd_pooled");
        std::vector<float> all((size_t)kOut * n_seq);
        ggml_backend_tensor_get(pooled, all.data(), 0, all.size() * sizeof(float));
        for (int s = 0; s < n_seq; s++)
            out.push_back({batch[s].id, std::vector<float>(all.begin() + s * kOut, all.begin() + (s + 1) * kOut)});
        n_batches_++;
    }

    int n_batch_;
    int n_batches_ = 0;
    ggml_backend_ptr backend_cpu_, backend_main_;
    ggml_context_ptr ctx_w_;
    ggml_backend_buffer_ptr buf_w_;
    ggml_backend_sched_ptr sched_;
    ggml_tensor *tok_embd_ = nullptr;
    ggml_tensor *proj_ = nullptr;
    std::deque<Request> queue_;

  public:
    int batches() const { return n_batches_; }
};

} // namespace

int main(int argc, char **argv) {
    int n_batch = 8, n_req = 4;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--n-batch") n_batch = std::atoi(argv[i + 1]);
        else if (a == "--requests") n_req = std::atoi(argv[i + 1]);
    }
    if (n_batch < 1) n_batch = 8;
    if (n_req < 1 || n_req > 32) n_req = 4;

    EmbeddingServer server(n_batch);
    for (int r = 0; r < n_req; r++) {
        Request req{r, {}};
        for (int k = 0; k < 2 + r % 4; k++) req.tokens.push_back((r * 13 + k * 7) % kVocab);
        server.submit(std::move(req));
    }
    auto results = server.drain();
    for (const auto &res : results) {
        double norm = 0.0;
        for (float v : res.embedding) norm += (double)v * v;
        std::printf("server: request %d |e| = %.4f e[0] = %+.4f\n", res.id, std::sqrt(norm), res.embedding[0]);
        if (std::fabs(std::sqrt(norm) - 1.0) > 1e-3) return 2;
    }
    std::printf("server: %zu embeddings in %d batches on %s\n", results.size(), server.batches(), server.device_name());
    return 0;
}
