// provenance: blind round g6
// run-args: 0.25
// Row-wise tensor split of one large projection across CUDA0 and CUDA1 (llama.cpp's
// --tensor-split): each device gets a slice of the output rows in its own buffer and computes
// its part with its own backend and allocator; the host gathers the parts with tensor_get.
// argv[1] is the fraction of rows given to CUDA0.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

template <typename T>
static T clamp_value(T v, T lo, T hi) { return std::max(lo, std::min(v, hi)); }

struct Shard {
    int device = 0;
    int64_t row_begin = 0;
    int64_t n_rows = 0;
    ggml_backend_ptr backend;
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_gallocr_ptr galloc;
    ggml_tensor *w = nullptr;
};

class SplitLinear {
public:
    SplitLinear(int64_t n_in, int64_t n_out, const std::vector<float> &fractions) : n_in_(n_in), n_out_(n_out) {
        int64_t row = 0;
        for (size_t d = 0; d < fractions.size(); d++) {
            int64_t rows = d + 1 == fractions.size() ? n_out - row : (int64_t)std::floor(fractions[d] * (float)n_out);
            if (rows <= 0) continue;
            auto s = std::make_unique<Shard>();
            s->device = (int)d;
            s->row_begin = row;
            s->n_rows = rows;
            s->backend.reset(ggml_backend_cuda_init((int)d));
            ggml_init_params ip = {ggml_tensor_overhead(), nullptr, true};
            s->ctx.reset(ggml_init(ip));
            s->w = ggml_new_tensor_2d(s->ctx.get(), GGML_TYPE_F32, n_in, rows);
            s->buf.reset(ggml_backend_alloc_ctx_tensors(s->ctx.get(), s->backend.get()));
            s->galloc.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(s->backend.get())));
            row += rows;
            shards_.push_back(std::move(s));
        }
    }

    void set_weights(const std::vector<float> &full) {
        for (auto &s : shards_) {
            const float *src = full.data() + s->row_begin * n_in_;
            ggml_backend_tensor_set(s->w, src, 0, ggml_nbytes(s->w));
        }
    }

    std::vector<float> forward(const std::vector<float> &x) {
        std::vector<float> y((size_t)n_out_);
        for (auto &s : shards_) {
            ggml_init_params gp = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true};
            ggml_context_ptr ctx(ggml_init(gp));
            ggml_cgraph *gf = ggml_new_graph(ctx.get());
            ggml_tensor *in = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, n_in_);
            ggml_set_input(in);
            ggml_tensor *out = ggml_mul_mat(ctx.get(), s->w, in);
            ggml_set_output(out);
            ggml_build_forward_expand(gf, out);
            ggml_gallocr_alloc_graph(s->galloc.get(), gf);
            ggml_backend_tensor_set(in, x.data(), 0, ggml_nbytes(in));
            ggml_backend_graph_compute(s->backend.get(), gf);
            ggml_backend_tensor_get(out, y.data() + s->row_begin, 0, ggml_nbytes(out));
        }
        return y;
    }

    void describe() const {
        for (const auto &s : shards_)
            std::printf("  %s: rows [%lld, %lld)\n", ggml_backend_name(s->backend.get()), (long long)s->row_begin,
                        (long long)(s->row_begin + s->n_rows));
    }

private:
    int64_t n_in_, n_out_;
    std::vector<std::unique_ptr<Shard>> shards_;
};

// Parses "a,b" or "a" into split fractions normalised to sum to 1 (like --tensor-split 3,1).
static std::vector<float> parse_split(const char *spec, int n_dev) {
    std::vector<float> v;
    const char *p = spec;
    while (p && *p && (int)v.size() < n_dev) {
        char *end = nullptr;
        float f = std::strtof(p, &end);
        if (end == p) break;
        v.push_back(std::max(0.0f, f));
        p = *end == ',' ? end + 1 : end;
    }
    if (v.empty()) v.push_back(1.0f);
    if (v.size() == 1 && n_dev == 2) v.push_back(std::max(0.0f, 1.0f - v[0]));
    while ((int)v.size() < n_dev) v.push_back(0.0f);
    float sum = 0.0f;
    for (float f : v) sum += f;
    if (sum <= 0.0f) {
        v.assign((size_t)n_dev, 0.0f);
        v[0] = 1.0f;
        sum = 1.0f;
    }
    for (float &f : v) f /= sum;
    return v;
}

int main(int argc, char **argv) {
    const char *spec = argc > 1 ? argv[1] : "0.5";
    const int64_t n_in = 20, n_out = 36;
    int n_dev = std::min(2, ggml_backend_cuda_get_device_count());
    std::vector<float> fractions = parse_split(spec, std::max(1, n_dev));
    for (float &f : fractions) f = clamp_value(f, 0.0f, 1.0f);
    std::printf("fractions:");
    for (float f : fractions) std::printf(" %.3f", f);
    std::printf("\n");

    for (int d = 0; d < n_dev; d++) {
        size_t free_mem = 0, total_mem = 0;
        ggml_backend_cuda_get_device_memory(d, &free_mem, &total_mem);
        std::printf("CUDA%d: %zu/%zu MiB free\n", d, free_mem >> 20, total_mem >> 20);
    }
    SplitLinear lin(n_in, n_out, fractions);
    std::printf("split:\n");
    lin.describe();

    std::vector<float> w((size_t)(n_in * n_out));
    for (size_t i = 0; i < w.size(); i++) w[i] = std::sin(0.1f * (float)i);
    lin.set_weights(w);

    std::vector<float> x((size_t)n_in);
    for (size_t i = 0; i < x.size(); i++) x[i] = 1.0f / (float)(i + 1);
    std::vector<float> y = lin.forward(x);

    double max_err = 0.0;
    for (int64_t r = 0; r < n_out; r++) {
        double ref = 0.0;
        for (int64_t c = 0; c < n_in; c++) ref += (double)w[(size_t)(r * n_in + c)] * x[(size_t)c];
        max_err = std::max(max_err, std::fabs(ref - (double)y[(size_t)r]));
    }
    std::printf("max abs error vs host reference: %.2e\n", max_err);
    return max_err < 1e-3 ? 0 : 2;
}
