// provenance: blind round g9
// stable-diffusion.cpp-style first-stage decode: the sampler leaves its latent in a persistent
// F32 tensor on the GPU, the VAE decoder (post-quant conv, conv_in, two mid res-blocks,
// nearest upsample, norm_out, conv_out) has F16 kernels, and decode copies the latent into
// the decoder graph's input. The input tensor is made by the same helper as the kernels.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"
#include "ggml.h"

struct vae_params {
  enum ggml_type wtype; /* kernels; from the checkpoint ("--type f16") */
  int z_channels, ch, out_ch, n_groups;
  int lat_w, lat_h;
  float scale_factor;
};

struct resblock {
  struct ggml_tensor *norm1_w, *norm1_b, *conv1_w, *conv1_b;
  struct ggml_tensor *norm2_w, *norm2_b, *conv2_w, *conv2_b;
};

struct vae_decoder {
  struct vae_params hp;
  ggml_backend_t backend;
  struct ggml_context *ctx_w;
  ggml_backend_buffer_t buf_w;
  ggml_gallocr_t galloc;
  struct ggml_tensor *post_quant_w, *post_quant_b, *conv_in_w, *conv_in_b;
  struct resblock mid[2];
  struct ggml_tensor *up_w, *up_b, *norm_out_w, *norm_out_b, *conv_out_w, *conv_out_b;
};

struct sd_ctx {
  ggml_backend_t backend;
  struct vae_decoder vae;
  struct ggml_context *ctx_latent;
  ggml_backend_buffer_t buf_latent;
  struct ggml_tensor *x0; /* the sampler's result, [W, H, C, 1] */
};

static struct ggml_tensor *vae_new_tensor(struct vae_decoder *vae, struct ggml_context *ctx, int64_t ne0, int64_t ne1,
                                          int64_t ne2, int64_t ne3) {
  return ggml_new_tensor_4d(ctx, vae->hp.wtype, ne0, ne1, ne2, ne3);
}

static struct ggml_tensor *bias(struct ggml_context *ctx, int64_t c) {
  return ggml_new_tensor_4d(ctx, GGML_TYPE_F32, 1, 1, c, 1);
}

static void init_resblock(struct vae_decoder *vae, struct resblock *rb, int c) {
  rb->norm1_w = bias(vae->ctx_w, c);
  rb->norm1_b = bias(vae->ctx_w, c);
  rb->conv1_w = vae_new_tensor(vae, vae->ctx_w, 3, 3, c, c);
  rb->conv1_b = bias(vae->ctx_w, c);
  rb->norm2_w = bias(vae->ctx_w, c);
  rb->norm2_b = bias(vae->ctx_w, c);
  rb->conv2_w = vae_new_tensor(vae, vae->ctx_w, 3, 3, c, c);
  rb->conv2_b = bias(vae->ctx_w, c);
}

static void vae_init(struct vae_decoder *vae, const struct vae_params *hp, ggml_backend_t backend) {
  memset(vae, 0, sizeof *vae);
  vae->hp = *hp;
  vae->backend = backend;
  struct ggml_init_params p = {ggml_tensor_overhead() * 64, NULL, true};
  vae->ctx_w = ggml_init(p);
  const int c = hp->ch;
  vae->post_quant_w = vae_new_tensor(vae, vae->ctx_w, 1, 1, hp->z_channels, hp->z_channels);
  vae->post_quant_b = bias(vae->ctx_w, hp->z_channels);
  vae->conv_in_w = vae_new_tensor(vae, vae->ctx_w, 3, 3, hp->z_channels, c);
  vae->conv_in_b = bias(vae->ctx_w, c);
  for (int i = 0; i < 2; i++) init_resblock(vae, &vae->mid[i], c);
  vae->up_w = vae_new_tensor(vae, vae->ctx_w, 3, 3, c, c);
  vae->up_b = bias(vae->ctx_w, c);
  vae->norm_out_w = bias(vae->ctx_w, c);
  vae->norm_out_b = bias(vae->ctx_w, c);
  vae->conv_out_w = vae_new_tensor(vae, vae->ctx_w, 3, 3, c, hp->out_ch);
  vae->conv_out_b = bias(vae->ctx_w, hp->out_ch);
  vae->buf_w = ggml_backend_alloc_ctx_tensors(vae->ctx_w, backend);
  vae->galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(backend));
}

