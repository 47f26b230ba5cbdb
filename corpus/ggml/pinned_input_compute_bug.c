// corpus/ggml/pinned_input_compute_bug.c — the same encoder with its input batch in plain CPU memory
// (ggml_backend_cpu_buffer_type) instead of the GPU's pinned host buffer type: the host fills it
// in place, but the graph computed on the GPU cannot read plain host memory: a backend
// mismatch at the compute.
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

#define N_IN 8
#define N_OUT 4

struct encoder {
  struct ggml_context *wctx, *ictx;
  ggml_backend_buffer_t wbuf, ibuf;
  struct ggml_tensor *proj, *input;
};

static ggml_backend_buffer_type_t staging_type(ggml_backend_dev_t dev) {
  (void)dev; /* host memory the host can fill, but not the device's pinned memory */
  return ggml_backend_cpu_buffer_type();
}

static int encoder_init(struct encoder *enc, ggml_backend_dev_t dev) {
  struct ggml_init_params wp = {ggml_tensor_overhead(), NULL, true};
  enc->wctx = ggml_init(wp);
  enc->proj = ggml_new_tensor_2d(enc->wctx, GGML_TYPE_F32, N_IN, N_OUT);
  enc->wbuf = ggml_backend_alloc_ctx_tensors_from_buft(enc->wctx, ggml_backend_dev_buffer_type(dev));
  struct ggml_init_params ip = {ggml_tensor_overhead(), NULL, true};
  enc->ictx = ggml_init(ip);
  enc->input = ggml_new_tensor_1d(enc->ictx, GGML_TYPE_F32, N_IN);
  enc->ibuf = ggml_backend_alloc_ctx_tensors_from_buft(enc->ictx, staging_type(dev));
  if (!enc->wbuf || !enc->ibuf) return 0;
  float w[N_IN * N_OUT];
  for (int i = 0; i < N_IN * N_OUT; i++) w[i] = (float)(i % 3);
  ggml_backend_tensor_set(enc->proj, w, 0, sizeof w);
  return 1;
}

int main(void) {
  ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
  if (!dev) return 0;
  ggml_backend_t gpu = ggml_backend_dev_init(dev, NULL);
  struct encoder enc;
  if (!encoder_init(&enc, dev)) return 1;
  float x[N_IN];
  for (int i = 0; i < N_IN; i++) x[i] = 0.5f * (float)i;
  memcpy(enc.input->data, x, sizeof x); /* pinned host memory: the host writes it in place */

  struct ggml_init_params gp = {8 * ggml_tensor_overhead() + ggml_graph_overhead(), NULL, true};
  struct ggml_context *gctx = ggml_init(gp);
  struct ggml_tensor *y = ggml_relu(gctx, ggml_mul_mat(gctx, enc.proj, enc.input));
  struct ggml_cgraph *gf = ggml_new_graph(gctx);
  ggml_build_forward_expand(gf, y);
  ggml_gallocr_t ga = ggml_gallocr_new(ggml_backend_get_default_buffer_type(gpu));
  if (!ggml_gallocr_alloc_graph(ga, gf)) return 1;
  if (ggml_backend_graph_compute(gpu, gf) != GGML_STATUS_SUCCESS) return 1; // expect-error: ggml-backend-mismatch
  float out[N_OUT];
  ggml_backend_tensor_get(y, out, 0, sizeof out);
  printf("y[0]=%.2f\n", out[0]);

  ggml_gallocr_free(ga);
  ggml_free(gctx);
  ggml_backend_buffer_free(enc.ibuf);
  ggml_backend_buffer_free(enc.wbuf);
  ggml_free(enc.ictx);
  ggml_free(enc.wctx);
  ggml_backend_free(gpu);
  return 0;
}
