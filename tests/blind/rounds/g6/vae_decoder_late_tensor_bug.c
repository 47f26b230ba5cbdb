// provenance: blind round g6
// A stable-diffusion style VAE decoder post-conv block. The loader allocates the weights
// context on the GPU, then remembers the optional "post_quant_conv" bias and adds it to
// the same context afterwards.
#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vae_hparams {
    int z_channels;
    int ch;
    int hw;
};

struct vae_decoder {
    struct vae_hparams hp;
    struct ggml_tensor *pq_w;
    struct ggml_tensor *pq_b;
    struct ggml_tensor *out_w;
    struct ggml_tensor *out_b;
    struct ggml_context *ctx;
    ggml_backend_buffer_t buf;
    ggml_backend_t backend;
};

static ggml_backend_t open_device(void) {
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
    if (!dev) dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    struct ggml_backend_dev_props props;
    ggml_backend_dev_get_props(dev, &props);
    printf("device %s: %zu MiB free\n", props.name, props.memory_free / (1024 * 1024));
    return ggml_backend_dev_init(dev, NULL);
}

static void set_values(struct ggml_tensor *t, float base) {
    size_t n = (size_t)ggml_nelements(t);
    float *v = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) v[i] = base + 0.001f * (float)(i % 97);
    ggml_backend_tensor_set(t, v, 0, n * sizeof(float));
    free(v);
}

static int vae_load(struct vae_decoder *d, ggml_backend_t backend, int with_pq_bias) {
    const struct vae_hparams *hp = &d->hp;
    struct ggml_init_params ip = {ggml_tensor_overhead() * 8, NULL, true};
    d->ctx = ggml_init(ip);
    d->backend = backend;
    d->pq_w = ggml_new_tensor_2d(d->ctx, GGML_TYPE_F32, hp->z_channels, hp->z_channels);
    d->out_w = ggml_new_tensor_2d(d->ctx, GGML_TYPE_F32, hp->z_channels, hp->ch);
    d->out_b = ggml_new_tensor_1d(d->ctx, GGML_TYPE_F32, hp->ch);
    ggml_set_name(d->pq_w, "post_quant_conv.weight");
    ggml_set_name(d->out_w, "decoder.conv_out.weight");
    ggml_set_name(d->out_b, "decoder.conv_out.bias");
    d->buf = ggml_backend_alloc_ctx_tensors(d->ctx, backend);
    if (!d->buf) return 0;
    set_values(d->pq_w, -0.05f);
    set_values(d->out_w, 0.01f);
    set_values(d->out_b, 0.0f);

    d->pq_b = NULL;
    if (with_pq_bias) {
        d->pq_b = ggml_new_tensor_1d(d->ctx, GGML_TYPE_F32, hp->z_channels);
        ggml_set_name(d->pq_b, "post_quant_conv.bias");
        float bias[16];
        for (int c = 0; c < hp->z_channels && c < 16; c++) bias[c] = 0.1f * (float)c;
        ggml_backend_tensor_set(d->pq_b, bias, 0, ggml_nbytes(d->pq_b)); // expect-error: ggml-buffer-not-set
    }
    return 1;
}

static struct ggml_cgraph *vae_graph(struct ggml_context *ctx, const struct vae_decoder *d) {
    const struct vae_hparams *hp = &d->hp;
    struct ggml_cgraph *gf = ggml_new_graph(ctx);
    struct ggml_tensor *z = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, hp->z_channels, hp->hw * hp->hw);
    ggml_set_name(z, "latent");
    ggml_set_input(z);
    struct ggml_tensor *h = ggml_mul_mat(ctx, d->pq_w, z);
    if (d->pq_b) h = ggml_add(ctx, h, d->pq_b);
    h = ggml_silu(ctx, h);
    h = ggml_add(ctx, ggml_mul_mat(ctx, d->out_w, h), d->out_b);
    h = ggml_tanh(ctx, h);
    h = ggml_reshape_3d(ctx, h, hp->ch, hp->hw, hp->hw);
    h = ggml_cont(ctx, ggml_permute(ctx, h, 2, 0, 1, 3)); // channels-first image
    ggml_set_name(h, "image");
    ggml_set_output(h);
    ggml_build_forward_expand(gf, h);
    return gf;
}

/* writes the decoded image as a binary PPM (values in [-1, 1]) */
static int write_ppm(const char *path, const float *chw, int c, int h, int w) {
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fprintf(f, "P6\n%d %d\n255\n", w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int ch = 0; ch < 3; ch++) {
                float v = ch < c ? chw[(size_t)ch * h * w + (size_t)y * w + x] : 0.0f;
                int q = (int)((v + 1.0f) * 127.5f);
                fputc(q < 0 ? 0 : q > 255 ? 255 : q, f);
            }
    fclose(f);
    return 1;
}

static void channel_stats(const float *chw, int c, int hw) {
    for (int ch = 0; ch < c; ch++) {
        float lo = chw[(size_t)ch * hw], hi = lo;
        for (int i = 1; i < hw; i++) {
            float v = chw[(size_t)ch * hw + i];
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        printf("  channel %d: [%.3f, %.3f]\n", ch, lo, hi);
    }
}

int main(int argc, char **argv) {
    struct vae_decoder dec;
    memset(&dec, 0, sizeof dec);
    dec.hp.z_channels = 4;
    dec.hp.ch = 3;
    dec.hp.hw = argc > 1 ? atoi(argv[1]) : 8;
    if (dec.hp.hw < 1 || dec.hp.hw > 64) dec.hp.hw = 8;
    const int with_bias = 1; /* sd 1.x checkpoints always carry it */

    ggml_backend_t backend = open_device();
    if (!vae_load(&dec, backend, with_bias)) return 1;

    struct ggml_init_params gp = {ggml_tensor_overhead() * 32 + ggml_graph_overhead(), NULL, true};
    struct ggml_context *ctx0 = ggml_init(gp);
    struct ggml_cgraph *gf = vae_graph(ctx0, &dec);
    ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
    ggml_gallocr_reserve(ga, gf);
    ggml_gallocr_alloc_graph(ga, gf);

    struct ggml_tensor *z = ggml_graph_get_tensor(gf, "latent");
    size_t nz = (size_t)ggml_nelements(z);
    float *zh = malloc(nz * sizeof(float));
    for (size_t i = 0; i < nz; i++) zh[i] = (float)(i % 4) - 1.5f;
    ggml_backend_tensor_set(z, zh, 0, nz * sizeof(float));
    ggml_backend_graph_compute(backend, gf);

    struct ggml_tensor *img = ggml_graph_get_tensor(gf, "image");
    float px[3];
    ggml_backend_tensor_get(img, px, 0, sizeof px);
    float *all = malloc(ggml_nbytes(img));
    ggml_backend_tensor_get(img, all, 0, ggml_nbytes(img));
    channel_stats(all, dec.hp.ch, dec.hp.hw * dec.hp.hw);
    const char *out_path = getenv("VAE_OUT");
    if (out_path && !write_ppm(out_path, all, dec.hp.ch, dec.hp.hw, dec.hp.hw)) fprintf(stderr, "cannot write %s\n", out_path);
    free(all);
    printf("image %lld x %lld x %lld, first pixels %.3f %.3f %.3f\n", (long long)img->ne[0],
           (long long)img->ne[1], (long long)img->ne[2], px[0], px[1], px[2]);
    free(zh);
    ggml_gallocr_free(ga);
    ggml_free(ctx0);
    ggml_backend_buffer_free(dec.buf);
    ggml_free(dec.ctx);
    ggml_backend_free(backend);
    return 0;
}
