// CLIP image preprocessing and patch embedding (as clip.cpp does before the vision tower):
// an RGB8 image is resized bilinearly, normalized with CLIP's mean/std and cut into patches on
// the host; the patches are staged in the device's pinned host buffer (when it has one) and
// copied into the graph input; the graph embeds the patches, prepends the class embedding,
// adds position embeddings and normalizes.
// run-args: --device CUDA1 --size 20
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"

#define IMG 16
#define PATCH 4
#define N_PATCH ((IMG / PATCH) * (IMG / PATCH))
#define PATCH_DIM (PATCH * PATCH * 3)
#define N_EMBD 32

static const float clip_mean[3] = {0.48145466f, 0.4578275f, 0.40821073f};
static const float clip_std[3] = {0.26862954f, 0.26130258f, 0.27577711f};

struct vision_embd {
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    struct ggml_tensor *patch_w;   // [PATCH_DIM, N_EMBD]
    struct ggml_tensor *class_emb; // [N_EMBD, 1]
    struct ggml_tensor *pos_emb;   // [N_EMBD, N_PATCH + 1]
    struct ggml_tensor *stage;     // [PATCH_DIM, N_PATCH] host-visible staging
    ggml_backend_buffer_t stage_buf;
};

static void resize_bilinear(const uint8_t *src, int sw, int sh, float *dst) {
    for (int y = 0; y < IMG; y++) {
        float fy = ((float)y + 0.5f) * (float)sh / IMG - 0.5f;
        int y0 = fy < 0 ? 0 : (int)fy, y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
        float wy = fy - (float)y0;
        if (wy < 0) wy = 0;
        for (int x = 0; x < IMG; x++) {
            float fx = ((float)x + 0.5f) * (float)sw / IMG - 0.5f;
            int x0 = fx < 0 ? 0 : (int)fx, x1 = x0 + 1 < sw ? x0 + 1 : sw - 1;
            float wx = fx - (float)x0;
            if (wx < 0) wx = 0;
            for (int c = 0; c < 3; c++) {
                float a = src[(y0 * sw + x0) * 3 + c], b = src[(y0 * sw + x1) * 3 + c];
                float d = src[(y1 * sw + x0) * 3 + c], e = src[(y1 * sw + x1) * 3 + c];
                float v = (a * (1 - wx) + b * wx) * (1 - wy) + (d * (1 - wx) + e * wx) * wy;
                dst[(y * IMG + x) * 3 + c] = (v / 255.0f - clip_mean[c]) / clip_std[c];
            }
        }
    }
}

static void patchify(const float *img, float *patches) {
    const int per_row = IMG / PATCH;
    for (int p = 0; p < N_PATCH; p++) {
        int py = p / per_row, px = p % per_row, k = 0;
        for (int c = 0; c < 3; c++)
            for (int dy = 0; dy < PATCH; dy++)
                for (int dx = 0; dx < PATCH; dx++)
                    patches[p * PATCH_DIM + k++] = img[((py * PATCH + dy) * IMG + px * PATCH + dx) * 3 + c];
    }
}

static void fill(struct ggml_tensor *t, float scale) {
    size_t n = (size_t)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) v[i] = scale * cosf(0.029f * (float)(i * 3 + 1));
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

static int vision_init(struct vision_embd *v, ggml_backend_dev_t dev, ggml_backend_t backend) {
    struct ggml_init_params ip = {ggml_tensor_overhead() * 4, NULL, true};
    v->ctx = ggml_init(ip);
    v->patch_w = ggml_new_tensor_2d(v->ctx, GGML_TYPE_F32, PATCH_DIM, N_EMBD);
    v->class_emb = ggml_new_tensor_2d(v->ctx, GGML_TYPE_F32, N_EMBD, 1);
    v->pos_emb = ggml_new_tensor_2d(v->ctx, GGML_TYPE_F32, N_EMBD, N_PATCH + 1);
    v->buf = ggml_backend_alloc_ctx_tensors(v->ctx, backend);
    if (!v->buf) return 1;
    fill(v->patch_w, 0.1f);
    fill(v->class_emb, 0.5f);
    fill(v->pos_emb, 0.02f);

    // the staging tensor lives in pinned host memory where the device offers it
    ggml_backend_buffer_type_t host_buft = ggml_backend_dev_host_buffer_type(dev);
    if (!host_buft) host_buft = ggml_backend_cpu_buffer_type();
    struct ggml_init_params sp = {ggml_tensor_overhead(), NULL, true};
    struct ggml_context *sctx = ggml_init(sp);
    v->stage = ggml_new_tensor_2d(sctx, GGML_TYPE_F32, PATCH_DIM, N_PATCH);
    v->stage_buf = ggml_backend_alloc_ctx_tensors_from_buft(sctx, host_buft);
    return v->stage_buf ? 0 : 1;
}