static void vae_load(struct vae_decoder *vae, uint32_t seed) {
  for (struct ggml_tensor *t = ggml_get_first_tensor(vae->ctx_w); t; t = ggml_get_next_tensor(vae->ctx_w, t)) {
    int64_t n = ggml_nelements(t);
    float *f = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      f[i] = ((float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f) * 0.3f;
    }
    if (t->type == GGML_TYPE_F16) {
      ggml_fp16_t *h = malloc((size_t)n * sizeof(ggml_fp16_t));
      ggml_fp32_to_fp16_row(f, h, n);
      ggml_backend_tensor_set(t, h, 0, ggml_nbytes(t));
      free(h);
    } else {
      ggml_backend_tensor_set(t, f, 0, ggml_nbytes(t));
    }
    free(f);
  }
}

static struct ggml_tensor *conv3x3(struct ggml_context *ctx, struct ggml_tensor *x, struct ggml_tensor *w, struct ggml_tensor *b) {
  int pad = (int)(w->ne[0] / 2);
  return ggml_add(ctx, ggml_conv_2d(ctx, w, x, 1, 1, pad, pad, 1, 1), b);
}

static struct ggml_tensor *group_norm(struct ggml_context *ctx, struct ggml_tensor *x, int n_groups, struct ggml_tensor *w,
                                      struct ggml_tensor *b) {
  return ggml_add(ctx, ggml_mul(ctx, ggml_group_norm(ctx, x, n_groups, 1e-6f), w), b);
}

static struct ggml_tensor *resblock_forward(struct ggml_context *ctx, const struct resblock *rb, struct ggml_tensor *x, int g) {
  struct ggml_tensor *h = ggml_silu(ctx, group_norm(ctx, x, g, rb->norm1_w, rb->norm1_b));
  h = conv3x3(ctx, h, rb->conv1_w, rb->conv1_b);
  h = ggml_silu(ctx, group_norm(ctx, h, g, rb->norm2_w, rb->norm2_b));
  h = conv3x3(ctx, h, rb->conv2_w, rb->conv2_b);
  return ggml_add(ctx, x, h);
}

/* latent [W, H, z, 1] on the device -> image [2W, 2H, out_ch] floats in [0, 1] on the host */
static int vae_decode(struct vae_decoder *vae, struct ggml_tensor *latent, float *image, size_t image_floats) {
  const struct vae_params *hp = &vae->hp;
  struct ggml_init_params p = {ggml_tensor_overhead() * 512 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);

  struct ggml_tensor *z = vae_new_tensor(vae, ctx, hp->lat_w, hp->lat_h, hp->z_channels, 1);
  ggml_set_name(z, "vae_z");
  ggml_set_input(z);
  struct ggml_tensor *h = ggml_scale(ctx, z, 1.0f / hp->scale_factor);
  h = ggml_add(ctx, ggml_conv_2d(ctx, vae->post_quant_w, h, 1, 1, 0, 0, 1, 1), vae->post_quant_b);
  h = conv3x3(ctx, h, vae->conv_in_w, vae->conv_in_b);
  for (int i = 0; i < 2; i++) h = resblock_forward(ctx, &vae->mid[i], h, hp->n_groups);
  h = conv3x3(ctx, ggml_upscale(ctx, h, 2, GGML_SCALE_MODE_NEAREST), vae->up_w, vae->up_b);
  h = ggml_silu(ctx, group_norm(ctx, h, hp->n_groups, vae->norm_out_w, vae->norm_out_b));
  h = conv3x3(ctx, h, vae->conv_out_w, vae->conv_out_b);
  h = ggml_clamp(ctx, ggml_scale_bias(ctx, h, 0.5f, 0.5f), 0.0f, 1.0f);
  ggml_set_output(h);
  ggml_build_forward_expand(gf, h);

  int ok = ggml_gallocr_alloc_graph(vae->galloc, gf) && (size_t)ggml_nelements(h) <= image_floats;
  if (ok) {
    ggml_backend_tensor_copy(latent, z); // expect-error: ggml-type-mismatch
    ok = ggml_backend_graph_compute(vae->backend, gf) == GGML_STATUS_SUCCESS;
  }
  if (ok) ggml_backend_tensor_get(h, image, 0, ggml_nbytes(h));
  ggml_free(ctx);
  return ok;
}

