/* corpus/ggml/graph_rebuilt_meta_bug.c — an encoder in the style of whisper.cpp: each step
 * builds its graph in a fresh no_alloc context over one host buffer of graph metadata, frees
 * that context before returning the graph (the metadata stays in the buffer), and finds the
 * graph's named input again with ggml_graph_get_tensor. A first build only reserves the
 * compute buffer. Bug: the step writes the input before the graph is allocated, so the
 * tensor has no buffer yet (each build's "mel" is its own tensor: reserving the first build
 * allocated none of the second's). */
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
  ggml_backend_tensor_set(mel, mel_host, 0, ggml_nbytes(mel)); // expect-error: ggml-buffer-not-set
  if (!ggml_gallocr_alloc_graph(enc->galloc, gf)) return 0;
  return out_host != NULL;
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) {
    fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  struct encoder enc;
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
  }
  ggml_gallocr_free(enc.galloc);
  free(enc.meta);
  ggml_backend_buffer_free(enc.buf_w);
  ggml_free(enc.ctx_w);
  ggml_backend_free(gpu);
  return 0;
}
