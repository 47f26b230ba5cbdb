// corpus/ggml/std_copy_device_data_bug.cpp — logits computed on CUDA device 0 are read back
// into a host vector with std::copy_n over the tensor's data pointer. Bug: the data pointer is
// device memory (std::copy_n, std::copy and std::vector's range constructor read through it on
// the host); ggml_backend_tensor_get is the copy that works on every backend.
#include <algorithm>
#include <vector>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

int main() {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  ggml_init_params params = {ggml_tensor_overhead() * 4, nullptr, true};
  ggml_context *ctx = ggml_init(params);
  ggml_tensor *logits = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 16);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, gpu);
  ggml_backend_tensor_memset(logits, 0, 0, ggml_nbytes(logits));
  std::vector<float> out(16);
  const float *p = static_cast<const float *>(ggml_get_data(logits));
  std::copy_n(p, 16, out.begin()); // expect-error: ggml-host-access
  std::vector<float> scores(p, p + 16); // expect-error: ggml-host-access
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  ggml_backend_free(gpu);
  return out[0] == 0.0f && scores[0] == 0.0f ? 0 : 1;
}
