// run-env: DUMP_MODE=raw
//
// Activation statistics for debugging a model run through ggml_backend_sched (GPU + CPU),
// like llama.cpp's eval-callback tool. DUMP_MODE=copy fetches each observed tensor with
// ggml_backend_tensor_get; DUMP_MODE=raw ("faster") reads the tensor's data pointer directly;
// unset: no dump.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

enum class DumpMode { None, Copy, Raw };

static DumpMode dump_mode_from_env() {
    const char *v = std::getenv("DUMP_MODE");
    if (!v) return DumpMode::None;
    if (!std::strcmp(v, "raw")) return DumpMode::Raw;
    if (!std::strcmp(v, "copy")) return DumpMode::Copy;
    return DumpMode::None;
}

struct Stats {
    double sum = 0.0, sum_sq = 0.0;
    float min = INFINITY, max = -INFINITY;
    int64_t n = 0;

    void accumulate(const float *p, int64_t count) {
        for (int64_t i = 0; i < count; i++) {
            float v = p[i]; // expect-warning: ggml-host-access
            sum += v;
            sum_sq += (double) v * v;
            min = std::fmin(min, v);
            max = std::fmax(max, v);
        }
        n += count;
    }
};

class ActivationDumper {
public:
    explicit ActivationDumper(DumpMode mode) : mode_(mode) {}

    static bool callback(ggml_tensor *t, bool ask, void *ud) {
        return static_cast<ActivationDumper *>(ud)->on_tensor(t, ask);
    }

    int dumped() const { return dumped_; }

private:
    bool on_tensor(ggml_tensor *t, bool ask) {
        if (ask) return mode_ != DumpMode::None && t->type == GGML_TYPE_F32;
        Stats st;
        const int64_t n = ggml_nelements(t);
        if (mode_ == DumpMode::Raw) {
            st.accumulate(static_cast<const float *>(t->data), n);
        } else {
            std::vector<float> host(n);
            ggml_backend_tensor_get(t, host.data(), 0, ggml_nbytes(t));
            st.accumulate(host.data(), n);
        }
        ggml_backend_buffer_t buf = t->view_src ? t->view_src->buffer : t->buffer;
        std::printf("  %-12s %-6s [%3lld x %3lld] mean %+.4f min %+.4f max %+.4f (%s)\n", t->name, ggml_op_desc(t),
                    (long long) t->ne[0], (long long) t->ne[1], st.sum / (double) st.n, st.min, st.max,
                    buf ? ggml_backend_buffer_name(buf) : "?");
        dumped_++;
        return true;
    }

    DumpMode mode_;
    int dumped_ = 0;
};

struct Encoder {
    ggml_backend_ptr gpu, cpu;
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    std::vector<ggml_tensor *> w, b;
    ggml_backend_sched_ptr sched;
    int n_in = 0;
};

static bool encoder_init(Encoder &e, const std::vector<int> &dims) {
    ggml_backend_dev_t gdev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!gdev) return false;
    e.gpu.reset(ggml_backend_dev_init(gdev, nullptr));
    e.cpu.reset(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr));
    e.n_in = dims.front();
    ggml_init_params ip = { ggml_tensor_overhead() * 2 * dims.size(), nullptr, true };
    e.ctx.reset(ggml_init(ip));
    for (size_t i = 0; i + 1 < dims.size(); i++) {
        e.w.push_back(ggml_new_tensor_2d(e.ctx.get(), GGML_TYPE_F32, dims[i], dims[i + 1]));
        e.b.push_back(ggml_new_tensor_1d(e.ctx.get(), GGML_TYPE_F32, dims[i + 1]));
    }
    e.buf.reset(ggml_backend_alloc_ctx_tensors(e.ctx.get(), e.gpu.get()));
    if (!e.buf) return false;
    ggml_backend_buffer_set_usage(e.buf.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    for (size_t i = 0; i < e.w.size(); i++) {
        std::vector<float> v(ggml_nelements(e.w[i]));
        for (size_t j = 0; j < v.size(); j++) v[j] = 0.2f * std::sin(0.5f * (float) (j + i));
        ggml_backend_tensor_set(e.w[i], v.data(), 0, ggml_nbytes(e.w[i]));
        std::vector<float> bb(ggml_nelements(e.b[i]), 0.01f);
        ggml_backend_tensor_set(e.b[i], bb.data(), 0, ggml_nbytes(e.b[i]));
    }
    ggml_backend_t backends[2] = { e.gpu.get(), e.cpu.get() };
    e.sched.reset(ggml_backend_sched_new(backends, nullptr, 2, GGML_DEFAULT_GRAPH_SIZE, false, true));
    return true;
}

static std::vector<float> encoder_run(Encoder &e, const std::vector<float> &x, int n_batch) {
    ggml_init_params ip = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(ip));
    ggml_cgraph *gf = ggml_new_graph(ctx.get());
    ggml_tensor *inp = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, e.n_in, n_batch);
    ggml_set_name(inp, "input");
    ggml_set_input(inp);
    ggml_tensor *cur = inp;
    for (size_t i = 0; i < e.w.size(); i++) {
        cur = ggml_add(ctx.get(), ggml_mul_mat(ctx.get(), e.w[i], cur), e.b[i]);
        if (i + 1 < e.w.size()) cur = ggml_gelu(ctx.get(), cur);
        ggml_format_name(cur, "layer_%zu", i);
    }
    ggml_tensor *out = ggml_soft_max(ctx.get(), cur);
    ggml_set_name(out, "probs");
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);

    ggml_backend_sched_reset(e.sched.get());
    if (!ggml_backend_sched_alloc_graph(e.sched.get(), gf)) return {};
    ggml_backend_tensor_set(inp, x.data(), 0, ggml_nbytes(inp));
    if (ggml_backend_sched_graph_compute(e.sched.get(), gf) != GGML_STATUS_SUCCESS) return {};
    std::vector<float> res(ggml_nelements(out));
    ggml_backend_tensor_get(out, res.data(), 0, ggml_nbytes(out));
    return res;
}

int main() {
    Encoder enc;
    if (!encoder_init(enc, { 20, 32, 32, 6 })) {
        std::fprintf(stderr, "init failed (a GPU is needed)\n");
        return 1;
    }
    ActivationDumper dumper(dump_mode_from_env());
    ggml_backend_sched_set_eval_callback(enc.sched.get(), ActivationDumper::callback, &dumper);

    const int n_batch = 3;
    std::vector<float> x(20 * n_batch);
    for (size_t i = 0; i < x.size(); i++) x[i] = (float) (i % 7) / 7.0f;
    std::vector<float> probs = encoder_run(enc, x, n_batch);
    if (probs.empty()) {
        std::fprintf(stderr, "run failed\n");
        return 1;
    }
    for (int b = 0; b < n_batch; b++) {
        int best = 0;
        for (int j = 1; j < 6; j++) if (probs[b * 6 + j] > probs[b * 6 + best]) best = j;
        std::printf("sample %d -> class %d (%.3f)\n", b, best, probs[b * 6 + best]);
    }
    std::printf("%d tensors dumped\n", dumper.dumped());
    return 0;
}
