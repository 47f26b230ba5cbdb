// provenance: blind round cxx1
// std::unique_ptr<dt_tensor, TensorDeleter> owning tensors: make, get, reset, release and
// move between owners. The owned tensors are replaced several times, always by tensors on the
// same device as the model (sim:1). Clean.
#include <dt/dt.h>

#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

struct TensorDeleter {
  void operator()(dt_tensor *t) const { dt_free(t); }
};
using TensorPtr = std::unique_ptr<dt_tensor, TensorDeleter>;

static TensorPtr wrap(dt_tensor *t) { return TensorPtr(t); }

class Regressor {
 public:
  explicit Regressor(dt_device dev) : dev_(dev) {
    const int64_t shape[] = {3, 1};
    w_ = wrap(dt_randn(dev_, 21, 2, shape));
  }
  TensorPtr predict(const TensorPtr &x) const { return wrap(dt_matmul(x.get(), w_.get())); }
  void nudge(float by) {
    TensorPtr next = wrap(dt_add_scalar(w_.get(), by));
    w_ = std::move(next);
  }
  void replace(TensorPtr w) { w_.reset(w.release()); }
  dt_device device() const { return dev_; }
  const TensorPtr &weight() const { return w_; }

 private:
  dt_device dev_;
  TensorPtr w_;
};

int main() {
  Regressor r(dt_sim(1));
  const int64_t xshape[] = {2, 3};
  TensorPtr x = wrap(dt_ones(r.device(), DT_FLOAT, 2, xshape));
  TensorPtr y = r.predict(x);
  r.nudge(0.5f);
  TensorPtr y2 = r.predict(x);

  TensorPtr scaled = wrap(dt_mul_scalar(r.weight().get(), 2.0f));
  r.replace(std::move(scaled));
  TensorPtr y3 = r.predict(x);

  std::vector<TensorPtr> outputs;
  outputs.push_back(std::move(y));
  outputs.push_back(std::move(y2));
  outputs.push_back(std::move(y3));
  const int64_t oshape[] = {2, 1};
  TensorPtr acc = wrap(dt_zeros(r.device(), DT_FLOAT, 2, oshape));
  for (auto &o : outputs) {
    acc.reset(dt_add(acc.get(), o.get()));
  }
  float v[2];
  dt_read_floats(acc.get(), v, 2);
  std::printf("%.3f %.3f\n", v[0], v[1]);
  return 0;
}
