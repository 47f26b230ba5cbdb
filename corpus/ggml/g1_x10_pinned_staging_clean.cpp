// corpus/ggml/g1_x10_pinned_staging_clean.cpp — from blind round g1 (x10_pinned_staging_clean.cpp, labelled by running it on real ggml and the emulated GPU): tiles of an image are mixed by a learned 2x2 channel map on
// the GPU. Inputs and outputs are staged in CUDA pinned host memory
// (ggml_backend_cuda_host_buffer_type, which is host memory), so the host writes the input
// tile and reads the result there directly; the weights are placed on the device with
// ggml_tallocr; reshape/permute views rearrange the tile inside the graph.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

namespace {

constexpr int kW = 4;
constexpr int kH = 3;
constexpr int kC = 2;

struct Staging {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * in = nullptr;    // [kW, kH, kC]
    ggml_tensor * out = nullptr;   // [kC, kW, kH]
};

struct Mixer {
    ggml_context_ptr ctx;
    ggml_backend_buffer_ptr buf;
    ggml_tensor * map = nullptr;   // [kC, kC]
};

void staging_init(Staging & s) {
    ggml_init_params p = { ggml_tensor_overhead() * 2, nullptr, true };
    s.ctx.reset(ggml_init(p));
    s.in = ggml_new_tensor_3d(s.ctx.get(), GGML_TYPE_F32, kW, kH, kC);
    s.out = ggml_new_tensor_3d(s.ctx.get(), GGML_TYPE_F32, kC, kW, kH);
    s.buf.reset(ggml_backend_alloc_ctx_tensors_from_buft(s.ctx.get(), ggml_backend_cuda_host_buffer_type()));
    if (!ggml_backend_buffer_is_host(s.buf.get())) throw std::runtime_error("pinned buffer is not host memory");
}

void mixer_init(Mixer & m, int device) {
    ggml_init_params p = { ggml_tensor_overhead(), nullptr, true };
    m.ctx.reset(ggml_init(p));
    m.map = ggml_new_tensor_2d(m.ctx.get(), GGML_TYPE_F32, kC, kC);
    ggml_backend_buffer_type_t buft = ggml_backend_cuda_buffer_type(device);
    const size_t size = ggml_backend_buft_get_alloc_size(buft, m.map) + ggml_backend_buft_get_alignment(buft);
    m.buf.reset(ggml_backend_buft_alloc_buffer(buft, size));
    ggml_tallocr ta = ggml_tallocr_new(m.buf.get());
    if (ggml_tallocr_alloc(&ta, m.map) != GGML_STATUS_SUCCESS) throw std::runtime_error("tallocr failed");
    const float map[kC * kC] = { 0.8f, 0.2f, -0.3f, 1.1f };
    ggml_backend_tensor_set(m.map, map, 0, sizeof(map));
}

// a synthetic image, cut into tiles of kW x kH with kC planes each
struct Image {
    int n_tiles;
    std::vector<float> data;

    explicit Image(int tiles) : n_tiles(tiles), data(static_cast<size_t>(tiles) * kW * kH * kC) {
        for (size_t i = 0; i < data.size(); ++i) data[i] = std::sin(0.4f * static_cast<float>(i));
    }
    const float * tile(int t) const { return data.data() + static_cast<size_t>(t) * kW * kH * kC; }
};

// per-channel means of an output tile, read straight from the pinned staging memory
void channel_means(const ggml_tensor * out, float * means) {
    const float * px = static_cast<const float *>(out->data);   // [kC, kW, kH]
    for (int c = 0; c < kC; ++c) {
        double s = 0.0;
        for (int i = 0; i < kW * kH; ++i) s += px[i * kC + c];
        means[c] = static_cast<float>(s / (kW * kH));
    }
}

int parse_int(const char * s, int fallback) {
    char * end = nullptr;
    const long v = s ? std::strtol(s, &end, 10) : fallback;
    return (s && end != s) ? static_cast<int>(v) : fallback;
}

} // namespace

int main(int argc, char ** argv) {
    const int device = parse_int(argc > 1 ? argv[1] : nullptr, 0);
    const int n_tiles = std::max(1, parse_int(argc > 2 ? argv[2] : nullptr, 2));
    const Image image(n_tiles);
    if (ggml_backend_cuda_get_device_count() <= device) {
        std::fprintf(stderr, "no CUDA device %d\n", device);
        return 1;
    }
    ggml_backend_ptr gpu(ggml_backend_cuda_init(device));
    Staging st;
    Mixer mx;
    staging_init(st);
    mixer_init(mx, device);

    ggml_init_params p = { ggml_tensor_overhead() * 32 + ggml_graph_overhead(), nullptr, true };
    ggml_context_ptr ctx(ggml_init(p));
    ggml_tensor * pix = ggml_cont(ctx.get(), ggml_permute(ctx.get(), st.in, 1, 2, 0, 3));   // [kC, kW, kH]
    ggml_tensor * flat = ggml_reshape_2d(ctx.get(), pix, kC, kW * kH);
    ggml_tensor * mixed = ggml_mul_mat(ctx.get(), mx.map, flat);                           // [kC, kW*kH]
    ggml_tensor * shaped = ggml_reshape_3d(ctx.get(), mixed, kC, kW, kH);
    ggml_cgraph * gf = ggml_new_graph(ctx.get());
    ggml_build_forward_expand(gf, ggml_cpy(ctx.get(), ggml_relu(ctx.get(), shaped), st.out));
    ggml_gallocr_ptr ga(ggml_gallocr_new(ggml_backend_cuda_buffer_type(device)));
    ggml_gallocr_alloc_graph(ga.get(), gf);

    for (int tile = 0; tile < image.n_tiles; ++tile) {
        std::memcpy(st.in->data, image.tile(tile), ggml_nbytes(st.in));
        ggml_backend_graph_compute(gpu.get(), gf);
        double sum = 0.0;
        for (int i = 0; i < kW * kH * kC; ++i) sum += ggml_get_f32_1d(st.out, i);
        std::printf("tile %d: sum %.4f, first pixel (%.3f, %.3f)\n", tile, sum, ggml_get_f32_1d(st.out, 0), ggml_get_f32_1d(st.out, 1));
        float means[kC];
        channel_means(st.out, means);
        std::printf("        channel means %.4f %.4f\n", means[0], means[1]);
    }
    return 0;
}
