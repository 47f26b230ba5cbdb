// corpus/ggml/cond_decl_device_warn.cpp — a loader that takes the GPU when USE_GPU is set and
// one exists, written with C++ condition declarations (`if (T d = f()) return d;`), else the
// CPU. Bug: the weights are read back with memcpy from t->data, host memory only on the CPU
// path (a warning: the environment decides).
// run-env: USE_GPU=1
#include <cstdlib>
#include <cstring>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"

static ggml_backend_dev_t choose_device() {
  if (std::getenv("USE_GPU")) {
    if (ggml_backend_dev_t d = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_GPU)) return d;
  }
  return ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
}

int main() {
  ggml_backend_dev_t dev = choose_device();
  ggml_init_params params = {ggml_tensor_overhead() * 2, nullptr, true};
  ggml_context *ctx = ggml_init(params);
  ggml_tensor *t = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors_from_buft(ctx, ggml_backend_dev_buffer_type(dev));
  ggml_backend_tensor_memset(t, 0, 0, ggml_nbytes(t));
  float out[4];
  std::memcpy(out, t->data, sizeof out); // expect-warning: ggml-host-access
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  return (int)out[0];
}
