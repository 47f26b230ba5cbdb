// provenance: blind round g6
// run-args: --gpu 1
// bark.cpp-style loader: a synthetic checkpoint (name, dims, f32 data) is read into tensors
// looked up in a std::unordered_map. Small tensors (norms, biases) are "fast-pathed" with a
// memcpy into tensor->data, large ones go through ggml_backend_tensor_set.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

struct TensorRecord {
    std::string name;
    int64_t ne0;
    int64_t ne1;
};

static const std::vector<TensorRecord> kLayout = {
    {"codec.embed.weight", 16, 64},
    {"codec.ln.weight", 16, 1},
    {"codec.ln.bias", 16, 1},
    {"codec.fc.weight", 16, 32},
    {"codec.fc.bias", 32, 1},
};

static void write_checkpoint(FILE *f) {
    for (const auto &r : kLayout) {
        uint32_t len = (uint32_t)r.name.size();
        std::fwrite(&len, sizeof len, 1, f);
        std::fwrite(r.name.data(), 1, len, f);
        std::fwrite(&r.ne0, sizeof r.ne0, 1, f);
        std::fwrite(&r.ne1, sizeof r.ne1, 1, f);
        std::vector<float> v((size_t)(r.ne0 * r.ne1));
        for (size_t i = 0; i < v.size(); i++) v[i] = 0.001f * (float)(i % 101) * (r.ne1 == 1 ? 10.0f : 1.0f);
        std::fwrite(v.data(), sizeof(float), v.size(), f);
    }
}

class CodecModel {
public:
    CodecModel(ggml_backend_t backend) : backend_(backend) {
        ggml_init_params ip = {ggml_tensor_overhead() * kLayout.size(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        for (const auto &r : kLayout) {
            ggml_tensor *t = r.ne1 == 1 ? ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, r.ne0)
                                        : ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, r.ne0, r.ne1);
            ggml_set_name(t, r.name.c_str());
            tensors_[r.name] = t;
        }
        buffer_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend));
    }

    bool load(FILE *f) {
        auto read_payload = [f](ggml_tensor *t) -> bool {
            const size_t nbytes = ggml_nbytes(t);
            std::vector<char> tmp(nbytes);
            if (std::fread(tmp.data(), 1, nbytes, f) != nbytes) return false;
            if (ggml_n_dims(t) == 1) {
                std::memcpy(t->data, tmp.data(), nbytes); // expect-error: ggml-host-access
            } else {
                ggml_backend_tensor_set(t, tmp.data(), 0, nbytes);
            }
            return true;
        };
        for (size_t n = 0; n < kLayout.size(); n++) {
            uint32_t len = 0;
            if (std::fread(&len, sizeof len, 1, f) != 1 || len > 128) return false;
            std::string name(len, '\0');
            int64_t ne[2];
            if (std::fread(&name[0], 1, len, f) != len || std::fread(ne, sizeof(int64_t), 2, f) != 2) return false;
            auto it = tensors_.find(name);
            if (it == tensors_.end()) {
                std::fprintf(stderr, "unexpected tensor %s\n", name.c_str());
                return false;
            }
            if (it->second->ne[0] != ne[0] || (ne[1] > 1 && it->second->ne[1] != ne[1])) return false;
            if (!read_payload(it->second)) return false;
        }
        return true;
    }

    ggml_tensor *operator()(const char *name) const { return tensors_.at(name); }
    ggml_backend_t backend() const { return backend_; }

private:
    ggml_backend_t backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buffer_;
    std::unordered_map<std::string, ggml_tensor *> tensors_;
};

// Fine-codebook decoding: picks the nearest embedding row for each output frame (host side).
static std::vector<int> nearest_codes(const std::vector<float> &feats, int dim, int n_frames,
                                      const std::vector<float> &book, int n_codes) {
    std::vector<int> codes;
    for (int f = 0; f < n_frames; f++) {
        int best = 0;
        float best_d = 1e30f;
        for (int c = 0; c < n_codes; c++) {
            float d = 0.0f;
            for (int k = 0; k < dim && k < 16; k++) {
                float diff = feats[(size_t)f * dim + k] - book[(size_t)c * 16 + k];
                d += diff * diff;
            }
            if (d < best_d) best_d = d, best = c;
        }
        codes.push_back(best);
    }
    return codes;
}

static void print_layout() {
    size_t total = 0;
    for (const auto &r : kLayout) {
        std::printf("  %-22s [%lld, %lld]\n", r.name.c_str(), (long long)r.ne0, (long long)r.ne1);
        total += (size_t)(r.ne0 * r.ne1) * sizeof(float);
    }
    std::printf("  %zu bytes of f32 weights\n", total);
}

int main(int argc, char **argv) {
    int gpu = 0;
    for (int i = 1; i + 1 < argc; i++)
        if (!std::strcmp(argv[i], "--gpu")) gpu = std::atoi(argv[++i]);
    if (gpu < 0 || gpu >= ggml_backend_cuda_get_device_count()) gpu = 0;

    FILE *f = std::tmpfile();
    if (!f) return 1;
    write_checkpoint(f);
    std::rewind(f);

    print_layout();
    ggml_backend_ptr backend(ggml_backend_cuda_init(gpu));
    CodecModel model(backend.get());
    if (!model.load(f)) {
        std::fprintf(stderr, "checkpoint load failed\n");
        return 1;
    }
    std::fclose(f);

    ggml_init_params gp = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
    ggml_context_ptr ctx0(ggml_init(gp));
    ggml_cgraph *gf = ggml_new_graph(ctx0.get());
    ggml_tensor *codes = ggml_new_tensor_1d(ctx0.get(), GGML_TYPE_I32, 6);
    ggml_set_name(codes, "codes");
    ggml_set_input(codes);
    ggml_tensor *h = ggml_get_rows(ctx0.get(), model("codec.embed.weight"), codes);
    h = ggml_add(ctx0.get(), ggml_mul(ctx0.get(), ggml_norm(ctx0.get(), h, 1e-5f), model("codec.ln.weight")), model("codec.ln.bias"));
    h = ggml_add(ctx0.get(), ggml_mul_mat(ctx0.get(), model("codec.fc.weight"), h), model("codec.fc.bias"));
    ggml_set_name(h, "audio_feats");
    ggml_build_forward_expand(gf, h);

    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_get_default_buffer_type(model.backend())));
    ggml_gallocr_alloc_graph(ga.get(), gf);
    const int32_t ids[6] = {3, 14, 15, 9, 26, 5};
    ggml_backend_tensor_set(codes, ids, 0, sizeof ids);
    ggml_backend_graph_compute(model.backend(), gf);
    std::vector<float> out((size_t)ggml_nelements(h));
    ggml_backend_tensor_get(h, out.data(), 0, ggml_nbytes(h));
    std::vector<float> book(16 * 8);
    for (size_t i = 0; i < book.size(); i++) book[i] = 0.01f * (float)(i % 13);
    auto fine = nearest_codes(out, (int)h->ne[0], (int)h->ne[1], book, 8);
    std::printf("fine codes:");
    for (int c : fine) std::printf(" %d", c);
    std::printf("\n");
    std::printf("audio_feats: %lld x %lld, [0]=%.4f\n", (long long)h->ne[0], (long long)h->ne[1], out[0]);
    return 0;
}
