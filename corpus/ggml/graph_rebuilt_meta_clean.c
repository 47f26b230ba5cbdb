/* corpus/ggml/graph_rebuilt_meta_clean.c — graph_rebuilt_meta_bug.c fixed: each step
 * allocates its graph before it writes the named input, and reads the named output back with
 * ggml_backend_tensor_get (an earlier build's tensors of those names, in a freed context that
 * was only reserved, are not this graph's). */
#include <stdio.h>
#include <stdlib.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

#define N_MEL 8
#define N_STATE 4

struct encoder {
  struct ggml_context *ctx_w;
  ggml_backend_buffer_t buf_w;
  struct ggml_tensor *proj;
  void *meta;
  size_t meta_size;
  ggml_gallocr_t galloc;
  ggml_backend_t backend;
};

static struct ggml_cgraph *build_encoder(struct encoder *enc) {
  struct ggml_init_params params = {enc->meta_size, enc->meta, true};
  struct ggml_context *ctx0 = ggml_init(params);
  struct ggml_cgraph *gf = ggml_new_graph(ctx0);
  struct ggml_tensor *mel = ggml_new_tensor_1d(ctx0, GGML_TYPE_F32, N_MEL);
  ggml_set_name(mel, "mel");
  ggml_set_input(mel);
  struct ggml_tensor *out = ggml_gelu(ctx0, ggml_mul_mat(ctx0, enc->proj, mel));
  ggml_set_name(out, "enc_out");
  ggml_set_output(out);
  ggml_build_forward_expand(gf, out);
  ggml_free(ctx0);
  return gf;
}

static int encode(struct encoder *enc, const float *mel_host, float *out_host) {
  struct ggml_cgraph *gf = build_encoder(enc);
  struct ggml_tensor *mel = ggml_graph_get_tensor(gf, "mel");
  if (!ggml_gallocr_alloc_graph(enc->galloc, gf)) return 0;
  ggml_backend_tensor_set(mel, mel_host, 0, ggml_nbytes(mel));
  if (ggml_backend_graph_compute(enc->backend, gf) != GGML_STATUS_SUCCESS) return 0;
  struct ggml_tensor *out = ggml_graph_get_tensor(gf, "enc_out");
  ggml_backend_tensor_get(out, out_host, 0, ggml_nbytes(out));
  return 1;
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) {
    fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  struct encoder enc;
  enc.backend = gpu;
  struct ggml_init_params wp = {ggml_tensor_overhead() * 4, NULL, true};
  enc.ctx_w = ggml_init(wp);
  enc.proj = ggml_new_tensor_2d(enc.ctx_w, GGML_TYPE_F32, N_MEL, N_STATE);
  ggml_set_name(enc.proj, "enc.proj");
  enc.buf_w = ggml_backend_alloc_ctx_tensors(enc.ctx_w, gpu);
  float w[N_MEL * N_STATE];
  for (int i = 0; i < N_MEL * N_STATE; i++) w[i] = 0.01f * (float)i;
  ggml_backend_tensor_set(enc.proj, w, 0, sizeof w);

  enc.meta_size = ggml_tensor_overhead() * 32 + ggml_graph_overhead();
  enc.meta = malloc(enc.meta_size);
  enc.galloc = ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu));
  if (!ggml_gallocr_reserve(enc.galloc, build_encoder(&enc))) return 1;

  float mel[N_MEL], out[N_STATE];
  for (int step = 0; step < 2; step++) {
    for (int i = 0; i < N_MEL; i++) mel[i] = 0.1f * (float)(i + step);
    if (!encode(&enc, mel, out)) return 1;
    printf("step %d: %.4f\n", step, (double)out[0]);
  }
  ggml_gallocr_free(enc.galloc);
  free(enc.meta);
  ggml_backend_buffer_free(enc.buf_w);
  ggml_free(enc.ctx_w);
  ggml_backend_free(gpu);
  return 0;
}
