// corpus/ggml/gallocr_multi_buft_warn.c — a graph allocator over two buffer types
// (ggml_gallocr_new_n: the GPU's, then the CPU's), reserved once with ggml_gallocr_reserve_n
// when the caller asks for a fixed worst-case size, then allocated for each step. Which buffer
// a node lands in is the allocator's choice (one of the two buffer types), but the caller reads
// the output straight from out->data, as if the CPU's buffer type had been the only one. A
// warning; in the run every node lands in the first buffer type, the GPU's.
#include <stdio.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#define N 8

static float first_output(const struct ggml_tensor * out) {
    return ((const float *) out->data)[0]; // expect-warning: ggml-host-access
}

int main(int argc, char ** argv) {
    ggml_backend_t gpu = ggml_backend_cuda_init(0);
    if (!gpu) return 1;
    ggml_backend_t cpu = ggml_backend_cpu_init();
    float feats[N];
    for (int i = 0; i < N; i++) feats[i] = 1.0f + (float) i;

    ggml_backend_buffer_type_t bufts[2] = { ggml_backend_get_default_buffer_type(gpu),
                                            ggml_backend_get_default_buffer_type(cpu) };
    ggml_gallocr_t ga = ggml_gallocr_new_n(bufts, 2);
    for (int step = 0; step < 2; step++) {
        struct ggml_init_params gp = { 8 * ggml_tensor_overhead() + ggml_graph_overhead(), NULL, true };
        struct ggml_context * gctx = ggml_init(gp);
        struct ggml_cgraph * gf = ggml_new_graph(gctx);
        struct ggml_tensor * x = ggml_new_tensor_1d(gctx, GGML_TYPE_F32, N);
        ggml_set_input(x);
        struct ggml_tensor * out = ggml_scale(gctx, ggml_relu(gctx, x), 0.5f * (float) (step + 1));
        ggml_build_forward_expand(gf, out);
        if (argc > 1 && step == 0) {
            int ids[8] = { 0 };
            if (!ggml_gallocr_reserve_n(ga, gf, ids, ids)) return 1;
        }
        if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;
        ggml_backend_tensor_set(x, feats, 0, sizeof feats);
        ggml_backend_graph_compute(gpu, gf);
        printf("step %d: out[0] = %.2f\n", step, first_output(out));
        ggml_free(gctx);
    }
    ggml_gallocr_free(ga);
    ggml_backend_free(cpu);
    ggml_backend_free(gpu);
    return 0;
}
