// corpus/cxx/class_member_clean.cpp — the same layer, but forward() guards its input: a tensor
// not on the layer's device is moved there first (dt_device_equal in the member function), so
// a host batch and a sim:1 batch both work. Clean.
#include <cstdio>

#include <dt/dt.h>

namespace nn {

class Linear {
 public:
  Linear(dt_device dev, int64_t in, int64_t out) : dev_(dev), shape_{in, out} {
    w_ = dt_randn(dev_, 7, 2, shape_);
  }
  ~Linear() { dt_free(w_); }
  dt_tensor *forward(const dt_tensor *x) const {
    if (dt_device_equal(dt_device_of(x), dev_)) return dt_matmul(x, w_);
    dt_tensor *moved = dt_to_device(x, dev_);
    dt_tensor *y = dt_matmul(moved, w_);
    dt_free(moved);
    return y;
  }

 private:
  dt_device dev_;
  int64_t shape_[2];
  dt_tensor *w_ = nullptr;
};

}  // namespace nn

int main() {
  nn::Linear layer(dt_sim(1), 4, 3);
  const int64_t xs[2] = {2, 4};
  dt_tensor *host = dt_ones(dt_cpu(), DT_FLOAT, 2, xs);
  dt_tensor *dev = dt_ones(dt_sim(1), DT_FLOAT, 2, xs);
  dt_tensor *a = layer.forward(host);
  dt_tensor *b = layer.forward(dev);
  std::printf("%lld %lld\n", (long long)dt_numel(a), (long long)dt_numel(b));
  dt_free(a);
  dt_free(b);
  dt_free(dev);
  dt_free(host);
  return 0;
}
