// run-args: --save-device CUDA1 --load-device CPU --n-past 5
//
// Session save / restore: a context's KV cache is filled by running prompt steps, the used
// part of every layer (n_past rows) is serialised with ggml_backend_tensor_get at offsets into
// a byte vector and a file, and restored into a fresh context on another device. Host caches
// are read and written in place, device caches through tensor_get/set.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kLayers = 3;
constexpr int kEmbd = 8;
constexpr int kCtx = 16;

ggml_backend_dev_t device_named(const std::string &name) {
    if (name.empty()) return ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    ggml_backend_dev_t d = ggml_backend_dev_by_name(name.c_str());
    return d ? d : ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}

class KvContext {
public:
    explicit KvContext(ggml_backend_dev_t dev) : dev_(dev) {
        backend_.reset(ggml_backend_dev_init(dev, nullptr));
        ggml_init_params ip = { ggml_tensor_overhead() * (2 * kLayers + 1), nullptr, true };
        ctx_.reset(ggml_init(ip));
        proj_ = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kEmbd);
        for (int il = 0; il < kLayers; il++) {
            k_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCtx));
            v_.push_back(ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kEmbd, kCtx));
        }
        buf_.reset(ggml_backend_alloc_ctx_tensors_from_buft(ctx_.get(), ggml_backend_dev_buffer_type(dev)));
        ggml_backend_buffer_clear(buf_.get(), 0);
        std::vector<float> w(kEmbd * kEmbd);
        for (int i = 0; i < kEmbd * kEmbd; i++) w[i] = (i % (kEmbd + 1) == 0) ? 0.9f : 0.05f;
        ggml_backend_tensor_set(proj_, w.data(), 0, ggml_nbytes(proj_));
        alloc_.reset(ggml_gallocr_new(ggml_backend_dev_buffer_type(dev)));
    }

    // one prompt step: layer il stores proj^(il+1) x at row pos of k and v
    void step(const std::vector<float> &x) {
        ggml_init_params ip = { ggml_tensor_overhead() * 64 + ggml_graph_overhead(), nullptr, true };
        ggml_context_ptr ctx(ggml_init(ip));
        ggml_cgraph *gf = ggml_new_graph(ctx.get());
        ggml_tensor *inp = ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, kEmbd);
        ggml_set_input(inp);
        ggml_tensor *cur = inp;
        for (int il = 0; il < kLayers; il++) {
            cur = ggml_mul_mat(ctx.get(), proj_, cur);
            size_t off = (size_t) n_past_ * k_[il]->nb[1];
            ggml_build_forward_expand(gf, ggml_cpy(ctx.get(), cur, ggml_view_1d(ctx.get(), k_[il], kEmbd, off)));
            ggml_build_forward_expand(gf, ggml_cpy(ctx.get(), ggml_neg(ctx.get(), cur), ggml_view_1d(ctx.get(), v_[il], kEmbd, off)));
        }
        ggml_gallocr_alloc_graph(alloc_.get(), gf);
        ggml_backend_tensor_set(inp, x.data(), 0, ggml_nbytes(inp));
        ggml_backend_graph_compute(backend_.get(), gf);
        n_past_++;
    }

    std::vector<uint8_t> save() const {
        std::vector<uint8_t> out;
        auto put = [&out](const void *p, size_t n) {
            const uint8_t *b = static_cast<const uint8_t *>(p);
            out.insert(out.end(), b, b + n);
        };
        int32_t header[2] = { kLayers, n_past_ };
        put(header, sizeof header);
        for (int il = 0; il < kLayers; il++) {
            for (const ggml_tensor *t : { k_[il], v_[il] }) {
                size_t n = (size_t) n_past_ * t->nb[1];
                size_t at = out.size();
                out.resize(at + n);
                if (ggml_backend_buffer_is_host(t->buffer)) std::memcpy(&out[at], t->data, n);
                else ggml_backend_tensor_get(t, &out[at], 0, n);
            }
        }
        return out;
    }

    bool load(const std::vector<uint8_t> &in) {
        if (in.size() < 2 * sizeof(int32_t)) return false;
        int32_t header[2];
        std::memcpy(header, in.data(), sizeof header);
        if (header[0] != kLayers || header[1] < 0 || header[1] > kCtx) return false;
        size_t at = sizeof header;
        for (int il = 0; il < kLayers; il++) {
            for (ggml_tensor *t : { k_[il], v_[il] }) {
                size_t n = (size_t) header[1] * t->nb[1];
                if (at + n > in.size()) return false;
                if (ggml_backend_buffer_is_host(t->buffer)) std::memcpy(t->data, &in[at], n);
                else ggml_backend_tensor_set(t, &in[at], 0, n);
                at += n;
            }
        }
        n_past_ = header[1];
        return true;
    }

    std::vector<float> row(int il, int pos) const {
        std::vector<float> r(kEmbd);
        ggml_backend_tensor_get(k_[il], r.data(), (size_t) pos * k_[il]->nb[1], kEmbd * sizeof(float));
        return r;
    }

    int n_past() const { return n_past_; }
    const char *name() const { return ggml_backend_dev_name(dev_); }

private:
    ggml_backend_dev_t dev_;
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr alloc_;
    ggml_tensor *proj_ = nullptr;
    std::vector<ggml_tensor *> k_, v_;
    int n_past_ = 0;
};

bool write_file(FILE *f, const std::vector<uint8_t> &data) {
    uint64_t n = data.size();
    return std::fwrite(&n, sizeof n, 1, f) == 1 && std::fwrite(data.data(), 1, data.size(), f) == data.size();
}

std::vector<uint8_t> read_file(FILE *f) {
    uint64_t n = 0;
    if (std::fread(&n, sizeof n, 1, f) != 1) return {};
    std::vector<uint8_t> data(n);
    if (std::fread(data.data(), 1, n, f) != n) return {};
    return data;
}

} // namespace

int main(int argc, char **argv) {
    std::string save_dev, load_dev;
    int n_past = 4;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--save-device")) save_dev = argv[i + 1];
        else if (!std::strcmp(argv[i], "--load-device")) load_dev = argv[i + 1];
        else if (!std::strcmp(argv[i], "--n-past")) n_past = std::atoi(argv[i + 1]);
    }
    if (n_past < 1 || n_past > kCtx) n_past = 4;

    auto src = std::make_unique<KvContext>(device_named(save_dev));
    for (int p = 0; p < n_past; p++) {
        std::vector<float> x(kEmbd);
        for (int i = 0; i < kEmbd; i++) x[i] = std::sin((float) (p * kEmbd + i));
        src->step(x);
    }
    std::vector<uint8_t> blob = src->save();

    FILE *f = std::tmpfile();
    if (!f || !write_file(f, blob)) return 1;
    std::rewind(f);
    std::vector<uint8_t> back = read_file(f);
    std::fclose(f);

    auto dst = std::make_unique<KvContext>(device_named(load_dev));
    if (!dst->load(back)) {
        std::fprintf(stderr, "bad state file\n");
        return 1;
    }
    float max_diff = 0.0f;
    for (int il = 0; il < kLayers; il++) {
        for (int p = 0; p < n_past; p++) {
            std::vector<float> a = src->row(il, p), b = dst->row(il, p);
            for (int i = 0; i < kEmbd; i++) max_diff = std::fmax(max_diff, std::fabs(a[i] - b[i]));
        }
    }
    std::printf("%s -> %s: %zu bytes, n_past %d, max diff %g\n", src->name(), dst->name(), blob.size(), dst->n_past(), max_diff);
    return max_diff == 0.0f ? 0 : 2;
}
