// corpus/ggml/view_src_host_guard_clean.c — reads one element of a view of the weights, on
// CUDA device 0 when asked (--gpu) and on the CPU otherwise, through ggml_get_f32_1d only when
// the memory the view belongs to (t->view_src, else t) is host memory, and through
// ggml_backend_tensor_get elsewhere. Clean: a view lives in its source's buffer.
// run-args: --gpu
#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

static float first_element(const struct ggml_tensor *t) {
  const struct ggml_tensor *owner = t->view_src ? t->view_src : t;
  if (owner->buffer && ggml_backend_buffer_is_host(owner->buffer)) return ggml_get_f32_1d(t, 0);
  float v = 0;
  ggml_backend_tensor_get(t, &v, 0, sizeof v);
  return v;
}

int main(int argc, char **argv) {
  int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  ggml_backend_t be = gpu ? ggml_backend_cuda_init(0) : ggml_backend_cpu_init();
  if (!be) return 1;
  struct ggml_init_params params = {ggml_tensor_overhead() * 4, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *w = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 8, 4);
  struct ggml_tensor *row = ggml_view_1d(ctx, w, 8, 0);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, be);
  ggml_backend_tensor_memset(w, 0, 0, ggml_nbytes(w));
  printf("%f %f\n", first_element(w), first_element(row));
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  ggml_backend_free(be);
  return 0;
}
