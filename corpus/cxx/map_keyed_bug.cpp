// corpus/cxx/map_keyed_bug.cpp — a layer keeps its tensors in a std::map keyed by name: the
// weight is trainable (autodiff<cpu>), the bias and the running mean are plain cpu buffers.
// Three entries that differ used to collapse the map to unknown; each constant key is now an
// element of its own, so forward() adding the plain bias to the autodiff weight is caught.
// Bug: autodiff-expected.
#include <cstdio>
#include <map>
#include <string>

#include <dt/dt.h>

static const int64_t kShape[2] = {2, 2};

class Norm {
 public:
  explicit Norm(dt_device ad) {
    tensors_["weight"] = dt_require_grad(dt_randn(ad, 7, 2, kShape));
    tensors_["bias"] = dt_zeros(dt_inner_device(ad), DT_FLOAT, 2, kShape);
    tensors_["running_mean"] = dt_zeros(dt_inner_device(ad), DT_FLOAT, 2, kShape);
  }
  ~Norm() {
    for (auto &[name, t] : tensors_) dt_free(t);
  }
  dt_tensor *forward() const {
    return dt_add(tensors_.at("weight"), tensors_.at("bias")); // expect-error: autodiff-expected
  }

 private:
  std::map<std::string, dt_tensor *> tensors_;
};

int main() {
  Norm n(dt_autodiff(dt_cpu()));
  dt_tensor *y = n.forward();
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  return 0;
}
