// VAE decoder tail, tiled the way stable-diffusion.cpp decodes large latents:
// each overlapping latent tile goes through a 1x1 conv stack and a 2x nearest upscale on the
// backend, and the tiles are blended on the host with linear weights in the overlap.
// run-env: SD_DEVICE=cuda1
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"
#include "ggml.h"

#define LAT_C 4
#define HID_C 16
#define IMG_C 3
#define LAT_W 10
#define LAT_H 6
#define TILE 4
#define OVERLAP 1

struct vae_decoder {
    struct ggml_context *ctx_w;
    ggml_backend_buffer_t buf_w;
    struct ggml_tensor *conv_in;   // [LAT_C, HID_C]
    struct ggml_tensor *conv_in_b; // [HID_C]
    struct ggml_tensor *conv_out;  // [HID_C, IMG_C]
    ggml_backend_t backend;
    ggml_gallocr_t galloc;
};

static ggml_backend_t pick_backend(void) {
    const char *dev = getenv("SD_DEVICE");
    if (dev && strcmp(dev, "cpu") == 0) return ggml_backend_cpu_init();
    if (dev && strncmp(dev, "cuda", 4) == 0) return ggml_backend_cuda_init(atoi(dev + 4));
    return ggml_backend_init_best();
}

static void upload_weight(struct ggml_tensor *t, const float *src) {
    if (ggml_backend_buffer_is_host(t->buffer)) {
        memcpy(t->data, src, ggml_nbytes(t));
    } else {
        ggml_backend_tensor_set(t, src, 0, ggml_nbytes(t));
    }
}

static void fill_pattern(float *dst, int n, float scale, int seed) {
    for (int i = 0; i < n; i++) dst[i] = scale * sinf(0.37f * (float)(i + 1) * (float)seed);
}

static int vae_init(struct vae_decoder *vae) {
    vae->backend = pick_backend();
    if (!vae->backend) return 1;
    struct ggml_init_params ip = {ggml_tensor_overhead() * 8, NULL, true};
    vae->ctx_w = ggml_init(ip);
    vae->conv_in = ggml_new_tensor_2d(vae->ctx_w, GGML_TYPE_F32, LAT_C, HID_C);
    vae->conv_in_b = ggml_new_tensor_1d(vae->ctx_w, GGML_TYPE_F32, HID_C);
    vae->conv_out = ggml_new_tensor_2d(vae->ctx_w, GGML_TYPE_F32, HID_C, IMG_C);
    ggml_set_name(vae->conv_in, "decoder.conv_in.weight");
    ggml_set_name(vae->conv_in_b, "decoder.conv_in.bias");
    ggml_set_name(vae->conv_out, "decoder.conv_out.weight");
    vae->buf_w = ggml_backend_alloc_ctx_tensors(vae->ctx_w, vae->backend);
    if (!vae->buf_w) return 1;
    ggml_backend_buffer_set_usage(vae->buf_w, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);

    float w_in[LAT_C * HID_C], b_in[HID_C], w_out[HID_C * IMG_C];
    fill_pattern(w_in, LAT_C * HID_C, 0.5f, 3);
    fill_pattern(b_in, HID_C, 0.1f, 5);
    fill_pattern(w_out, HID_C * IMG_C, 0.3f, 7);
    upload_weight(vae->conv_in, w_in);
    upload_weight(vae->conv_in_b, b_in);
    upload_weight(vae->conv_out, w_out);
    vae->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(vae->backend));
    return 0;
}

// latent tile [LAT_C, tw*th] -> image tile [2tw, 2th, IMG_C]
static struct ggml_cgraph *build_tile_graph(struct ggml_context *ctx, const struct vae_decoder *vae,
                                            int tw, int th) {
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *lat = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, LAT_C, tw * th);
    ggml_set_name(lat, "latent_tile");
    ggml_set_input(lat);
    struct ggml_tensor *h = ggml_mul_mat(ctx, vae->conv_in, lat);
    h = ggml_add(ctx, h, vae->conv_in_b);
    h = ggml_silu(ctx, h);
    h = ggml_mul_mat(ctx, vae->conv_out, h);              // [IMG_C, tw*th]
    h = ggml_reshape_3d(ctx, h, IMG_C, tw, th);
    h = ggml_cont(ctx, ggml_permute(ctx, h, 2, 0, 1, 3)); // [tw, th, IMG_C]
    h = ggml_upscale(ctx, h, 2, GGML_SCALE_MODE_NEAREST);
    h = ggml_tanh(ctx, h);
    ggml_set_name(h, "vae_out");
    ggml_set_output(h);
    ggml_build_forward_expand(gf, h);
    return gf;
}

