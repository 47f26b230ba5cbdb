// corpus/ggml/g1_x07_sched_probe_clean.cpp — from blind round g1 (x07_sched_probe_clean.cpp, labelled by running it on real ggml and the emulated GPU): a small convolution-free vision head run step by step through
// the backend scheduler (best device first, then the CPU), with an activation probe installed
// as the scheduler's eval callback (a captureless lambda). The probe reads node memory
// directly only when ggml_backend_buffer_is_host says it may, and copies with
// ggml_backend_tensor_get otherwise; one node is pinned to the CPU backend.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

namespace {

constexpr int kPatch = 16;
constexpr int kPatches = 4;
constexpr int kHidden = 12;
constexpr int kClasses = 5;

struct Probe {
    std::map<std::string, float> max_abs;
    int host_reads = 0;
    int device_reads = 0;
};

struct Head {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * patch_w = nullptr;
    ggml_tensor * cls_w = nullptr;
};

void head_init(Head & h, ggml_backend_t backend) {
    ggml_init_params p = { ggml_tensor_overhead() * 2, nullptr, true };
    h.ctx.reset(ggml_init(p));
    h.patch_w = ggml_new_tensor_2d(h.ctx.get(), GGML_TYPE_F32, kPatch, kHidden);
    h.cls_w = ggml_new_tensor_2d(h.ctx.get(), GGML_TYPE_F32, kHidden, kClasses);
    h.buf.reset(ggml_backend_alloc_ctx_tensors(h.ctx.get(), backend));
    ggml_backend_buffer_set_usage(h.buf.get(), GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    std::vector<float> w(kPatch * kHidden);
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.1f * std::cos(0.05f * static_cast<float>(i * i));
    ggml_backend_tensor_set(h.patch_w, w.data(), 0, ggml_nbytes(h.patch_w));
    ggml_backend_tensor_set(h.cls_w, w.data(), 0, ggml_nbytes(h.cls_w));
}

float node_max_abs(const ggml_tensor * t, Probe & probe) {
    std::vector<float> vals(static_cast<size_t>(ggml_nelements(t)));
    const ggml_tensor * owner = t->view_src ? t->view_src : t;
    if (owner->buffer != nullptr && ggml_backend_buffer_is_host(owner->buffer)) {
        std::memcpy(vals.data(), t->data, ggml_nbytes(t));
        probe.host_reads++;
    } else {
        ggml_backend_tensor_get(t, vals.data(), 0, ggml_nbytes(t));
        probe.device_reads++;
    }
    float m = 0.0f;
    for (float v : vals) m = std::fmax(m, std::fabs(v));
    return m;
}

void print_report(const Probe & probe) {
    std::vector<std::pair<std::string, float>> rows(probe.max_abs.begin(), probe.max_abs.end());
    std::sort(rows.begin(), rows.end(), [](const auto & a, const auto & b) { return a.second > b.second; });
    for (const auto & kv : rows) std::printf("  %-10s max|x| %.4f\n", kv.first.c_str(), kv.second);
    std::printf("probe reads: %d host, %d device\n", probe.host_reads, probe.device_reads);
}

} // namespace

int main() {
    ggml_backend_ptr best(ggml_backend_init_best());
    ggml_backend_ptr cpu(ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr));
    Head head;
    head_init(head, best.get());

    ggml_backend_t backends[2] = { best.get(), cpu.get() };
    ggml_backend_sched_ptr sched(ggml_backend_sched_new(backends, nullptr, 2, GGML_DEFAULT_GRAPH_SIZE, false, true));
    Probe probe;
    ggml_backend_sched_set_eval_callback(sched.get(), [](ggml_tensor * t, bool ask, void * ud) -> bool {
        if (ask) return t->type == GGML_TYPE_F32 && ggml_is_contiguous(t);
        Probe & p = *static_cast<Probe *>(ud);
        float m = node_max_abs(t, p);
        float & slot = p.max_abs[ggml_op_desc(t)];
        slot = std::fmax(slot, m);
        return true;
    }, &probe);

    for (int img = 0; img < 3; ++img) {
        ggml_init_params p = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true };
        ggml_context_ptr ctx(ggml_init(p));
        ggml_tensor * patches = ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, kPatch, kPatches);
        ggml_set_input(patches);
        ggml_tensor * emb = ggml_gelu(ctx.get(), ggml_mul_mat(ctx.get(), head.patch_w, patches));  // [kHidden, kPatches]
        ggml_tensor * pooled = ggml_mean(ctx.get(), ggml_cont(ctx.get(), ggml_transpose(ctx.get(), emb)));
        pooled = ggml_reshape_1d(ctx.get(), pooled, kHidden);
        ggml_tensor * logits = ggml_mul_mat(ctx.get(), head.cls_w, pooled);
        ggml_tensor * probs = ggml_soft_max(ctx.get(), logits);
        ggml_set_output(probs);
        ggml_cgraph * gf = ggml_new_graph(ctx.get());
        ggml_build_forward_expand(gf, probs);

        ggml_backend_sched_reset(sched.get());
        ggml_backend_sched_set_tensor_backend(sched.get(), probs, cpu.get());
        ggml_backend_sched_alloc_graph(sched.get(), gf);
        std::vector<float> px(kPatch * kPatches);
        for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<float>((i * 31 + img * 7) % 17) / 17.0f;
        ggml_backend_tensor_set(patches, px.data(), 0, ggml_nbytes(patches));
        ggml_backend_sched_graph_compute(sched.get(), gf);

        std::vector<float> out(kClasses);
        ggml_backend_tensor_get(probs, out.data(), 0, ggml_nbytes(probs));
        int cls = 0;
        for (int c = 1; c < kClasses; ++c) if (out[c] > out[cls]) cls = c;
        std::printf("image %d -> class %d (%.3f) on %s\n", img, cls, out[cls], ggml_backend_name(ggml_backend_sched_get_tensor_backend(sched.get(), probs)));
    }
    print_report(probe);
    return 0;
}