static void stage_patches(struct vision_embd *v, const float *patches) {
    if (ggml_backend_buffer_is_host(v->stage_buf)) {
        memcpy(v->stage->data, patches, ggml_nbytes(v->stage));
    } else {
        ggml_backend_tensor_set(v->stage, patches, 0, ggml_nbytes(v->stage));
    }
}

int main(int argc, char **argv) {
    const char *dev_name = NULL;
    int src_size = 24;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--device") == 0) dev_name = argv[i + 1];
        else if (strcmp(argv[i], "--size") == 0) src_size = atoi(argv[i + 1]);
    }
    if (src_size < 2 || src_size > 256) src_size = 24;
    ggml_backend_dev_t dev = dev_name ? ggml_backend_dev_by_name(dev_name)
                                      : ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!dev) dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    ggml_backend_t backend = ggml_backend_dev_init(dev, NULL);

    struct vision_embd v;
    if (vision_init(&v, dev, backend)) return 1;

    uint8_t *rgb = malloc((size_t)src_size * src_size * 3);
    for (int i = 0; i < src_size * src_size * 3; i++) rgb[i] = (uint8_t)((i * 37 + (i / 3) * 11) & 0xff);
    float img[IMG * IMG * 3], patches[N_PATCH * PATCH_DIM];
    resize_bilinear(rgb, src_size, src_size, img);
    patchify(img, patches);
    free(rgb);
    stage_patches(&v, patches);

    struct ggml_init_params gp = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx = ggml_init(gp);
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *inp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, PATCH_DIM, N_PATCH);
    ggml_set_input(inp);
    struct ggml_tensor *pos = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, N_PATCH + 1);
    ggml_set_input(pos);
    struct ggml_tensor *emb = ggml_mul_mat(ctx, v.patch_w, inp);        // [N_EMBD, N_PATCH]
    emb = ggml_concat(ctx, v.class_emb, emb, 1);                         // [N_EMBD, N_PATCH+1]
    emb = ggml_add(ctx, emb, ggml_get_rows(ctx, v.pos_emb, pos));
    emb = ggml_norm(ctx, emb, 1e-5f);
    ggml_set_name(emb, "pre_layrnorm");
    ggml_set_output(emb);
    ggml_build_forward_expand(gf, emb);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_alloc_graph(ga, gf);

    ggml_backend_tensor_copy(v.stage, inp);
    int32_t pos_ids[N_PATCH + 1];
    for (int i = 0; i <= N_PATCH; i++) pos_ids[i] = i;
    ggml_backend_tensor_set(pos, pos_ids, 0, sizeof pos_ids);
    ggml_backend_graph_compute(backend, gf);

    float out[N_EMBD * (N_PATCH + 1)];
    ggml_backend_tensor_get(ggml_graph_get_tensor(gf, "pre_layrnorm"), out, 0, sizeof out);
    double mean = 0, var = 0;
    for (int i = 0; i < N_EMBD; i++) mean += out[i];
    mean /= N_EMBD;
    for (int i = 0; i < N_EMBD; i++) var += (out[i] - mean) * (out[i] - mean);
    printf("clip: %s, src %dx%d -> %d patches, cls mean %.4f var %.4f\n", ggml_backend_dev_name(dev),
           src_size, src_size, N_PATCH, mean, var / N_EMBD);

    ggml_gallocr_free(ga);
    ggml_free(ctx);
    ggml_backend_buffer_free(v.stage_buf);
    ggml_backend_buffer_free(v.buf);
    ggml_free(v.ctx);
    ggml_backend_free(backend);
    return fabs(var / N_EMBD - 1.0) < 1e-2 ? 0 : 2;
}
