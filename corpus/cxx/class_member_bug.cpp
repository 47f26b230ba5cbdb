// corpus/cxx/class_member_bug.cpp — a layer class: the constructor's member initializers put
// the device and the weights on sim:1, forward() reads them through the implicit `this`. The
// caller feeds a batch built on the host. Bug: backend-mismatch inside the member function.
#include <cstdio>

#include <dt/dt.h>

namespace nn {

class Linear {
 public:
  Linear(dt_device dev, int64_t in, int64_t out) : dev_(dev), shape_{in, out} {
    w_ = dt_randn(dev_, 7, 2, shape_);
  }
  ~Linear() { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) const { return dt_matmul(x, w_); } // expect-error: backend-mismatch
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  int64_t shape_[2];
  dt_tensor *w_ = nullptr;
};

}  // namespace nn

int main() {
  nn::Linear layer(dt_sim(1), 4, 3);
  const int64_t xs[2] = {2, 4};
  dt_tensor *x = dt_ones(dt_cpu(), DT_FLOAT, 2, xs);
  dt_tensor *y = layer.forward(x);
  std::printf("%lld\n", (long long)dt_numel(y));
  dt_free(y);
  dt_free(x);
  return 0;
}
