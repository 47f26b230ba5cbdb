// corpus/ggml/host_check_method_warn.cpp — a classifier class that owns its weights through
// ggml-cpp.h's smart pointers, on the device ggml_backend_init_best picks. A member function
// answers whether the weights are in host memory, but the statistics method has the test the
// wrong way round: it reads the data pointer when the weights are *not* in host memory. A
// warning (the device is chosen at run time): on the GPU the read touches device memory.
#include <cstdio>
#include <vector>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpp.h"

class Classifier {
 public:
  explicit Classifier(int n_in) : n_in_(n_in) {
    backend_.reset(ggml_backend_init_best());
    ggml_init_params p = {ggml_tensor_overhead() * 2, nullptr, true};
    ctx_.reset(ggml_init(p));
    w_ = ggml_new_tensor_1d(ctx_.get(), GGML_TYPE_F32, n_in_);
    buf_.reset(ggml_backend_alloc_ctx_tensors(ctx_.get(), backend_.get()));
    std::vector<float> init(n_in_, 0.25f);
    ggml_backend_tensor_set(w_, init.data(), 0, init.size() * sizeof(float));
  }

  bool ok() const { return buf_ != nullptr; }
  bool weights_on_host() const { return ggml_backend_buffer_is_host(buf_.get()); }

  float first_weight() const {
    if (!weights_on_host()) return static_cast<const float *>(w_->data)[0]; // expect-warning: ggml-host-access
    float w0 = 0.0f;
    ggml_backend_tensor_get(w_, &w0, 0, sizeof w0);
    return w0;
  }

 private:
  int n_in_;
  ggml_backend_ptr backend_;
  ggml_context_ptr ctx_;
  ggml_backend_buffer_ptr buf_;
  ggml_tensor *w_ = nullptr;
};

int main() {
  Classifier clf(8);
  if (!clf.ok()) return 1;
  std::printf("w[0]=%.2f\n", clf.first_weight());
  return 0;
}
