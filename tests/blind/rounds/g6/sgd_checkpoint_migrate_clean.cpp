// provenance: blind round g6
// run-args: --train-device CUDA0 --eval-device CUDA1 --steps 40
// Trains a linear regressor with plain SGD on one device (update graph: w <- w - lr * grad,
// written back into w with ggml_cpy), saves a checkpoint through ggml_backend_tensor_get,
// then restores it into a fresh model on another device and evaluates there.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

static constexpr int kIn = 6;
static constexpr int kBatch = 16;

static ggml_backend_dev_t device_named(const std::string &name) {
    ggml_backend_dev_t d = ggml_backend_dev_by_name(name.c_str());
    return d ? d : ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}

class LinearModel {
public:
    explicit LinearModel(ggml_backend_dev_t dev) {
        backend_.reset(ggml_backend_dev_init(dev, nullptr));
        if (!backend_) throw std::runtime_error("backend init");
        ggml_init_params ip = {ggml_tensor_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        w = ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, kIn, 1);
        ggml_set_name(w, "w");
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        ggml_backend_buffer_clear(buf_.get(), 0);
        galloc_.reset(ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend_.get())));
    }

    float step(const std::vector<float> &x, const std::vector<float> &y, float lr, bool update) {
        ggml_init_params gp = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true};
        ggml_context_ptr ctx(ggml_init(gp));
        ggml_context *c = ctx.get();
        ggml_cgraph *gf = ggml_new_graph(c);
        ggml_tensor *X = ggml_new_tensor_2d(c, GGML_TYPE_F32, kIn, kBatch);
        ggml_tensor *Y = ggml_new_tensor_2d(c, GGML_TYPE_F32, 1, kBatch);
        ggml_set_input(X);
        ggml_set_input(Y);
        ggml_tensor *pred = ggml_mul_mat(c, w, X);               // [1, batch]
        ggml_tensor *err = ggml_sub(c, ggml_reshape_2d(c, pred, 1, kBatch), Y);
        ggml_tensor *loss = ggml_mean(c, ggml_sqr(c, ggml_reshape_1d(c, err, kBatch)));
        ggml_set_output(loss);
        ggml_build_forward_expand(gf, loss);
        if (update) {
            ggml_tensor *Xt = ggml_cont(c, ggml_transpose(c, X));  // [batch, in]
            ggml_tensor *et = ggml_reshape_2d(c, err, kBatch, 1);
            ggml_tensor *grad = ggml_scale(c, ggml_mul_mat(c, Xt, et), 2.0f / kBatch); // [in, 1]
            ggml_tensor *w_new = ggml_sub(c, w, ggml_scale(c, grad, lr));
            ggml_build_forward_expand(gf, ggml_cpy(c, w_new, w));
        }
        if (!ggml_gallocr_alloc_graph(galloc_.get(), gf)) throw std::runtime_error("alloc graph");
        ggml_backend_tensor_set(X, x.data(), 0, ggml_nbytes(X));
        ggml_backend_tensor_set(Y, y.data(), 0, ggml_nbytes(Y));
        ggml_backend_graph_compute(backend_.get(), gf);
        float l = 0.0f;
        ggml_backend_tensor_get(loss, &l, 0, sizeof l);
        return l;
    }

    std::vector<uint8_t> save() const {
        std::vector<uint8_t> blob(ggml_nbytes(w));
        ggml_backend_tensor_get(w, blob.data(), 0, blob.size());
        return blob;
    }

    void restore(const std::vector<uint8_t> &blob) {
        if (blob.size() != ggml_nbytes(w)) throw std::runtime_error("checkpoint size mismatch");
        ggml_backend_tensor_set(w, blob.data(), 0, blob.size());
    }

    const char *where() const { return ggml_backend_name(backend_.get()); }
    ggml_tensor *w = nullptr;

private:
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    ggml_gallocr_ptr galloc_;
};

static void make_batch(int step, std::vector<float> &x, std::vector<float> &y) {
    const float true_w[kIn] = {0.5f, -1.0f, 0.25f, 2.0f, 0.0f, -0.75f};
    x.assign((size_t)kIn * kBatch, 0.0f);
    y.assign(kBatch, 0.0f);
    for (int b = 0; b < kBatch; b++) {
        for (int i = 0; i < kIn; i++) {
            float v = std::sin(0.7f * (float)(b * kIn + i) + 0.3f * (float)step);
            x[(size_t)(b * kIn + i)] = v;
            y[(size_t)b] += true_w[i] * v;
        }
    }
}

// A checkpoint file: magic, tensor name, byte count, payload.
static void write_checkpoint(FILE *f, const char *name, const std::vector<uint8_t> &blob) {
    const uint32_t magic = 0x434b5054; // "CKPT"
    uint32_t len = (uint32_t)std::strlen(name);
    uint64_t n = blob.size();
    std::fwrite(&magic, sizeof magic, 1, f);
    std::fwrite(&len, sizeof len, 1, f);
    std::fwrite(name, 1, len, f);
    std::fwrite(&n, sizeof n, 1, f);
    std::fwrite(blob.data(), 1, blob.size(), f);
}

static bool read_checkpoint(FILE *f, std::string &name, std::vector<uint8_t> &blob) {
    uint32_t magic = 0, len = 0;
    uint64_t n = 0;
    if (std::fread(&magic, sizeof magic, 1, f) != 1 || magic != 0x434b5054) return false;
    if (std::fread(&len, sizeof len, 1, f) != 1 || len > 64) return false;
    name.assign(len, '\0');
    if (std::fread(&name[0], 1, len, f) != len) return false;
    if (std::fread(&n, sizeof n, 1, f) != 1 || n > (1u << 20)) return false;
    blob.resize((size_t)n);
    return std::fread(blob.data(), 1, blob.size(), f) == blob.size();
}

int main(int argc, char **argv) {
    std::string train_dev = "CPU", eval_dev = "CPU";
    int steps = 30;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--train-device")) train_dev = argv[i + 1];
        else if (!std::strcmp(argv[i], "--eval-device")) eval_dev = argv[i + 1];
        else if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    }
    try {
        LinearModel trainer(device_named(train_dev));
        std::vector<float> x, y;
        float loss = 0.0f;
        for (int s = 0; s < steps; s++) {
            make_batch(s, x, y);
            loss = trainer.step(x, y, 0.2f, true);
            if (s % 10 == 0) std::printf("[%s] step %d loss %.5f\n", trainer.where(), s, loss);
        }
        FILE *ckpt = std::tmpfile();
        if (!ckpt) return 1;
        auto blob = trainer.save();
        write_checkpoint(ckpt, ggml_get_name(trainer.w), blob);
        std::rewind(ckpt);
        std::vector<uint8_t> loaded;
        std::string name;
        if (!read_checkpoint(ckpt, name, loaded)) return 1;
        std::fclose(ckpt);
        std::printf("checkpoint: tensor '%s', %zu bytes\n", name.c_str(), loaded.size());
        const float *wv = reinterpret_cast<const float *>(loaded.data());
        std::printf("learned w:");
        for (int i = 0; i < kIn; i++) std::printf(" %+.3f", wv[i]);
        std::printf("\n");

        LinearModel evaluator(device_named(eval_dev));
        evaluator.restore(loaded);
        make_batch(1000, x, y);
        float eval_loss = evaluator.step(x, y, 0.0f, false);
        float train_side = trainer.step(x, y, 0.0f, false);
        std::printf("eval on %s: %.6f (trainer on %s: %.6f)\n", evaluator.where(), eval_loss, trainer.where(), train_side);
        return std::fabs(eval_loss - train_side) < 1e-4f ? 0 : 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