/* stands in for the sampler: x0 = noise * sigma, written into the persistent latent */
static void sample_latent(struct sd_ctx *sd, float sigma, uint32_t seed) {
  const struct vae_params *hp = &sd->vae.hp;
  struct ggml_init_params p = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
  struct ggml_context *ctx = ggml_init(p);
  struct ggml_cgraph *gf = ggml_new_graph(ctx);
  struct ggml_tensor *noise = ggml_new_tensor_4d(ctx, GGML_TYPE_F32, hp->lat_w, hp->lat_h, hp->z_channels, 1);
  ggml_set_input(noise);
  ggml_build_forward_expand(gf, ggml_cpy(ctx, ggml_scale(ctx, noise, sigma), sd->x0));
  ggml_gallocr_alloc_graph(sd->vae.galloc, gf);
  int64_t n = ggml_nelements(noise);
  float *buf = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    seed = seed * 747796405u + 2891336453u;
    buf[i] = (float)((seed >> 10) % 2000) / 1000.0f - 1.0f;
  }
  ggml_backend_tensor_set(noise, buf, 0, ggml_nbytes(noise));
  ggml_backend_graph_compute(sd->backend, gf);
  free(buf);
  ggml_free(ctx);
}

/* for the log line: how far the sampler's latent strays from the unit range */
static float latent_absmax(const struct ggml_tensor *t) {
  const float *d = ggml_get_data_f32(t);
  float m = 0.0f;
  for (int64_t i = 0; i < ggml_nelements(t); i++) m = fmaxf(m, fabsf(d[i])); // expect-error: ggml-host-access
  return m;
}

int main(int argc, char **argv) {
  (void)argv;
  struct vae_params hp = {GGML_TYPE_F16, 4, 16, 3, 4, 8, 8, 0.18215f};
  struct sd_ctx sd;
  memset(&sd, 0, sizeof sd);
  sd.backend = ggml_backend_cuda_init(0);
  if (!sd.backend) return 1;
  vae_init(&sd.vae, &hp, sd.backend);
  vae_load(&sd.vae, 7u);

  struct ggml_init_params p = {ggml_tensor_overhead() * 2, NULL, true};
  sd.ctx_latent = ggml_init(p);
  sd.x0 = ggml_new_tensor_4d(sd.ctx_latent, GGML_TYPE_F32, hp.lat_w, hp.lat_h, hp.z_channels, 1);
  ggml_set_name(sd.x0, "x0");
  sd.buf_latent = ggml_backend_alloc_ctx_tensors(sd.ctx_latent, sd.backend);

  size_t n_img = (size_t)hp.lat_w * 2 * hp.lat_h * 2 * hp.out_ch;
  float *image = malloc(n_img * sizeof(float));
  int n_images = argc > 1 ? 2 : 1;
  for (int i = 0; i < n_images; i++) {
    sample_latent(&sd, 0.8f + 0.1f * i, 99u + (uint32_t)i);
    if (!vae_decode(&sd.vae, sd.x0, image, n_img)) return 1;
    double mean = 0;
    for (size_t k = 0; k < n_img; k++) mean += image[k];
    printf("image %d: %dx%d, mean %.4f, latent |max| %.3f\n", i, hp.lat_w * 2, hp.lat_h * 2, mean / (double)n_img,
           (double)latent_absmax(sd.x0));
  }

  free(image);
  ggml_backend_buffer_free(sd.buf_latent);
  ggml_free(sd.ctx_latent);
  ggml_gallocr_free(sd.vae.galloc);
  ggml_backend_buffer_free(sd.vae.buf_w);
  ggml_free(sd.vae.ctx_w);
  ggml_backend_free(sd.backend);
  return 0;
}
