// corpus/ggml/device_registry_accessor_bug.cpp — a model loader that picks its device through
// the registry (ggml_backend_dev_by_type(GPU), ggml_backend_dev_init) and allocates its
// weights in the device's buffer type. Bug: the bias is filled with ggml_set_f32, a host
// accessor (ggml-cpu.h) that writes tensor->data: device memory here.
#include <cstdio>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

struct linear_model {
  ggml_backend_dev_t dev = nullptr;
  ggml_backend_t backend = nullptr;
  ggml_context *ctx = nullptr;
  ggml_backend_buffer_t weights = nullptr;
  ggml_tensor *w = nullptr;
  ggml_tensor *b = nullptr;
};

static bool model_load(linear_model &m, int n_in, int n_out) {
  m.dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
  if (!m.dev) {
    std::fprintf(stderr, "no GPU device\n");
    return false;
  }
  m.backend = ggml_backend_dev_init(m.dev, nullptr);
  ggml_init_params params = {ggml_tensor_overhead() * 2, nullptr, true};
  m.ctx = ggml_init(params);
  m.w = ggml_new_tensor_2d(m.ctx, GGML_TYPE_F32, n_in, n_out);
  m.b = ggml_new_tensor_1d(m.ctx, GGML_TYPE_F32, n_out);
  ggml_backend_buffer_type_t buft = ggml_backend_dev_buffer_type(m.dev);
  m.weights = ggml_backend_alloc_ctx_tensors_from_buft(m.ctx, buft);
  std::vector<float> w(n_in * n_out, 0.5f);
  ggml_backend_tensor_set(m.w, w.data(), 0, ggml_nbytes(m.w));
  ggml_set_f32(m.b, 0.0f); // expect-error: ggml-host-access
  return true;
}

int main() {
  linear_model m;
  if (!model_load(m, 16, 4)) return 1;
  ggml_backend_buffer_free(m.weights);
  ggml_free(m.ctx);
  ggml_backend_free(m.backend);
  return 0;
}
