// corpus/ggml/best_backend_bias_warn.cpp — a classifier head on whatever backend
// ggml_backend_init_best() gives: the first GPU, else an integrated GPU, else the CPU
// (ggml-backend-reg.cpp). The bias is then filled with ggml_set_f32, a host accessor: right on
// the CPU, device memory on a GPU. Which one is decided at run time: a warning.
#include <cstdio>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

namespace {

struct Head {
  ggml_backend_t backend = nullptr;
  ggml_context *ctx = nullptr;
  ggml_backend_buffer_t buf = nullptr;
  ggml_tensor *bias = nullptr;
};

bool head_init(Head &h, int n_out) {
  h.backend = ggml_backend_init_best();
  if (!h.backend) return false;
  ggml_init_params params = {ggml_tensor_overhead() * 2, nullptr, true};
  h.ctx = ggml_init(params);
  h.bias = ggml_new_tensor_1d(h.ctx, GGML_TYPE_F32, n_out);
  h.buf = ggml_backend_alloc_ctx_tensors(h.ctx, h.backend);
  return h.buf != nullptr;
}

void head_reset(Head &h) {
  ggml_set_f32(h.bias, 0.0f); // expect-warning: ggml-host-access
}

}  // namespace

int main() {
  Head h;
  if (!head_init(h, 4)) {
    std::fprintf(stderr, "no backend\n");
    return 1;
  }
  head_reset(h);
  std::printf("%s\n", ggml_backend_name(h.backend));
  ggml_backend_buffer_free(h.buf);
  ggml_free(h.ctx);
  ggml_backend_free(h.backend);
  return 0;
}
