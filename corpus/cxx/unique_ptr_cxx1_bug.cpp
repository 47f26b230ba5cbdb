// provenance: blind round cxx1
// std::unique_ptr with a custom deleter owns an encoder's weights. A warm-start routine
// reset()s the projection with a tensor loaded on the host "for inspection" and forgets to
// move it back; the encoder's input is on sim:0, so the projection matmul fails.
#include <dt/dt.h>

#include <cstdio>
#include <memory>
#include <utility>

namespace enc {

struct Free {
  void operator()(dt_tensor *t) const noexcept { dt_free(t); }
};
using Owned = std::unique_ptr<dt_tensor, Free>;

class Encoder {
 public:
  Encoder(dt_device dev, int64_t dim) : dev_(dev), dim_(dim) {
    const int64_t shape[] = {dim_, dim_};
    embed_.reset(dt_randn(dev_, 3, 2, shape));
    proj_.reset(dt_randn(dev_, 4, 2, shape));
  }
  void warm_start(const float *values) {
    const int64_t shape[] = {dim_, dim_};
    Owned loaded(dt_from_floats(dt_cpu(), values, 2, shape));
    float first = 0.0f;
    float buf[16];
    if (dt_read_floats(loaded.get(), buf, 16) == 0) first = buf[0];
    std::printf("warm start, first value %.2f\n", first);
    proj_ = std::move(loaded);
  }
  Owned encode(const Owned &x) const {
    Owned h(dt_matmul(x.get(), embed_.get()));
    Owned a(dt_relu(h.get()));
    return Owned(dt_matmul(a.get(), proj_.get())); // expect-error: backend-mismatch
  }
  dt_device device() const { return dev_; }

 private:
  dt_device dev_;
  int64_t dim_;
  Owned embed_;
  Owned proj_;
};

}  // namespace enc

int main() {
  enc::Encoder e(dt_sim(0), 4);
  const int64_t xshape[] = {2, 4};
  enc::Owned x(dt_ones(e.device(), DT_FLOAT, 2, xshape));
  enc::Owned before = e.encode(x);
  float init[16];
  for (int i = 0; i < 16; ++i) init[i] = (i % 5 == 0) ? 1.0f : 0.0f;
  e.warm_start(init);
  enc::Owned after = e.encode(x);
  std::printf("%s\n", after ? "encoded" : "failed");
  return 0;
}
