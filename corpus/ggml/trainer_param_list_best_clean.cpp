// corpus/ggml/trainer_param_list_best_clean.cpp — a trainer class that keeps its parameters in
// a std::vector<Param> member ({name, value, momentum}, filled by push_back of braced
// aggregates) and allocates their context on ggml_backend_init_best(). Reading an element back
// (params_[0].value) gives the tensor put there, placed where its context was: on the best
// device. The checkpoint peek asks the buffer first: memcpy from value->data only when it is
// host memory, ggml_backend_tensor_get otherwise.
#include <cstdio>
#include <cstring>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

namespace train {

struct Param {
    const char *name;
    ggml_tensor *value;
    ggml_tensor *momentum;
};

class Trainer {
public:
    Trainer(int n_in, int n_out) {
        backend_.reset(ggml_backend_init_best());
        ggml_init_params ip = {4 * ggml_tensor_overhead(), nullptr, true};
        ctx_.reset(ggml_init(ip));
        params_.push_back({"w", ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, n_in, n_out),
                           ggml_new_tensor_2d(ctx_.get(), GGML_TYPE_F32, n_in, n_out)});
        params_.push_back({"b", ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, n_out),
                           ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, n_out)});
        buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
        ggml_backend_buffer_clear(buf_.get(), 0);
    }

    float peek_first_weight() const {
        float w0 = 0.0f;
        if (ggml_backend_buffer_is_host(buf_.get()))
            std::memcpy(&w0, params_[0].value->data, sizeof w0);
        else
            ggml_backend_tensor_get(params_[0].value, &w0, 0, sizeof w0);
        return w0;
    }

    const char *backend_name() const { return ggml_backend_name(backend_.get()); }

private:
    ggml_backend_ptr backend_;
    ggml_context_ptr ctx_;
    ggml_backend_buffer_ptr buf_;
    std::vector<Param> params_;
};

} // namespace train

int main() {
    train::Trainer tr(6, 2);
    std::printf("training on %s\n", tr.backend_name());
    std::printf("w[0] = %.3f\n", tr.peek_first_weight());
    return 0;
}
