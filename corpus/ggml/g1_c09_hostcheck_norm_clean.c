// corpus/ggml/g1_c09_hostcheck_norm_clean.c — from blind round g1 (c09_hostcheck_norm_clean.c, labelled by running it on real ggml and the emulated GPU): per-channel image normalisation with a learned affine map,
// on the device given by `--device N` (a CUDA index; -1 or nothing: the CPU). Every host
// access to tensor memory is guarded by ggml_backend_buffer_is_host: the loader copies
// straight into the buffer's base on the CPU and uses ggml_backend_tensor_set otherwise, and
// the result reader does the same with ggml_get_f32_1d / ggml_backend_tensor_get.
// run-args: --device 1
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#define W 6
#define H 4
#define C 3

struct affine {
    struct ggml_context * ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor * scale;   // [1, 1, C]
    struct ggml_tensor * shift;   // [1, 1, C]
};

static int parse_device(int argc, char ** argv) {
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--device") == 0) {
            return atoi(argv[i + 1]);
        }
    }
    return -1;
}

static ggml_backend_t open_backend(int device) {
    if (device >= 0 && device < ggml_backend_cuda_get_device_count()) {
        return ggml_backend_cuda_init(device);
    }
    return ggml_backend_cpu_init();
}

// the whole affine file is one blob: scale[C] then shift[C]
static void affine_load(struct affine * a, const float * blob) {
    if (ggml_backend_buffer_is_host(a->buf)) {
        char * base = ggml_backend_buffer_get_base(a->buf);
        memcpy(base + ((char *) a->scale->data - base), blob, C * sizeof(float));
        memcpy(a->shift->data, blob + C, C * sizeof(float));
    } else {
        ggml_backend_tensor_set(a->scale, blob, 0, C * sizeof(float));
        ggml_backend_tensor_set(a->shift, blob + C, 0, C * sizeof(float));
    }
}

static void affine_init(struct affine * a, ggml_backend_t backend) {
    struct ggml_init_params p = { 2 * ggml_tensor_overhead(), NULL, true };
    a->ctx = ggml_init(p);
    a->scale = ggml_new_tensor_3d(a->ctx, GGML_TYPE_F32, 1, 1, C);
    a->shift = ggml_new_tensor_3d(a->ctx, GGML_TYPE_F32, 1, 1, C);
    a->buf = ggml_backend_alloc_ctx_tensors(a->ctx, backend);
    const float blob[2 * C] = { 1.5f, 0.8f, 1.1f, 0.05f, -0.1f, 0.0f };
    affine_load(a, blob);
}

static float read_value(const struct ggml_tensor * t, int i) {
    const struct ggml_tensor * owner = t->view_src ? t->view_src : t;
    if (owner->buffer && ggml_backend_buffer_is_host(owner->buffer)) {
        return ggml_get_f32_1d(t, i);
    }
    float v = 0.0f;
    ggml_backend_tensor_get(t, &v, (size_t) i * sizeof(float), sizeof(float));
    return v;
}

int main(int argc, char ** argv) {
    ggml_backend_t backend = open_backend(parse_device(argc, argv));
    printf("backend %s\n", ggml_backend_name(backend));

    struct affine a;
    affine_init(&a, backend);

    struct ggml_init_params gp = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true };
    struct ggml_context * ctx = ggml_init(gp);
    struct ggml_tensor * img = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, W, H, C);
    ggml_set_input(img);
    struct ggml_tensor * flat = ggml_reshape_2d(ctx, img, W * H, C);
    struct ggml_tensor * normed = ggml_norm(ctx, flat, 1e-6f);                 // per channel
    struct ggml_tensor * back = ggml_reshape_3d(ctx, normed, W, H, C);
    struct ggml_tensor * out = ggml_add(ctx, ggml_mul(ctx, back, a.scale), a.shift);
    ggml_set_output(out);
    struct ggml_cgraph * gf = ggml_new_graph(ctx);
    ggml_build_forward_expand(gf, out);
    struct ggml_tensor * last_channel = ggml_view_1d(ctx, out, W * H, 2 * out->nb[2]);

    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);
    ggml_backend_view_init(last_channel);

    float pixels[W * H * C];
    for (int i = 0; i < W * H * C; i++) {
        pixels[i] = (float)((i * 37) % 255) / 255.0f;
    }
    ggml_backend_tensor_set(img, pixels, 0, sizeof(pixels));
    ggml_backend_graph_compute(backend, gf);

    for (int c = 0; c < C; c++) {
        printf("channel %d: first %.3f\n", c, read_value(out, c * W * H));
    }
    float s = 0.0f;
    for (int i = 0; i < W * H; i++) {
        s += read_value(last_channel, i);
    }
    printf("mean of channel 2: %.4f\n", s / (W * H));

    ggml_gallocr_free(ga);
    ggml_free(ctx);
    ggml_backend_buffer_free(a.buf);
    ggml_free(a.ctx);
    ggml_backend_free(backend);
    return 0;
}
