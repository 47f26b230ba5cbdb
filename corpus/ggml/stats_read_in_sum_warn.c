// corpus/ggml/stats_read_in_sum_warn.c — prints the mean of a weight tensor placed on CUDA
// device 0 with --gpu and on the CPU otherwise. Bug: the mean is summed on the host through
// t->data (`sum += w[i]`, a read inside a compound assignment), device memory on the --gpu
// path (a warning: the flag decides).
// run-args: --gpu
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

static double mean(const struct ggml_tensor *t) {
  const float *w = (const float *)t->data;
  double sum = 0.0;
  for (int64_t i = 0; i < ggml_nelements(t); i++) sum += w[i]; // expect-warning: ggml-host-access
  return sum / (double)ggml_nelements(t);
}

int main(int argc, char **argv) {
  int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  ggml_backend_t be = gpu ? ggml_backend_cuda_init(0) : ggml_backend_cpu_init();
  if (!be) return 1;
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *w = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 64);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, be);
  ggml_backend_tensor_memset(w, 0, 0, ggml_nbytes(w));
  printf("%f\n", mean(w));
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  ggml_backend_free(be);
  return 0;
}
