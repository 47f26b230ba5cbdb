// corpus/ggml/tensor_copy_types_clean.c — the fix of tensor_copy_types_bug.c: the
// staging tensor takes the cache's type (whichever the flag picked), and values are read back
// with ggml_backend_tensor_get instead of ggml_get_data_f32. No findings.
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

int main(int argc, char **argv) {
  struct ggml_init_params params = {16u << 20, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  ggml_backend_t backend = ggml_backend_cpu_init();
  enum ggml_type wt = GGML_TYPE_F32;
  if (argc > 1 && strcmp(argv[1], "--f16") == 0) wt = GGML_TYPE_F16;
  struct ggml_tensor *staging = ggml_new_tensor_2d(ctx, wt, 128, 32);
  struct ggml_tensor *cache = ggml_new_tensor_2d(ctx, wt, 128, 32);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, backend);

  ggml_backend_tensor_copy(staging, cache);
  static unsigned char host[128 * 32 * 4];
  ggml_backend_tensor_get(cache, host, 0, ggml_nbytes(cache));

  ggml_backend_buffer_free(buf);
  ggml_backend_free(backend);
  ggml_free(ctx);
  return 0;
}
