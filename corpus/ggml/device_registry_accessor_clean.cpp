// corpus/ggml/device_registry_accessor_clean.cpp — the fix of device_registry_accessor_bug.cpp:
// the device comes from the registry (a GPU if there is one, else the CPU), the weights go to
// the device's buffer type, and the bias is written with ggml_backend_tensor_set; the host
// accessors (ggml_set_f32, ggml_get_f32_1d) are used only on a tensor of a context that keeps
// its own memory.
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

static ggml_backend_dev_t pick_device() {
  ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU);
  if (!dev) dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
  return dev;
}

static void model_load(linear_model &m, int n_in, int n_out, float bias) {
  m.dev = pick_device();
  m.backend = ggml_backend_dev_init(m.dev, nullptr);
  ggml_init_params params = {ggml_tensor_overhead() * 2, nullptr, true};
  m.ctx = ggml_init(params);
  m.w = ggml_new_tensor_2d(m.ctx, GGML_TYPE_F32, n_in, n_out);
  m.b = ggml_new_tensor_1d(m.ctx, GGML_TYPE_F32, n_out);
  m.weights = ggml_backend_alloc_ctx_tensors_from_buft(m.ctx, ggml_backend_dev_buffer_type(m.dev));
  std::vector<float> w(n_in * n_out, 0.5f), b(n_out, bias);
  ggml_backend_tensor_set(m.w, w.data(), 0, ggml_nbytes(m.w));
  ggml_backend_tensor_set(m.b, b.data(), 0, ggml_nbytes(m.b));
}

int main() {
  ggml_init_params host_params = {16 * 1024, nullptr, false};
  ggml_context *host = ggml_init(host_params);
  ggml_tensor *scale = ggml_new_tensor_1d(host, GGML_TYPE_F32, 1);
  ggml_set_f32(scale, 0.25f);
  linear_model m;
  model_load(m, 16, 4, ggml_get_f32_1d(scale, 0));
  ggml_backend_buffer_free(m.weights);
  ggml_free(m.ctx);
  ggml_backend_free(m.backend);
  ggml_free(host);
  return 0;
}