static float blend_weight(int pos, int len, int at_start, int at_end) {
    const int ov = 2 * OVERLAP;
    float w = 1.0f;
    if (!at_start && pos < ov) w = (float)(pos + 1) / (float)(ov + 1);
    if (!at_end && pos >= len - ov) w = fminf(w, (float)(len - pos) / (float)(ov + 1));
    return w;
}

static int decode_tile(struct vae_decoder *vae, const float *latent, int x0, int y0, int tw, int th,
                       float *image, float *weight) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_cgraph *gf = build_tile_graph(ctx, vae, tw, th);
    if (!ggml_gallocr_alloc_graph(vae->galloc, gf)) return 1;

    float *tile = malloc(sizeof(float) * LAT_C * tw * th);
    for (int y = 0; y < th; y++)
        for (int x = 0; x < tw; x++)
            for (int c = 0; c < LAT_C; c++)
                tile[(y * tw + x) * LAT_C + c] = latent[((y0 + y) * LAT_W + (x0 + x)) * LAT_C + c];
    struct ggml_tensor *lat = ggml_graph_get_tensor(gf, "latent_tile");
    ggml_backend_tensor_set(lat, tile, 0, ggml_nbytes(lat));
    free(tile);

    if (ggml_backend_graph_compute(vae->backend, gf) != GGML_STATUS_SUCCESS) return 1;

    struct ggml_tensor *out = ggml_graph_get_tensor(gf, "vae_out");
    const int ow = 2 * tw, oh = 2 * th, W = 2 * LAT_W;
    float *px = malloc(ggml_nbytes(out));
    ggml_backend_tensor_get(out, px, 0, ggml_nbytes(out));
    for (int c = 0; c < IMG_C; c++) {
        for (int y = 0; y < oh; y++) {
            float wy = blend_weight(y, oh, y0 == 0, y0 + th == LAT_H);
            for (int x = 0; x < ow; x++) {
                float w = wy * blend_weight(x, ow, x0 == 0, x0 + tw == LAT_W);
                size_t dst = ((size_t)c * (2 * LAT_H) + (size_t)(2 * y0 + y)) * W + (size_t)(2 * x0 + x);
                image[dst] += w * px[((size_t)c * oh + y) * ow + x];
                weight[dst] += w;
            }
        }
    }
    free(px);
    ggml_free(ctx);
    return 0;
}

int main(void) {
    struct vae_decoder vae;
    if (vae_init(&vae)) {
        fprintf(stderr, "vae: init failed\n");
        return 1;
    }
    printf("vae: decoding on %s\n", ggml_backend_name(vae.backend));

    static float latent[LAT_H * LAT_W * LAT_C];
    fill_pattern(latent, LAT_H * LAT_W * LAT_C, 1.0f, 11);
    const size_t n_img = (size_t)IMG_C * 2 * LAT_H * 2 * LAT_W;
    float *image = calloc(n_img, sizeof(float));
    float *weight = calloc(n_img, sizeof(float));

    const int stride = TILE - OVERLAP;
    int n_tiles = 0;
    for (int y0 = 0; y0 < LAT_H; y0 += stride) {
        int th = y0 + TILE > LAT_H ? LAT_H - y0 : TILE;
        for (int x0 = 0; x0 < LAT_W; x0 += stride) {
            int tw = x0 + TILE > LAT_W ? LAT_W - x0 : TILE;
            if (decode_tile(&vae, latent, x0, y0, tw, th, image, weight)) {
                fprintf(stderr, "vae: tile (%d,%d) failed\n", x0, y0);
                return 1;
            }
            n_tiles++;
            if (x0 + tw == LAT_W) break;
        }
        if (y0 + th == LAT_H) break;
    }

    double sum = 0.0;
    for (size_t i = 0; i < n_img; i++) {
        if (weight[i] <= 0.0f) {
            fprintf(stderr, "vae: pixel %zu not covered\n", i);
            return 1;
        }
        image[i] /= weight[i];
        sum += image[i];
    }
    printf("vae: %d tiles, image %dx%d, mean %.5f\n", n_tiles, 2 * LAT_W, 2 * LAT_H, sum / (double)n_img);

    free(image);
    free(weight);
    ggml_gallocr_free(vae.galloc);
    ggml_backend_buffer_free(vae.buf_w);
    ggml_free(vae.ctx_w);
    ggml_backend_free(vae.backend);
    return 0;
}
