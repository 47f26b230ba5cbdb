// corpus/ggml/tensor_copy_types_bug.c — a KV cache kept in f16 on a backend, refreshed
// from an f32 staging tensor; one precision is chosen from the command line. Bug:
// ggml_backend_tensor_copy asserts identical layouts (same type): an error when the cache is
// always f16, a warning where only the --f16 path copies across types. ggml_get_data_f32 of an
// f16 tensor is the same mistake on the host side.
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

int main(int argc, char **argv) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  ggml_backend_t backend = ggml_backend_cpu_init();
  struct ggml_tensor *staging = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 128, 32);
  struct ggml_tensor *cache = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, 128, 32);
  enum ggml_type wt = GGML_TYPE_F32;
  if (argc > 1 && strcmp(argv[1], "--f16") == 0) wt = GGML_TYPE_F16;
  struct ggml_tensor *w = ggml_new_tensor_2d(ctx, wt, 128, 32);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, backend);

  ggml_backend_tensor_copy(staging, cache); // expect-error: ggml-type-mismatch
  ggml_backend_tensor_copy(staging, w); // expect-warning: ggml-type-mismatch
  float *host = ggml_get_data_f32(cache); // expect-error: ggml-type-mismatch
  (void)host;

  ggml_backend_buffer_free(buf);
  ggml_backend_free(backend);
  ggml_free(ctx);
  return 0;
}
