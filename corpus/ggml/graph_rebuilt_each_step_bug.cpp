// The same rebuilt-graph decoder, but the step fills the input it finds by name before the
// scheduler allocated this step's graph: the lookup finds this step's "x", which has no
// buffer yet.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include <vector>
struct Dec {
    ggml_backend_t be;
    ggml_backend_sched_ptr sched_;
    ggml_context_ptr ctx_;
    std::vector<uint8_t> meta_;
    ggml_cgraph *build() {
        ggml_init_params ip = {meta_.size(), meta_.data(), true};
        ctx_.reset(ggml_init(ip));
        ggml_context *c = ctx_.get();
        ggml_cgraph *gf = ggml_new_graph_custom(c, 1024, false);
        ggml_tensor *x = ggml_new_tensor_1d(c, GGML_TYPE_F32, 4);
        ggml_set_name(x, "x");
        ggml_set_input(x);
        ggml_tensor *y = ggml_scale(c, x, 2.0f);
        ggml_set_name(y, "y");
        ggml_build_forward_expand(gf, y);
        return gf;
    }
    Dec(ggml_backend_t b) : be(b) {
        ggml_backend_t arr[1] = {b};
        sched_.reset(ggml_backend_sched_new(arr, nullptr, 1, 1024, false, true));
        meta_.resize(ggml_tensor_overhead() * 1024 + ggml_graph_overhead_custom(1024, false));
        ggml_backend_sched_reserve(sched_.get(), build());
    }
    void step(const std::vector<float> &x) {
        ggml_backend_sched_reset(sched_.get());
        ggml_cgraph *gf = build();
        ggml_backend_tensor_set(ggml_graph_get_tensor(gf, "x"), x.data(), 0, x.size() * sizeof(float)); // expect-error: ggml-buffer-not-set
        if (!ggml_backend_sched_alloc_graph(sched_.get(), gf)) return;
        ggml_backend_sched_graph_compute(sched_.get(), gf);
    }
};
int main() {
    ggml_backend_t b = ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_CPU, nullptr);
    Dec d(b);
    std::vector<float> x(4, 1.0f);
    d.step(x);
    d.step(x);
    return 0;
}
