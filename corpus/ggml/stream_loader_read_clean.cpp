// corpus/ggml/stream_loader_read_clean.cpp — a weight loader that reads a little checkpoint from a
// std::istream (a file in the application; an in-memory stream here) straight into each
// tensor of a model allocated on the GPU. The fix of stream_loader_read_bug.cpp: the stream is
// read into a host vector, which ggml_backend_tensor_set copies to the device.
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cuda.h"

namespace {

struct Layer {
  ggml_tensor *weight = nullptr;
  ggml_tensor *bias = nullptr;
};

std::string make_checkpoint(size_t n_floats) {
  std::vector<float> v(n_floats);
  for (size_t i = 0; i < n_floats; i++) v[i] = 0.01f * static_cast<float>(i);
  return std::string(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float));
}

bool load_tensor(std::istream &in, ggml_tensor *t) {
  std::vector<char> host(ggml_nbytes(t));
  in.read(host.data(), static_cast<std::streamsize>(host.size()));
  if (!in) return false;
  ggml_backend_tensor_set(t, host.data(), 0, host.size());
  return true;
}

}  // namespace

int main() {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  if (!gpu) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  ggml_init_params params = {ggml_tensor_overhead() * 2, nullptr, true};
  ggml_context *ctx = ggml_init(params);
  Layer layer;
  layer.weight = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 4, 4);
  layer.bias = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, gpu);
  if (!buf) return 1;
  std::istringstream in(make_checkpoint(20));
  bool ok = load_tensor(in, layer.weight) && load_tensor(in, layer.bias);
  std::printf("loaded: %s\n", ok ? "yes" : "no");
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  ggml_backend_free(gpu);
  return ok ? 0 : 1;
}
